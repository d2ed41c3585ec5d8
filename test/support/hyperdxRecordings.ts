// The recordings of HyperDX's API (test/recorded/hyperdx-b52a6fa/, scripts/record/), read for the
// replay tiers: each file's exchanges, and what of an answer must agree with the recorded one.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RECORDED_FOLDER, type Exchange, type RecordedAnswer, type Recording } from "../../scripts/record/recording";
import { repoRoot } from "../../scripts/packedPackage";

export type { Exchange, RecordedAnswer, Recording };

export const RECORDED_DIR = join(repoRoot(), "test", "recorded", RECORDED_FOLDER);

/** Every recording, by scenario name, in file order. */
export function recordings(dir = RECORDED_DIR): Recording[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as Recording);
}

export function recording(name: string, dir = RECORDED_DIR): Recording {
  return JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Recording;
}

const OBJECT_ID = /\b[0-9a-f]{24}\b/g;
const WHOLE_ID = /^[0-9a-f]{24}$/;

/** A value's kind, members and all: what two answers to the same request must share. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  }
  return typeof value;
}

/** The members an answer sends back as they were sent: each server's ids and times aside. */
export const ECHOED = [
  "threshold",
  "interval",
  "source",
  "thresholdType",
  "channel",
  "channels",
  "name",
  "message",
  "dashboardId",
  "tileId",
  "savedSearchId",
  "state",
  "thresholdMax",
  "scheduleOffsetMinutes",
  "scheduleStartAt",
  "numConsecutiveWindows",
  "note",
  "groupBy",
  "service",
  "url",
  "description",
  "body",
  "headers",
  "queryParams",
  "sourceId",
  "select",
  "where",
  "whereLanguage",
  "orderBy",
  "tags",
  "filters",
  // Dashboards (tiles with their ids: kept or new as the server gave them), sources, connections.
  "tiles",
  "containers",
  "savedQuery",
  "savedQueryLanguage",
  "savedFilterValues",
  "kind",
  "connection",
  "from",
  "timestampValueExpression",
  "defaultTableSelectExpression",
  "bodyExpression",
  "serviceNameExpression",
  "durationPrecision",
  "traceSourceId",
  "metricTables",
  "host",
  "username",
  "hyperdxSettingPrefix",
  "isPrometheusEndpoint",
];

/** Headers whose presence must agree; RateLimit-Limit and Retry-After must agree in value too. */
export const HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "x-total-count"];

/**
 * The recording's ids and another server's, both ways: filled as that server answers the creates
 * the recording made, so a later request names the other server's object and its answers read
 * with the recording's ids.
 */
export class IdMap {
  private readonly there = new Map<string, string>();
  private readonly back = new Map<string, string>();

  set(recorded: string, other: string): void {
    if (this.there.has(recorded) || recorded === other) return;
    this.there.set(recorded, other);
    this.back.set(other, recorded);
  }

  /** Learns the pairs where the recorded answer holds an id and the other answer a string in its place. */
  learn(recorded: unknown, other: unknown): void {
    if (typeof recorded === "string" && WHOLE_ID.test(recorded) && typeof other === "string") this.set(recorded, other);
    else if (Array.isArray(recorded) && Array.isArray(other)) recorded.forEach((r, i) => this.learn(r, other[i]));
    else if (typeof recorded === "object" && recorded !== null && typeof other === "object" && other !== null) {
      for (const [k, v] of Object.entries(recorded)) this.learn(v, (other as Record<string, unknown>)[k]);
    }
  }

  private static rewrite(value: unknown, map: ReadonlyMap<string, string>): unknown {
    if (typeof value === "string") {
      const whole = map.get(value);
      return whole ?? value.replace(OBJECT_ID, (id) => map.get(id) ?? id);
    }
    if (Array.isArray(value)) return value.map((v) => IdMap.rewrite(v, map));
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, IdMap.rewrite(v, map)]));
    return value;
  }

  /** Whether a recorded id has the other server's counterpart (the other made it too). */
  knows(recorded: string): boolean {
    return this.there.has(recorded);
  }

  /** A recorded value (a path, a body) with the other server's ids. */
  toOther<T>(value: T): T {
    return IdMap.rewrite(value, this.there) as T;
  }

  /** An answer of the other server with the recording's ids. */
  toRecorded<T>(value: T): T {
    return IdMap.rewrite(value, this.back) as T;
  }
}

/** What must agree between the recorded answer and another's (already in the recording's ids). */
export function comparable(answer: RecordedAnswer, exchange: Pick<Exchange, "words">): Record<string, unknown> {
  const body = answer.body as { data?: unknown; message?: unknown } | undefined;
  const data = body?.data;
  const object =
    typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  return {
    status: answer.status,
    contentType: (answer.headers["content-type"] ?? "").split(";")[0],
    shape: shapeOf(answer.body),
    echoed:
      object === undefined
        ? undefined
        : Object.fromEntries(ECHOED.map((k) => [k, object[k]]).filter(([, v]) => v !== undefined)),
    ...(exchange.words === true ? { words: body?.message } : {}),
    headers: HEADERS.filter((h) => answer.headers[h] !== undefined),
    limit: answer.headers["ratelimit-limit"],
    retryAfter: answer.headers["retry-after"],
  };
}
