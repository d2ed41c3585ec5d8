// What the Source resource sends (provider/source/behaviour.ts: the whole source on every write, read
// through the list), each kind's smallest body as the server enforces it, and a delete that neither
// refuses nor cascades.

import type { Scenario } from "../scenario";
import { SEARCHES } from "./rows";
import {
  CONNECTIONS,
  DASHBOARDS,
  NOTHING,
  SOURCES,
  TRACE_EXPRESSIONS,
  aConnection,
  aLogSource,
  lineTile,
  made,
} from "./observability";

const TRACE_FIELDS = { defaultTableSelectExpression: "Timestamp,SpanName", ...TRACE_EXPRESSIONS };

export const sources: Scenario = {
  name: "sources",
  about:
    "What the Source resource sends, and the server's answers: each kind's required fields as enforced, defaults " +
    "added, unknown fields dropped, a PUT replacing the whole source (null refused), a delete that never refuses.",
  async run(s) {
    const connection = s.name("connectionId", await made(s, "a connection", CONNECTIONS, aConnection("ch-sources")));
    /** A source of `kind` on the connection and a table of the default database, then `more`. */
    const on = (kind: string, name: string, tableName: string, more: Record<string, unknown> = {}) => ({
      kind,
      name,
      connection,
      from: { databaseName: "default", tableName },
      ...more,
    });
    /** A row creating a source of this body. */
    const create = (what: string, body: unknown, options?: Parameters<typeof s.row>[4]) =>
      s.row(what, "POST", SOURCES, body, options);
    await create(
      "create the smallest log source (defaults added)",
      on("log", "Logs small", "otel_logs", {
        timestampValueExpression: "Timestamp",
        defaultTableSelectExpression: "Timestamp,Body",
      }),
    );
    const log = s.id(await create("create a log source as the resource does", aLogSource(connection)));
    s.name("sourceId", log);
    const trace = s.id(
      await create(
        "create a trace source without durationPrecision (given 3)",
        on("trace", "Traces", "otel_traces", { timestampValueExpression: "Timestamp", ...TRACE_FIELDS }),
        { deliberate: true },
      ),
    );
    await create(
      "create a trace source without spanKindExpression (refused)",
      on("trace", "Traces bad", "otel_traces", {
        timestampValueExpression: "Timestamp",
        ...TRACE_FIELDS,
        spanKindExpression: undefined,
      }),
    );
    await create(
      "create a metric source (its table empty)",
      on("metric", "Metrics", "", {
        timestampValueExpression: "TimeUnix",
        metricTables: { gauge: "otel_metrics_gauge", sum: "otel_metrics_sum" },
        resourceAttributesExpression: "ResourceAttributes",
      }),
    );
    await create(
      "create a session source without timestampValueExpression (refused)",
      on("session", "Sessions bad", "hyperdx_sessions", { traceSourceId: trace }),
    );
    await create(
      "create a session source with timestampValueExpression",
      on("session", "Sessions", "hyperdx_sessions", {
        traceSourceId: trace,
        timestampValueExpression: "TimestampTime",
      }),
      { deliberate: true },
    );
    await create(
      "create a promql source of from and timestampValueExpression",
      on("promql", "Prometheus", "prom", { timestampValueExpression: "Timestamp" }),
    );
    await create("create a source on a connection that does not exist (refused)", {
      ...aLogSource(NOTHING, "Logs nowhere"),
    });
    await create("create a source on a connection id that is no ObjectId (refused)", {
      ...aLogSource("abc", "Logs abc"),
    });
    await create(
      "create a source with an unknown field (dropped)",
      {
        ...aLogSource(connection, "Logs bogus"),
        bogusField: 1,
      },
      { deliberate: true },
    );
    await s.row("list sources (not paged)", "GET", SOURCES);
    const { bodyExpression: _cleared, ...withoutBody } = aLogSource(connection, "Logs 2");
    await s.row(
      "update the log source whole, bodyExpression left out (cleared)",
      "PUT",
      `${SOURCES}/${log}`,
      withoutBody,
    );
    await s.row("read it after the update", "GET", `${SOURCES}/${log}`);
    await s.row("update it with a name only (refused: the whole source is needed)", "PUT", `${SOURCES}/${log}`, {
      name: "Logs 3",
    });
    await s.row("update it with serviceNameExpression null (refused)", "PUT", `${SOURCES}/${log}`, {
      ...aLogSource(connection, "Logs 3"),
      serviceNameExpression: null,
    });
    await s.row("update it to a trace source without the trace fields (refused)", "PUT", `${SOURCES}/${log}`, {
      ...aLogSource(connection, "Logs 3"),
      kind: "trace",
    });
    await s.row(
      "update it with metadataMaterializedViews without granularity (refused: the server requires it)",
      "PUT",
      `${SOURCES}/${log}`,
      {
        ...aLogSource(connection, "Logs 3"),
        metadataMaterializedViews: {
          keyRollupTable: "otel_logs_key_rollup_15m",
          kvRollupTable: "otel_logs_kv_rollup_15m",
        },
      },
      { words: true },
    );
    await s.row("read a source that does not exist", "GET", `${SOURCES}/${NOTHING}`, undefined, { words: true });
    await s.row("update a source that does not exist", "PUT", `${SOURCES}/${NOTHING}`, aLogSource(connection));
    // A delete while a saved search and a dashboard tile use it: 200, nothing refused or cascaded.
    const used = await made(s, "a source for a search and a tile", SOURCES, aLogSource(connection, "Logs used"));
    const search = await made(s, "a saved search on it", SEARCHES, {
      name: "errors-used",
      sourceId: used,
      where: "a:b",
    });
    const tiles = [lineTile("Errors", used)];
    const dashboard = await made(s, "a dashboard with a tile on it", DASHBOARDS, { name: "dash-used", tiles });
    await s.row("delete the source they use (neither refused nor cascaded)", "DELETE", `${SOURCES}/${used}`);
    await s.row("read the saved search (still names the gone source)", "GET", `${SEARCHES}/${search}`);
    await s.row("update the saved search on the gone source (refused)", "PUT", `${SEARCHES}/${search}`, {
      name: "errors-used",
      sourceId: used,
      where: "a:b",
    });
    await s.row(
      "update the dashboard whose tile reads the gone source (refused)",
      "PUT",
      `${DASHBOARDS}/${dashboard}`,
      {
        name: "dash-used",
        tiles,
      },
    );
    await s.row("delete a source already gone", "DELETE", `${SOURCES}/${used}`, undefined, { words: true });
  },
};
