// The smallest log and trace sources HyperDX's server takes, stated once for the tests of Source,
// Dashboard and the stacks built on them; each test adds the connection it has.

import { TRACE_EXPRESSIONS } from "../../scripts/record/scenarios/observability";

/** A log source on the default database's otel_logs, without its connection. */
export const LOG_SOURCE = {
  kind: "log",
  name: "Logs",
  from: { databaseName: "default", tableName: "otel_logs" },
  timestampValueExpression: "Timestamp",
  defaultTableSelectExpression: "Timestamp, Body",
};

/** A trace source on otel_traces, every span expression the server requires set, without its connection. */
export const TRACE_SOURCE = {
  ...LOG_SOURCE,
  kind: "trace",
  name: "Traces",
  from: { databaseName: "default", tableName: "otel_traces" },
  defaultTableSelectExpression: "Timestamp, SpanName",
  ...TRACE_EXPRESSIONS,
};

/** The log source on `connection`. */
export const logSource = (connection: string) => ({ ...LOG_SOURCE, connection });
