// A server that answers from a recording of HyperDX's API (test/recorded/hyperdx-b52a6fa/) and
// nothing else: each request must be the next one recorded for its resource (its method, path with
// query, and body, as normalized in the recording), whatever the interleaving between resources;
// any other is answered 400 and kept in `offRecording`, for the test to fail on. One exception, named
// in `readsBeforeWrite`: the GET of one object that recordings made before them lack, an update's before
// its PUT (issue 44, docs/design/fields-kept.md) and a tile alert's of its dashboard before its write
// (issue 45, docs/design/tile-alerts.md), is answered with the object as the server last answered it in
// the recording (the answer of its create, list, GET or PUT, the recorder's set-up's included). And
// one more, kept apart in `credentialReads`: the alerting token's check (`GET /api/v2/alerts?limit=1`,
// issue 45, docs/design/preview.md), which the lifecycles predate, answered as a list of at most one
// of the alerts the server last answered.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import type { Exchange, Recording } from "../../scripts/record/recording";
import { FIXED, resourceOf } from "../../scripts/record/recording";
import { afterFile } from "./engine";

export interface ReplayServer {
  readonly url: string;
  /** "METHOD path body" of every request the recording has no answer for, in arrival order. */
  readonly offRecording: string[];
  /** The recorded requests not asked for yet. */
  left(): Exchange[];
  /** "GET path" of each unrecorded read of one object, answered from its last recorded answer. */
  readonly readsBeforeWrite: string[];
  /** "GET path" of each credential check read (`CREDENTIAL_READ`), answered from the alerts held. */
  readonly credentialReads: string[];
  /** Each request answered from the recording, as sent, in arrival order. */
  readonly answered: Exchange["request"][];
}

/** The alerting token's check read (provider/http/credentials.ts), the one unrecorded list answered. */
export const CREDENTIAL_READ = "/api/v2/alerts?limit=1";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Each object the answer holds, by its member path: a create's, a GET's or PUT's of one, a list's items. */
function objectsIn(x: Exchange): [string, Obj][] {
  const path = x.request.path.split("?")[0] ?? "";
  const data = isObj(x.answer.body) ? x.answer.body.data : undefined;
  if (x.answer.status !== 200) return [];
  if (Array.isArray(data))
    return data
      .filter((o): o is Obj => isObj(o) && typeof o.id === "string")
      .map((o) => [`${path}/${String(o.id)}`, o]);
  if (!isObj(data) || typeof data.id !== "string") return [];
  return [[x.request.method === "POST" ? `${path}/${data.id}` : path, data]];
}

/** A list of at most one of the alerts last answered, by id, as HyperDX's list answers (meta included). */
function credentialAnswer(lastAnswered: Map<string, Obj>): { data: Obj[]; meta: Obj } {
  const alerts = [...lastAnswered]
    .filter(([member]) => /^\/api\/v2\/alerts\/[^/]+$/.test(member))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, object]) => object);
  return { data: alerts.slice(0, 1), meta: { total: alerts.length, limit: 1, offset: 0 } };
}

/** The recorded headers, a counter normalized away answered as a key with room to spare. */
function headersOf(x: Exchange): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(x.answer.headers)) {
    if (!value.startsWith(FIXED.counter.slice(0, 2))) out[name] = value;
    else out[name] = name === "ratelimit-remaining" ? "99" : "60";
  }
  return out;
}

/** A replay of `recording`'s rows (the requests its client sent; the recorder's own setup left out). */
export async function replayServer(recording: Recording): Promise<ReplayServer> {
  const queues = new Map<string, Exchange[]>();
  for (const x of recording.exchanges.filter((e) => e.role === "row")) {
    const key = resourceOf(x.request.method, x.request.path, x.request.body);
    queues.set(key, [...(queues.get(key) ?? []), x]);
  }
  const offRecording: string[] = [];
  const readsBeforeWrite: string[] = [];
  const credentialReads: string[] = [];
  const answered: Exchange["request"][] = [];
  const lastAnswered = new Map<string, Obj>();
  for (const x of recording.exchanges.filter((e) => e.role !== "row"))
    for (const [member, object] of objectsIn(x)) lastAnswered.set(member, object);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text === "" ? undefined : text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // not JSON: matched as text
      }
      const method = req.method ?? "GET";
      const path = req.url ?? "/";
      const queue = queues.get(resourceOf(method, path, body)) ?? [];
      const next = queue[0];
      if (
        next === undefined ||
        next.request.method !== method ||
        next.request.path !== path ||
        !isDeepStrictEqual(next.request.body, body)
      ) {
        const held = method === "GET" ? lastAnswered.get(path) : undefined;
        if (held !== undefined) {
          readsBeforeWrite.push(`${method} ${path}`);
          res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
          res.end(JSON.stringify({ data: held }));
          return;
        }
        if (method === "GET" && path === CREDENTIAL_READ) {
          credentialReads.push(`${method} ${path}`);
          const answer = credentialAnswer(lastAnswered);
          res.writeHead(200, {
            "content-type": "application/json; charset=utf-8",
            "x-total-count": String(answer.meta.total),
          });
          res.end(JSON.stringify(answer));
          return;
        }
        offRecording.push(`${method} ${path} ${text}`);
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            message: `no recording for ${method} ${path} with this body (next here: ${next === undefined ? "none" : `#${next.n}`})`,
          }),
        );
        return;
      }
      queue.shift();
      answered.push({ method, path, ...(body === undefined ? {} : { body }) });
      for (const [member, object] of objectsIn(next)) lastAnswered.set(member, object);
      if (method === "DELETE") lastAnswered.delete(path);
      const answer = next.answer.body;
      res.writeHead(next.answer.status, headersOf(next));
      res.end(answer === undefined ? "" : typeof answer === "string" ? answer : JSON.stringify(answer));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterFile(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    offRecording,
    readsBeforeWrite,
    credentialReads,
    answered,
    left: () => [...queues.values()].flat().sort((a, b) => a.n - b.n),
  };
}
