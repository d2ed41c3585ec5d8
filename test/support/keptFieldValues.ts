// What a person sets by hand, through HyperDX's API or its UI, on the fields the definitions do not
// name (docs/design/fields-kept.md): one set of values for the emulator's and the recordings' tests.

type Obj = Record<string, unknown>;

/** What a user sets on the log source in the UI (HyperDX's MaterializedView and its siblings). */
export const SOURCE_BY_HAND: Obj = {
  materializedViews: [
    {
      databaseName: "default",
      tableName: "otel_logs_mv_5m",
      dimensionColumns: "ServiceName, SeverityText",
      minGranularity: "5m",
      timestampColumn: "Timestamp",
      aggregatedColumns: [{ aggFn: "count", mvColumn: "count" }],
    },
  ],
  metadataMaterializedViews: {
    keyRollupTable: "otel_logs_key_rollup_15m",
    kvRollupTable: "otel_logs_kv_rollup_15m",
    granularity: "15m",
  },
  knownColumnsListExpression: "Timestamp, Body, ServiceName",
};
export const METRIC_TABLES = { gauge: "otel_metrics_gauge", sum: "otel_metrics_sum" };
/** The metric source's tables once the exponential histogram one is set by hand. */
export const METRIC_TABLES_BY_HAND = {
  ...METRIC_TABLES,
  "exponential histogram": "otel_metrics_exponential_histogram",
};
export const COLOR_RULES = [{ operator: "gt", value: 100, color: "chart-red" }];
export const BACKGROUND = { type: "line" };
export const onClick = (sourceId: string) => ({ type: "search", target: { mode: "id", id: sourceId } });
