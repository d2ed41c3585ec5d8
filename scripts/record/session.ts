// One scenario's run against a HyperDX API server: sends each request with the recorder's key,
// keeps what was sent and answered (raw, normalized once at the end), and waits out a 429 of the
// shared key rather than recording it. A list's answer keeps only the objects this scenario saw.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { request } from "undici";
import { HEADERS_KEPT, type RawExchange, type RecordedAnswer, type Role } from "./recording";

export interface RowOptions {
  /** Sent wrong on purpose (a validation failure). */
  readonly deliberate?: boolean;
  /** The error's words must agree on replay. */
  readonly words?: boolean;
  /** A difference the emulator keeps on purpose: why. */
  readonly kept?: string;
  /** Another key than the recorder's (its answers are never waited out; its counters kept). */
  readonly key?: string;
  /** Keep RateLimit-Remaining as answered: a row about the key's count. */
  readonly counted?: boolean;
  /** Spend the key's window to its last request first (unrecorded), then send this one, 429 and all. */
  readonly spent?: boolean;
  /** Sent through the proxy, beside others of its phase: ordered canonically (recording.ts). */
  readonly concurrent?: boolean;
  /** When it was sent (ms; set by the session). */
  readonly sentAt?: number;
}

const OBJECT_ID = /\b[0-9a-f]{24}\b/g;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function idsIn(value: unknown, into: Set<string>): void {
  if (typeof value === "string") for (const m of value.matchAll(OBJECT_ID)) into.add(m[0]);
  else if (Array.isArray(value)) for (const v of value) idsIn(v, into);
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) idsIn(v, into);
}

function parse(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function kept(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of HEADERS_KEPT) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export class Session {
  readonly raw: RawExchange[] = [];
  readonly named: Record<string, string> = {};
  /** Ids this scenario sent or was answered: a list keeps only these. */
  private readonly seen = new Set<string>();
  /** What it made, to delete at the end, in order. */
  private readonly made: string[] = [];
  /** Other keys used, to normalize like the recorder's. */
  readonly otherKeys = new Set<string>();

  constructor(
    readonly url: string,
    readonly key: string,
  ) {}

  /** Sends without recording: the answer, raw. */
  async send(method: string, path: string, body?: unknown, key = this.key, wait = true): Promise<RecordedAnswer> {
    for (;;) {
      const res = await request(`${this.url}${path}`, {
        method: method as "GET",
        headers: {
          authorization: `Bearer ${key}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.body.text();
      const headers = kept(res.headers);
      if (res.statusCode === 429 && key === this.key && wait) {
        // The shared key's window is spent (another scenario, another recorder): wait, send again.
        await sleep((Number(headers["retry-after"] ?? "60") + 1) * 1000);
        continue;
      }
      return { status: res.statusCode, headers, ...(text === "" ? {} : { body: parse(text) }) };
    }
  }

  private record(
    role: Role,
    what: string,
    method: string,
    path: string,
    body: unknown,
    answer: RecordedAnswer,
    options: RowOptions,
  ) {
    idsIn(path, this.seen);
    idsIn(body, this.seen);
    const listed = answer.body as { data?: unknown } | undefined;
    let shown = answer;
    if (method === "GET" && Array.isArray(listed?.data)) {
      const all = listed.data as Array<{ id?: unknown }>;
      const mine = all.filter((o) => typeof o.id === "string" && this.seen.has(o.id));
      // Another scenario's objects (the team is shared) are left out, and the total with them.
      const meta = (listed as { meta?: { total?: unknown } }).meta;
      const dropped = all.length - mine.length;
      const total =
        typeof meta?.total === "number" && dropped > 0 ? { meta: { ...meta, total: meta.total - dropped } } : {};
      shown = { ...answer, body: { ...listed, data: mine, ...total } };
    }
    idsIn(shown.body, this.seen);
    if (options.key !== undefined) this.otherKeys.add(options.key);
    // A request the server refused as invalid was sent wrong on purpose: replays tag it so.
    const deliberate = options.deliberate ?? answer.status === 400;
    this.raw.push({
      role,
      what,
      ...(deliberate ? { deliberate: true } : {}),
      ...(options.words === true ? { words: true } : {}),
      ...(options.kept === undefined ? {} : { kept: options.kept }),
      ...(options.key === undefined ? {} : { key: options.key }),
      ...(options.counted === true || options.key !== undefined ? { counted: true } : {}),
      ...(options.spent === true ? { spent: true } : {}),
      ...(options.concurrent === true
        ? { timing: { sentAt: options.sentAt ?? 0, answeredAt: performance.now() } }
        : {}),
      request: { method, path, ...(body === undefined ? {} : { body }) },
      answer: shown,
    });
  }

  private async exchange(role: Role, what: string, method: string, path: string, body: unknown, options: RowOptions) {
    if (options.spent === true) await this.spend();
    const sentAt = performance.now();
    const answer = await this.send(method, path, body, options.key, options.spent !== true);
    const id = (answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
    if (method === "POST" && answer.status === 200 && typeof id === "string")
      this.made.push(`${path.split("?")[0]}/${id}`);
    this.record(role, what, method, path, body, answer, { ...options, sentAt });
    return answer;
  }

  /** A request made for the rows (the replay sends it too). */
  setup(what: string, method: string, path: string, body?: unknown, options: RowOptions = {}) {
    return this.exchange("setup", what, method, path, body, options);
  }

  /** A request under test. */
  row(what: string, method: string, path: string, body?: unknown, options: RowOptions = {}) {
    return this.exchange("row", what, method, path, body, options);
  }

  /** Spends the key's window until its last request is gone (a cheap list of one, unrecorded). */
  async spend(): Promise<void> {
    for (;;) {
      const answer = await this.send("GET", "/api/v2/alerts?limit=1", undefined, this.key, false);
      if (answer.headers["ratelimit-remaining"] === "0" || answer.status === 429) return;
    }
  }

  /** A made object's id (`data.id`), or an error naming the answer. */
  id(answer: RecordedAnswer): string {
    const id = (answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
    if (typeof id !== "string") throw new Error(`no data.id in ${answer.status} ${JSON.stringify(answer.body)}`);
    return id;
  }

  /** Names an id for a replay (the program's references). */
  name(name: string, id: string): string {
    this.named[name] = id;
    return id;
  }

  /** Deletes what the scenario made and is not gone yet, alerts first, unrecorded. */
  async cleanup(): Promise<void> {
    const order = (p: string) => (p.startsWith("/api/v2/alerts/") ? 0 : 1);
    const left = [...this.made].reverse().sort((a, b) => order(a) - order(b));
    for (const path of left) await this.send("DELETE", path);
  }

  /**
   * A loopback proxy to the server that records every request through it as a row named by
   * `phase()`: what the provider sends, as it sends it.
   */
  async proxy(phase: () => string): Promise<{ url: string; close: () => Promise<void> }> {
    const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const method = req.method ?? "GET";
        const path = req.url ?? "/";
        const body = chunks.length === 0 ? undefined : parse(Buffer.concat(chunks).toString("utf8"));
        const answer = await this.exchange("row", phase(), method, path, body, { concurrent: true });
        res.writeHead(answer.status, answer.headers);
        res.end(
          answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body),
        );
      })().catch((err: unknown) => {
        res.writeHead(502);
        res.end(String(err));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }
}
