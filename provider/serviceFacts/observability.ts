// What HyperDX's server (b52a6fa) holds of dashboards, sources and connections, and what it enforces
// of them (docs/design/dashboards-sources-connections.md). Read by the provider and the emulator.

export const DASHBOARDS_PATH = "/api/v2/dashboards";
export const SOURCES_PATH = "/api/v2/sources";
export const CONNECTIONS_PATH = "/api/v2/connections";

export const DISPLAY_TYPES = [
  "line",
  "stacked_bar",
  "table",
  "number",
  "pie",
  "bar",
  "heatmap",
  "search",
  "event_patterns",
  "markdown",
] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];

/** The server deletes, on the next dashboard PUT, an alert on a tile of any other display type. */
export const ALERTABLE_DISPLAY_TYPES: readonly DisplayType[] = ["line", "stacked_bar", "number"];

/** Display types with a Raw SQL variant (`configType: "sql"`). */
export const SQL_DISPLAY_TYPES: readonly DisplayType[] = ["line", "stacked_bar", "table", "number", "pie", "bar"];

/** Builder display types whose `select` is a list of aggregations: the same six that have a Raw SQL variant. */
export const AGGREGATING_DISPLAY_TYPES: readonly DisplayType[] = SQL_DISPLAY_TYPES;

export const AGG_FNS = [
  "avg",
  "count",
  "count_distinct",
  "last_value",
  "max",
  "min",
  "quantile",
  "sum",
  "any",
  "none",
] as const;
export const QUANTILE_LEVELS = [0.5, 0.9, 0.95, 0.99] as const;
export const QUERY_LANGUAGES = ["lucene", "sql"] as const;
export const METRIC_DATA_TYPES = ["sum", "gauge", "histogram", "summary", "exponential histogram"] as const;

export const DASHBOARD_LIMITS = {
  name: 1024,
  tiles: 500,
  tags: 50,
  tag: 32,
  containers: 50,
  /** `x` is at most 23; `x + w` is not checked (exported estates hold such tiles). */
  xMax: 23,
  wMax: 24,
  containerId: 256,
} as const;

export const SOURCE_KINDS = ["log", "trace", "metric", "session", "promql"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Every kind has these; `timestampValueExpression` the server requires of each kind. */
const COMMON = ["name", "kind", "connection", "from", "section", "disabled", "querySettings"] as const;

/** Each kind's fields beside COMMON, as the server enforces them: required first. */
export const SOURCE_KIND_FIELDS: Readonly<
  Record<SourceKind, { required: readonly string[]; optional: readonly string[] }>
> = {
  log: {
    required: ["timestampValueExpression", "defaultTableSelectExpression"],
    optional: [
      "serviceNameExpression",
      "serviceVersionExpression",
      "severityTextExpression",
      "bodyExpression",
      "eventAttributesExpression",
      "resourceAttributesExpression",
      "displayedTimestampValueExpression",
      "metricSourceId",
      "traceSourceId",
      "traceIdExpression",
      "spanIdExpression",
      "implicitColumnExpression",
      "highlightedTraceAttributeExpressions",
      "highlightedRowAttributeExpressions",
    ],
  },
  trace: {
    required: [
      "timestampValueExpression",
      "defaultTableSelectExpression",
      "durationExpression",
      "traceIdExpression",
      "spanIdExpression",
      "parentSpanIdExpression",
      "spanNameExpression",
      "spanKindExpression",
    ],
    // The document requires durationPrecision; the server does not (default 3).
    optional: [
      "durationPrecision",
      "logSourceId",
      "sessionSourceId",
      "metricSourceId",
      "statusCodeExpression",
      "statusMessageExpression",
      "serviceNameExpression",
      "serviceVersionExpression",
      "resourceAttributesExpression",
      "eventAttributesExpression",
      "spanEventsValueExpression",
      "implicitColumnExpression",
      "highlightedTraceAttributeExpressions",
      "highlightedRowAttributeExpressions",
    ],
  },
  metric: {
    required: ["timestampValueExpression", "metricTables", "resourceAttributesExpression"],
    optional: ["logSourceId"],
  },
  // The server requires timestampValueExpression, which the document's SessionSource does not list.
  session: { required: ["timestampValueExpression", "traceSourceId"], optional: [] },
  promql: { required: ["timestampValueExpression"], optional: [] },
};

/**
 * What the server stores of a source beside its kind's fields above, which `Source` does not name: an
 * update sends back what the service holds of them (docs/design/fields-kept.md). HyperDX's document
 * (b52a6fa) `LogSource`/`TraceSource`; managed ClickStack's `ClickStackLogSource`/`ClickStackTraceSource`
 * add `filterSettings`. A metric source's `metricTables` member `exponential histogram` is kept too.
 */
export const SOURCE_UNNAMED_FIELDS: Readonly<Record<SourceKind, readonly string[]>> = {
  log: [
    "knownColumnsListExpression",
    "useTextIndexForImplicitColumn",
    "materializedViews",
    "metadataMaterializedViews",
  ],
  trace: [
    "knownColumnsListExpression",
    "useTextIndexForImplicitColumn",
    "materializedViews",
    "metadataMaterializedViews",
  ],
  metric: [],
  session: [],
  promql: [],
};
export const MANAGED_SOURCE_UNNAMED_FIELDS: Readonly<Record<SourceKind, readonly string[]>> = {
  ...SOURCE_UNNAMED_FIELDS,
  log: [...SOURCE_UNNAMED_FIELDS.log, "filterSettings"],
  trace: [...SOURCE_UNNAMED_FIELDS.trace, "filterSettings"],
};

export function sourceFieldsOf(kind: SourceKind): readonly string[] {
  const own = SOURCE_KIND_FIELDS[kind];
  return [...COMMON, ...own.required, ...own.optional];
}

/** What the server adds to a source it stores, by kind. */
export function sourceDefaults(kind: unknown): Readonly<Record<string, unknown>> {
  const lists =
    kind === "log" || kind === "trace"
      ? { highlightedTraceAttributeExpressions: [], highlightedRowAttributeExpressions: [], materializedViews: [] }
      : {};
  return { disabled: false, querySettings: [], ...lists, ...(kind === "trace" ? { durationPrecision: 3 } : {}) };
}

/** HyperDX's rule for a connection's `hyperdxSettingPrefix`. */
export const SETTING_PREFIX = /^[A-Za-z0-9_]+$/;

export const isObjectIdText = (v: string): boolean => /^[0-9a-f]{24}$/i.test(v);

/**
 * What HyperDX's schemas (b52a6fa) have and managed ClickStack's lack (the Cloud document's
 * `ClickStack…` twins, docs/design/managed-clickstack.md): the provider refuses them in preview on a
 * managed connection, and the emulator's Cloud mode drops them as HyperDX drops a field it does not know.
 */
export const NOT_ON_MANAGED_CLICKSTACK = {
  tileConfig: ["formulas", "seriesLimit", "showOperandSeries"],
  filter: ["isBroadcastEnabled", "isVariableEnabled", "variableName"],
  source: ["serviceVersionExpression"],
} as const;

/** A trace source's durationPrecision when none is said: HyperDX's default, which the Cloud's schema requires sent. */
export const DURATION_PRECISION_DEFAULT = 3;

/** A tile as a tile alert's check sees it: its name, display type and, once made, id. */
export interface TileFacts {
  readonly name?: unknown;
  readonly displayType?: unknown;
  readonly id?: unknown;
}

const ALERTABLE_WORDS = "line, stacked_bar, number";

/** The tiles that take an alert, said for a message: their names (and ids when `withIds`). */
export function alertableTilesSaid(tiles: readonly TileFacts[], withIds = false): string {
  const names = tiles
    .filter((t) => (ALERTABLE_DISPLAY_TYPES as readonly unknown[]).includes(t.displayType))
    .map((t) => `"${String(t.name)}"${withIds && typeof t.id === "string" ? ` (id ${t.id})` : ""}`);
  return `its tiles that take an alert (${ALERTABLE_WORDS}): ${names.length === 0 ? "none" : names.join(", ")}`;
}

/**
 * Why an alert cannot watch the tile named `name` on `dashboard` (said as the message names it), or
 * undefined when it can: a tile of that unique name whose chart takes an alert.
 */
export function tileNameProblem(dashboard: string, tiles: readonly TileFacts[], name: string): string | undefined {
  const named = tiles.filter((t) => t.name === name);
  const choices = alertableTilesSaid(tiles.filter((t) => tiles.filter((u) => u.name === t.name).length === 1));
  if (named.length === 0) return `${dashboard} has no tile named "${name}"; ${choices}`;
  if (named.length > 1)
    return `${dashboard} has ${named.length} tiles named "${name}": name a tile of a unique name; ${choices}`;
  const type = named[0]?.displayType;
  if (!(ALERTABLE_DISPLAY_TYPES as readonly unknown[]).includes(type))
    return `the tile "${name}" of ${dashboard} is a ${String(type)} tile, which takes no alert (the service deletes such an alert at the dashboard's next update); ${choices}`;
  return undefined;
}

/** Why an alert cannot watch the tile of id `id` on `dashboard`, or undefined when it can. */
export function tileIdProblem(dashboard: string, tiles: readonly TileFacts[], id: string): string | undefined {
  const tile = tiles.find((t) => t.id === id);
  const choices = alertableTilesSaid(tiles, true);
  if (tile === undefined) return `${dashboard} has no tile of id "${id}"; ${choices}`;
  if (!(ALERTABLE_DISPLAY_TYPES as readonly unknown[]).includes(tile.displayType))
    return `the tile "${id}" ("${String(tile.name)}") of ${dashboard} is a ${String(tile.displayType)} tile, which takes no alert (the service deletes such an alert at the dashboard's next update); ${choices}`;
  return undefined;
}
