// A server that answers from a recording of HyperDX's API (test/recorded/hyperdx-b52a6fa/) and
// nothing else: each request must be the next one recorded for its resource (its method, path with
// query, and body, as normalized in the recording), whatever the interleaving between resources;
// any other is answered 400 and kept in `offRecording`, for the test to fail on. No exception: an
// update's read before its PUT (issue 44), a tile alert's read of its dashboard (issue 45) and the
// alerting token's check read (issue 45) are recorded like any other request.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import type { Exchange, Recording } from "../../scripts/record/recording";
import { FIXED, resourceOf } from "../../scripts/record/recording";
import { expect } from "vitest";
import { afterFile, changes, type RunOutcome } from "./engine";

export interface ReplayServer {
  readonly url: string;
  /** "METHOD path body" of every request the recording has no answer for, in arrival order. */
  readonly offRecording: string[];
  /** The recorded requests not asked for yet. */
  left(): Exchange[];
  /** Each request answered from the recording, as sent, in arrival order. */
  readonly answered: Exchange["request"][];
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
  const answered: Exchange["request"][] = [];
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
    answered,
    left: () => [...queues.values()].flat().sort((a, b) => a.n - b.n),
  };
}

/**
 * One run of a replayed lifecycle: it must send only requests the recording answers and succeed.
 * Answers what it changed, as `changes` words it.
 */
export async function replayedRun(replay: ReplayServer, run: () => Promise<RunOutcome>): Promise<string[]> {
  const before = replay.offRecording.length;
  const result = await run();
  expect(replay.offRecording.slice(before), "requests the recording has no answer for").toEqual([]);
  expect(result.ok, result.told).toBe(true);
  return changes(result);
}

/** The recorded requests a replay was never asked for, one line each. */
export function unasked(replay: ReplayServer): string[] {
  return replay.left().map((x) => `#${x.n} ${x.request.method} ${x.request.path}`);
}
