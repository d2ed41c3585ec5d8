// What the Dashboard, Source and Connection resources send (provider/dashboard|source|connection),
// as bodies the scenarios reuse: the smallest of each kind, and the ids an answer gives tiles.

import type { RecordedAnswer } from "../recording";
import type { Session } from "../session";

export const CONNECTIONS = "/api/v2/connections";
export const SOURCES = "/api/v2/sources";
export const DASHBOARDS = "/api/v2/dashboards";
/** An ObjectId that names nothing on the server. */
export const NOTHING = "0123456789abcdef01234567";

/** A connection as the Connection resource creates it (never contacted: a stored host). */
export const aConnection = (name: string): Record<string, unknown> => ({
  name,
  host: "http://127.0.0.1:1",
  username: "default",
});

/** What HyperDX's server requires of a trace source besides a log source's fields. */
export const TRACE_EXPRESSIONS = {
  durationExpression: "Duration",
  traceIdExpression: "TraceId",
  spanIdExpression: "SpanId",
  parentSpanIdExpression: "ParentSpanId",
  spanNameExpression: "SpanName",
  spanKindExpression: "SpanKind",
};

/** A log source as the Source resource sends it, every field it would send set. */
export const aLogSource = (connection: string, name = "Logs"): Record<string, unknown> => ({
  kind: "log",
  name,
  connection,
  from: { databaseName: "default", tableName: "otel_logs" },
  timestampValueExpression: "Timestamp",
  defaultTableSelectExpression: "Timestamp,Body",
  implicitColumnExpression: "Body",
  serviceNameExpression: "ServiceName",
  severityTextExpression: "SeverityText",
  bodyExpression: "Body",
});

export const lineTile = (
  name: string,
  sourceId: string,
  x = 0,
  y = 0,
  select: unknown[] = [{ aggFn: "count", where: "SeverityText:error", whereLanguage: "lucene" }],
): Record<string, unknown> => ({ name, x, y, w: 6, h: 3, config: { displayType: "line", sourceId, select } });

export const withDisplay = (tile: Record<string, unknown>, displayType: string): Record<string, unknown> => ({
  ...tile,
  config: { ...(tile.config as Record<string, unknown>), displayType },
});

export async function made(s: Session, what: string, path: string, body: unknown): Promise<string> {
  return s.id(await s.setup(what, "POST", path, body));
}

/** The ids an answer gave a dashboard's tiles, in order. */
export function tileIdsIn(answer: RecordedAnswer): string[] {
  const tiles = (answer.body as { data?: { tiles?: { id?: unknown }[] } } | undefined)?.data?.tiles ?? [];
  return tiles.map((t, i) => {
    if (typeof t.id !== "string") throw new Error(`tile ${i} has no id in ${JSON.stringify(answer.body)}`);
    return t.id;
  });
}
