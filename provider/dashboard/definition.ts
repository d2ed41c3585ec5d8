// The Dashboard, each property once. A tile's config is one flat object checked per displayType
// (docs/design/dashboards-sources-connections.md says why); tileIds is the provider's own output.

import type { CheckRules, ResourceDefinition } from "../protocol/definition";
import type { OutputRule } from "../protocol/outputRules";
import {
  AGG_FNS,
  DASHBOARD_LIMITS,
  DISPLAY_TYPES,
  METRIC_DATA_TYPES,
  QUERY_LANGUAGES,
} from "../serviceFacts/observability";
import { TILE_INDEX_TYPE } from "../protocol/commonProperties";
import { tileConfigProblems, tilesForm } from "./tiles";

const STRING = { kind: "string" } as const;
const NUMBER = { kind: "number" } as const;
const BOOLEAN = { kind: "boolean" } as const;
const INTEGER = { kind: "integer" } as const;
const AS_ANSWERED: OutputRule = { nullMeans: "absent", whenAbsent: [] };
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };
const FROM_PROGRAM: OutputRule = { nullMeans: "absent", whenAbsent: ["program"] };
const orDefault = (fallback: unknown) => (v: unknown) => (v === undefined || v === null ? fallback : v);
const opt = <const T, const D extends string>(type: T, description: D) =>
  ({ type, description, optional: true }) as const;

const LANGUAGE = {
  kind: "enum",
  name: "DashboardQueryLanguage",
  description: "The language of a query.",
  values: QUERY_LANGUAGES,
} as const;

const SELECT_ITEM = {
  kind: "object",
  name: "DashboardSelectItem",
  description: "One aggregation of a builder tile (or a heatmap's value).",
  fields: {
    aggFn: opt(
      { kind: "enum", name: "DashboardAggFn", description: "An aggregation function.", values: AGG_FNS },
      "The aggregation (required but for a heatmap).",
    ),
    valueExpression: opt(STRING, "The column or expression aggregated (none with count)."),
    alias: opt(STRING, "The series' name."),
    level: opt(NUMBER, "The quantile: 0.5, 0.9, 0.95 or 0.99 (quantile only)."),
    where: opt(STRING, "A condition on the rows aggregated."),
    whereLanguage: opt(LANGUAGE, 'The language of where; default "lucene".'),
    metricName: opt(STRING, "The metric (metric sources)."),
    metricType: opt(
      { kind: "enum", name: "DashboardMetricType", description: "A metric's type.", values: METRIC_DATA_TYPES },
      "The metric's type (metric sources).",
    ),
    periodAggFn: opt(STRING, "The per-period aggregation (metric sources)."),
    countExpression: opt(STRING, "A heatmap's count expression."),
    heatmapScaleType: opt(STRING, "A heatmap's scale."),
  },
} as const;

const NUMBER_FORMAT = {
  kind: "object",
  name: "DashboardNumberFormat",
  description: "How numbers are shown.",
  fields: {
    output: opt(STRING, "number, percent, byte, time, currency or duration."),
    mantissa: opt(INTEGER, "Decimal digits."),
    thousandSeparated: opt(BOOLEAN, "Thousands separated."),
    average: opt(BOOLEAN, "Abbreviated (1.2k)."),
    decimalBytes: opt(BOOLEAN, "Bytes in powers of 1000."),
    factor: opt(NUMBER, "A factor applied first."),
    currencySymbol: opt(STRING, "The currency's symbol."),
    numericUnit: opt(STRING, "A unit of a number."),
    unit: opt(STRING, "A unit shown after the number."),
  },
} as const;

export const TILE_CONFIG = {
  kind: "object",
  name: "DashboardTileConfig",
  description:
    "A tile's chart: displayType says which fields it takes (the service's 16 chart configs as one object; `configType: \"sql\"` " +
    "for the Raw SQL variant of line, stacked_bar, table, number, pie and bar).",
  fields: {
    displayType: {
      type: { kind: "enum", name: "DashboardDisplayType", description: "A tile's chart.", values: DISPLAY_TYPES },
      description: "The chart; only line, stacked_bar and number tiles take alerts.",
    },
    configType: opt(
      { kind: "enum", name: "DashboardConfigType", description: "A Raw SQL tile.", values: ["sql"] },
      'Set "sql" for the Raw SQL variant (connectionId and sqlTemplate); leave it out for the builder.',
    ),
    sourceId: opt(STRING, "The source charted (a builder tile's, required; optional on a Raw SQL tile)."),
    connectionId: opt(STRING, "The connection queried (a Raw SQL tile's, required)."),
    sqlTemplate: opt(STRING, "The query (a Raw SQL tile's, required)."),
    select: opt(
      { kind: "array", items: SELECT_ITEM },
      "The aggregations (builder line, stacked_bar, table, number, pie, bar; heatmap).",
    ),
    searchSelect: opt(STRING, "The columns shown (search, event_patterns): the service's select of those tiles."),
    where: opt(STRING, "The query (heatmap, search, event_patterns)."),
    whereLanguage: opt(LANGUAGE, "The language of where (heatmap, search, event_patterns)."),
    groupBy: opt(STRING, "Group by (line, stacked_bar, table, pie, bar)."),
    having: opt(STRING, "Having (table)."),
    orderBy: opt(STRING, "Order by (table, pie, bar)."),
    limit: opt(INTEGER, "How many groups (pie, bar)."),
    asRatio: opt(BOOLEAN, "Two series as a ratio (line, stacked_bar, table)."),
    fillNulls: opt(BOOLEAN, "Fill gaps (line, stacked_bar); default true."),
    alignDateRangeToGranularity: opt(BOOLEAN, "Align the range to the granularity (line, stacked_bar)."),
    fitYAxisToData: opt(BOOLEAN, "Fit the y axis to the data (line)."),
    compareToPreviousPeriod: opt(BOOLEAN, "Show the previous period too (line)."),
    seriesLimit: opt(INTEGER, "Most series shown (line, stacked_bar)."),
    formulas: opt(
      {
        kind: "array",
        items: {
          kind: "object",
          name: "DashboardFormula",
          description: "A series computed from the aggregations.",
          fields: { expression: { type: STRING, description: "The formula." }, alias: opt(STRING, "Its name.") },
        },
      },
      "Formulas over the aggregations (line, stacked_bar, table, number).",
    ),
    showOperandSeries: opt(BOOLEAN, "Show the formulas' operands too."),
    groupByColumnsOnLeft: opt(BOOLEAN, "Group columns first (table)."),
    numberFormat: opt(NUMBER_FORMAT, "How numbers are shown."),
    color: opt(STRING, "A palette token (number)."),
    markdown: opt(STRING, "The text (markdown)."),
  },
} as const;

export const TILE = {
  kind: "object",
  name: "DashboardTile",
  description: "A tile: where it sits on the 24-column grid and its chart.",
  fields: {
    id: opt(
      STRING,
      "Set by the service; kept while the tile keeps its name, or its place when renamed. Not written by a program.",
    ),
    name: { type: STRING, description: "The tile's name; a non-empty unique one of an alertable tile keys tileIds." },
    x: { type: INTEGER, description: "Column, 0 to 23 (x + w past 24 is taken)." },
    y: { type: INTEGER, description: "Row, from 0." },
    w: { type: INTEGER, description: "Width, 1 to 24." },
    h: { type: INTEGER, description: "Height, from 1." },
    config: { type: TILE_CONFIG, description: "The chart." },
    containerId: opt(STRING, "The container it sits in (containers)."),
    tabId: opt(STRING, "The tab of its container."),
  },
} as const;

const tilesCheck = ({ z }: CheckRules) => {
  const int = (what: string, min: number, max?: number) => {
    const words = `${what} must be an integer ${max === undefined ? `of at least ${min}` : `${min} to ${max}`}`;
    const n = z.number({ error: words }).int({ error: words }).min(min, { error: words });
    return max === undefined ? n : n.max(max, { error: words });
  };
  return z
    .array(
      z.object(
        {
          id: z.undefined({ error: "a tile's id is set by the service: leave it out" }).optional(),
          name: z.string({ error: "a tile's name must be a string" }),
          x: int("x", 0, DASHBOARD_LIMITS.xMax),
          y: int("y", 0),
          w: int("w", 1, DASHBOARD_LIMITS.wMax),
          h: int("h", 1),
          config: z.record(z.string(), z.unknown(), { error: "a tile needs a config: {displayType, ...}" }),
          containerId: z.string().min(1).max(DASHBOARD_LIMITS.containerId).optional(),
          tabId: z.string().min(1).max(DASHBOARD_LIMITS.containerId).optional(),
        },
        { error: "each tile must be {name, x, y, w, h, config}" },
      ),
      { error: "tiles is required: a list of tiles" },
    )
    .max(DASHBOARD_LIMITS.tiles, { error: `tiles must hold at most ${DASHBOARD_LIMITS.tiles} tiles` })
    .superRefine((tiles, ctx) => {
      tiles.forEach((tile, i) => {
        for (const p of tileConfigProblems(tile.config))
          ctx.addIssue({ code: "custom", path: [i, "config", ...p.path], message: p.message });
      });
    });
};

export const DASHBOARD = {
  name: "Dashboard",
  description:
    "A HyperDX dashboard and its tiles. The service deletes, with a dashboard update, every alert on a tile it drops or turns " +
    "into one that takes no alert (only line, stacked_bar and number do), and with a dashboard's delete every alert on it: the " +
    "provider warns of the first and refuses the second while alerts outside the stack sit on it.",
  notAnObject: "the dashboard's arguments must be an object",
  properties: {
    name: {
      type: STRING,
      description: "The dashboard's name (at most 1024 characters).",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: ({ z }) =>
        z
          .string({ error: "name is required: a string" })
          .max(DASHBOARD_LIMITS.name, { error: `name must be at most ${DASHBOARD_LIMITS.name} characters` }),
    },
    tiles: {
      type: { kind: "array", items: TILE },
      description:
        "The tiles, in order. A tile keeps its id while it keeps its name, wherever it moves, or keeps its place while its old " +
        "name leaves the list (a rename in place); tiles of blank or repeated names keep ids by position among the same-named.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      compared: tilesForm,
      diffByPath: true,
      check: tilesCheck,
    },
    tags: {
      type: { kind: "array", items: STRING },
      description: "Tags (at most 50, each at most 32 characters); removed from the program, they are cleared.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: (v) => (Array.isArray(v) ? [...new Set(v as unknown[])] : []),
      check: ({ z }) =>
        z
          .array(
            z
              .string()
              .max(DASHBOARD_LIMITS.tag, { error: `each tag must be at most ${DASHBOARD_LIMITS.tag} characters` }),
            {
              error: "tags must be a list of strings",
            },
          )
          .max(DASHBOARD_LIMITS.tags, { error: `tags must hold at most ${DASHBOARD_LIMITS.tags} tags` }),
    },
    filters: {
      type: {
        kind: "array",
        items: {
          kind: "object",
          name: "DashboardFilter",
          description: "A dropdown filter of the dashboard.",
          fields: {
            id: opt(STRING, "Set by the service and sent back on update; not written by a program."),
            type: { type: STRING, description: 'The filter\'s type, e.g. "QUERY_EXPRESSION".' },
            name: { type: STRING, description: "Its name." },
            expression: { type: STRING, description: "The expression whose values it offers." },
            sourceId: { type: STRING, description: "The source it reads." },
            sourceMetricType: opt(STRING, "The metric type (metric sources)."),
            where: opt(STRING, "A condition on the values offered."),
            whereLanguage: opt(LANGUAGE, "The language of where."),
          },
        },
      },
      description:
        "Dropdown filters; a filter keeps the id the service gave it while it keeps its name. Removed: cleared.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: (v) =>
        Array.isArray(v)
          ? v.map((f: unknown) => {
              if (typeof f !== "object" || f === null) return f;
              const { id: _id, ...rest } = f as Record<string, unknown>;
              return rest;
            })
          : [],
      check: ({ z }) =>
        z.array(
          z.strictObject(
            {
              id: z.undefined({ error: "a filter's id is set by the service: leave it out" }).optional(),
              type: z.string(),
              name: z.string(),
              expression: z.string(),
              sourceId: z.string(),
              sourceMetricType: z.string().optional(),
              where: z.string().optional(),
              whereLanguage: z.enum(QUERY_LANGUAGES).optional(),
            },
            { error: "each filter must be {type, name, expression, sourceId, ...}" },
          ),
          { error: "filters must be a list" },
        ),
    },
    savedQuery: {
      type: STRING,
      description: "The dashboard's default query; removed from the program, it is cleared.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(null),
      check: ({ z }) => z.string({ error: "savedQuery must be a string" }),
    },
    savedQueryLanguage: {
      type: LANGUAGE,
      description: 'The language of savedQuery ("lucene" when a savedQuery is set without it).',
      role: "both",
      whenAbsent: AS_ANSWERED,
    },
    savedFilterValues: {
      type: {
        kind: "array",
        items: {
          kind: "object",
          name: "DashboardSavedFilterValue",
          description: "A filter value the dashboard opens with.",
          fields: {
            type: opt(STRING, 'Its type: "sql", the only one the service takes (its default).'),
            condition: { type: STRING, description: "The condition." },
          },
        },
      },
      description: "Filter values the dashboard opens with; removed: cleared.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault([]),
      check: ({ z }) =>
        z.array(
          z.strictObject({
            type: z
              .literal("sql", { error: 'a saved filter value\'s type must be "sql" (the service refuses any other)' })
              .optional(),
            condition: z.string(),
          }),
          { error: "savedFilterValues must be a list of {type?, condition}" },
        ),
    },
    containers: {
      type: {
        kind: "array",
        items: {
          kind: "object",
          name: "DashboardContainer",
          description: "A group of tiles, with tabs.",
          fields: {
            id: { type: STRING, description: "Its id, which tiles' containerId name." },
            title: { type: STRING, description: "Its title." },
            collapsed: { type: BOOLEAN, description: "Collapsed." },
            collapsible: opt(BOOLEAN, "Collapsible."),
            bordered: opt(BOOLEAN, "Bordered."),
            tabs: opt(
              {
                kind: "array",
                items: {
                  kind: "object",
                  name: "DashboardContainerTab",
                  description: "A tab of a container.",
                  fields: {
                    id: { type: STRING, description: "Its id, which tiles' tabId name." },
                    title: { type: STRING, description: "Its title." },
                  },
                },
              },
              "Its tabs.",
            ),
          },
        },
      },
      description: "Containers grouping tiles (at most 50); removed: cleared.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault([]),
      check: ({ z }) =>
        z
          .array(
            z.strictObject({
              id: z.string().min(1).max(DASHBOARD_LIMITS.containerId),
              title: z.string(),
              collapsed: z.boolean(),
              collapsible: z.boolean().optional(),
              bordered: z.boolean().optional(),
              tabs: z.array(z.strictObject({ id: z.string().min(1), title: z.string() })).optional(),
            }),
            { error: "containers must be a list of {id, title, collapsed, ...}" },
          )
          .max(DASHBOARD_LIMITS.containers, { error: `containers must hold at most ${DASHBOARD_LIMITS.containers}` }),
    },
    importId: {
      type: STRING,
      description:
        "The id of an existing dashboard to take over instead of creating one. The create reads it (failing, with nothing created, " +
        "when there is none) and writes the program's whole dashboard with one PUT only when it differs (tiles keep their ids); it never creates " +
        "one. Once taken over, changing or removing importId changes nothing, and a destroy deletes it unless the resource has " +
        "`retainOnDelete`.",
      role: "input",
      wire: false,
      check: ({ opaquePathId }) => opaquePathId("importId"),
    },
    tileIds: {
      type: { kind: "map", values: STRING },
      description:
        "Each tile's id by its name, for tiles whose name is non-empty and unique and whose chart takes an alert (line, " +
        "stacked_bar, number): what a tile alert's tileId takes.",
      role: "output",
      wire: false,
      whenAbsent: FROM_STATE,
    },
    tileIndex: {
      type: TILE_INDEX_TYPE,
      description:
        "The dashboard's name and the display type of each tile of a non-empty unique name, known in preview from the " +
        "program's tiles: give it to an Alert's `tileIndex` with `tileName`, and a name that is no tile, or a tile that " +
        "takes no alert, fails preview in every language.",
      role: "output",
      wire: false,
      whenAbsent: FROM_STATE,
    },
    createdAt: {
      type: STRING,
      description: "When the dashboard was made (ISO 8601, set by the service), when it says.",
      role: "output",
      stable: true,
      whenAbsent: FROM_STATE,
    },
    updatedAt: {
      type: STRING,
      description: "When the dashboard last changed (ISO 8601, set by the service), when it says.",
      role: "output",
      whenAbsent: FROM_STATE,
    },
  },
} as const satisfies ResourceDefinition;

/** The inputs that hold another resource's id ("[]": each element): an export writes them as references. */
export const DASHBOARD_REFERENCES = [
  { path: ["tiles", "[]", "config", "sourceId"], to: "Source" },
  { path: ["tiles", "[]", "config", "connectionId"], to: "Connection" },
  { path: ["filters", "[]", "sourceId"], to: "Source" },
] as const;

/** The output a tile alert's tileId is read from, by tile name. */
export const TILE_IDS_OUTPUT = "tileIds" as const satisfies keyof typeof DASHBOARD.properties;
