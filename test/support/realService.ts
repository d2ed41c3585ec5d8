// Test support for the real tier: one HyperDX API per test file on a fresh database of the run's
// FerretDB (realGlobalSetup.ts), with a user made by the server's own registration, and what its
// alerts refer to (a webhook, a saved search, a dashboard with a tile) made through its API.

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "undici";
import { afterAll, beforeAll, inject } from "vitest";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { registerUser, startHyperdxApi, type RunningProcess } from "../../scripts/realService/server";
import type { StackConfig } from "../../scripts/exampleStack";
import { setEnv } from "./emulatorPerTest";

export interface RealService {
  /** The API's origin; the external API is under `/api/v2`. */
  readonly url: string;
  /** The registered user's access key (`Authorization: Bearer <key>`). */
  readonly accessKey: string;
  /** The server's log file, for a failure's message. */
  readonly logFile: string;
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** One request to the external API with the user's key, its answer read whole. */
export async function call(
  service: { url: string; accessKey: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const res = await request(`${service.url}${path}`, {
    method: method as "GET",
    headers: {
      authorization: `Bearer ${service.accessKey}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  let parsed: unknown = text;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.statusCode, headers, body: parsed };
}

/** The id in a create's `{data: {id}}`, or an error naming what the server said. */
async function created(service: RealService, path: string, body: unknown): Promise<string> {
  const answer = await call(service, "POST", path, body);
  const id = (answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
  if (answer.status !== 200 || typeof id !== "string") {
    throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return id;
}

/** What alerts on the real service refer to, made through its API: it checks each exists. */
export interface Referents {
  readonly webhookId: string;
  /** The log source the saved search reads (a connection's, never contacted). */
  readonly sourceId: string;
  readonly savedSearchId: string;
  readonly dashboardId: string;
  readonly tileId: string;
}

/**
 * A webhook, a source on a connection (neither contacts ClickHouse when made), a saved search on it,
 * and a dashboard with one line tile: five creates, seven requests of the key's 100 a minute.
 */
export async function makeReferents(service: RealService): Promise<Referents> {
  const tag = randomBytes(3).toString("hex");
  const webhookId = await created(service, "/api/v2/webhooks", {
    name: `hook-${tag}`,
    service: "generic",
    url: `https://example.com/hooks/${tag}`,
  });
  const connection = await created(service, "/api/v2/connections", {
    name: `ch-${tag}`,
    host: "http://127.0.0.1:1",
    username: "default",
    password: "",
  });
  const sourceId = await created(service, "/api/v2/sources", {
    kind: "log",
    name: `Logs ${tag}`,
    connection,
    from: { databaseName: "default", tableName: "otel_logs" },
    timestampValueExpression: "Timestamp",
    defaultTableSelectExpression: "Timestamp,Body",
    implicitColumnExpression: "Body",
  });
  const savedSearchId = await created(service, "/api/v2/saved-searches", {
    name: `errors-${tag}`,
    sourceId,
    where: "level:error",
  });
  const dashboard = await call(service, "POST", "/api/v2/dashboards", {
    name: `dash-${tag}`,
    tiles: [
      {
        name: "errors",
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        config: { displayType: "line", sourceId, select: [{ aggFn: "count", where: "level:error" }] },
      },
    ],
  });
  // The service names the tile itself.
  const made = (dashboard.body as { data?: { id?: unknown; tiles?: { id?: unknown }[] } } | undefined)?.data;
  const dashboardId = made?.id;
  const tileId = made?.tiles?.[0]?.id;
  if (dashboard.status !== 200 || typeof dashboardId !== "string" || typeof tileId !== "string") {
    throw new Error(`POST /api/v2/dashboards answered ${dashboard.status}: ${JSON.stringify(dashboard.body)}`);
  }
  return { webhookId, sourceId, savedSearchId, dashboardId, tileId };
}

/**
 * The real service for this test file: HyperDX's API started before its first test on a database of
 * its own, a user registered; stopped after its last. Read `service()` inside tests and hooks.
 */
export function realServicePerFile(options: { logRequests?: boolean } = {}): () => RealService {
  let current: RealService | undefined;
  let api: RunningProcess | undefined;
  beforeAll(async () => {
    const { build, mongo, dir } = inject("realService");
    const level = options.logRequests === true ? "info" : "warn";
    api = await startHyperdxApi(build, mongo, `t${randomBytes(6).toString("hex")}`, dir, level);
    const user = await registerUser(api.url);
    current = { url: api.url, accessKey: user.accessKey, logFile: api.logFile };
  });
  afterAll(async () => {
    await api?.stop();
  });
  return () => {
    if (current === undefined) throw new Error("the real service runs only while this file's tests do");
    return current;
  };
}

/**
 * Points the provider of this process at the real service (its URL and the user's key; pacing as a
 * user has it, the default) with a fresh runtime, the notices it says collected; undo with the answer's `restore`.
 */
export function providerOn(service: RealService): { notices: string[]; restore: () => void } {
  const notices: string[] = [];
  const restoreEnv = setEnv({ ALERTPIPE_ALERTING_URL: service.url, ALERTPIPE_ALERTING_TOKEN: service.accessKey });
  const rate = process.env.ALERTPIPE_ALERTING_RATE_LIMIT;
  delete process.env.ALERTPIPE_ALERTING_RATE_LIMIT;
  resetRuntime();
  useRuntime({ notices: (line) => notices.push(line) });
  return {
    notices,
    restore: () => {
      restoreEnv();
      if (rate !== undefined) process.env.ALERTPIPE_ALERTING_RATE_LIMIT = rate;
      resetRuntime();
    },
  };
}

/** The stack config that points a program's provider at the real service: the alerting area alone. */
export function realConfig(service: RealService): StackConfig {
  return {
    "alertpipe:alertingUrl": { value: service.url },
    "alertpipe:alertingToken": { value: service.accessKey, secret: true },
  };
}

/** A request the server answers and logs at once, its `mark` in the log's line: where a stretch of the log begins or ends. */
async function mark(service: RealService): Promise<string> {
  const tag = `mark=${randomBytes(6).toString("hex")}`;
  // The API's root: the key checked, no rate limit counted.
  await call(service, "GET", `/api/v2?${tag}`);
  return tag;
}

/** The log's lines up to and including the one holding `tag`, once it is written (the log is flushed after the answer). */
async function linesThrough(service: RealService, tag: string): Promise<string[]> {
  for (let waited = 0; ; waited += 50) {
    const lines = readFileSync(service.logFile, "utf8").split("\n");
    const at = lines.findIndex((line) => line.includes(tag));
    if (at >= 0) return lines.slice(0, at + 1);
    if (waited > 10_000) throw new Error(`the server's log has no line of ${tag} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * "METHOD path" of every request to the external API the server answered while `work` ran, in
 * order, as its own log records them (the server started with `logRequests`: pino-http logs each).
 */
export async function requestsDuring<T>(service: RealService, work: () => Promise<T>): Promise<[T, string[]]> {
  const before = await mark(service);
  const done = await work();
  const after = await mark(service);
  const from = (await linesThrough(service, before)).length;
  const found: string[] = [];
  for (const line of (await linesThrough(service, after)).slice(from, -1)) {
    const m = /"method":"([A-Z]+)","url":"(\/api\/v2[^"?]*)/.exec(line);
    if (m !== null) found.push(`${m[1]} ${m[2]}`);
  }
  return [done, found];
}

/** How many answers of `status` the server's log records (HyperDX logs every 4xx and 5xx at warn). */
export function answersLogged(service: RealService, status: number): number {
  return readFileSync(service.logFile, "utf8")
    .split("\n")
    .filter((line) => line.includes(`"statusCode":${status}`)).length;
}
