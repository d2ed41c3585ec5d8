// The Source, each property once: the fields of every kind, each checked against its kind by the
// behaviour. A PUT replaces the whole source, so a field left out is compared in its default form.

import type { CheckRules, ResourceDefinition } from "../protocol/definition";
import type { OutputRule } from "../protocol/outputRules";
import { objectList, takeOverId } from "../protocol/commonProperties";
import { SOURCE_KINDS, isObjectIdText } from "../serviceFacts/observability";

const STRING = { kind: "string" } as const;
const AS_ANSWERED: OutputRule = { nullMeans: "absent", whenAbsent: [] };
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };
const FROM_PROGRAM: OutputRule = { nullMeans: "absent", whenAbsent: ["program"] };
const orDefault = (fallback: unknown) => (v: unknown) => (v === undefined || v === null ? fallback : v);

const aString =
  (property: string) =>
  ({ z }: CheckRules) =>
    z.string({ error: `${property} must be a string` });

/** An expression (a column or a ClickHouse expression) of some kinds; the behaviour says which. */
function expression<const D extends string>(description: D) {
  return { type: STRING, description, role: "both", whenAbsent: AS_ANSWERED } as const;
}

/** Another source's id, of some kinds. */
function sourceRef<const D extends string>(description: D) {
  return { type: STRING, description, role: "both", whenAbsent: AS_ANSWERED } as const;
}

const highlighted =
  (property: string) =>
  ({ z }: CheckRules) =>
    z.array(
      z.strictObject(
        { sqlExpression: z.string(), luceneExpression: z.string().optional(), alias: z.string().optional() },
        { error: `each of ${property} must be {sqlExpression, luceneExpression?, alias?}` },
      ),
      { error: `${property} must be a list` },
    );

const HIGHLIGHTED = objectList("SourceHighlightedExpression", "An attribute expression shown highlighted.", {
  sqlExpression: { type: STRING, description: "The SQL expression." },
  luceneExpression: { type: STRING, description: "Its Lucene form.", optional: true },
  alias: { type: STRING, description: "The name shown.", optional: true },
});

export const SOURCE = {
  name: "Source",
  description:
    "A source of HyperDX (self-hosted, or managed ClickStack): a table a connection reads, of one kind (log, trace, metric, " +
    "session, promql) with that kind's fields. Every update sends the whole source, read first: a field the provider does " +
    "not manage (materializedViews, metadataMaterializedViews, metricTables' exponential histogram, managed ClickStack's " +
    "filterSettings), set in the UI, is sent back as the service holds it, never cleared. A delete is refused while saved " +
    "searches or dashboards outside the stack use it.",
  notAnObject: "the source's arguments must be an object",
  properties: {
    kind: {
      type: {
        kind: "enum",
        name: "SourceKind",
        description: "What a source holds.",
        values: SOURCE_KINDS,
      },
      description: 'The kind: "log", "trace", "metric", "session" or "promql"; each has its own fields.',
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
    },
    name: {
      type: STRING,
      description: "The source's display name.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: aString("name"),
    },
    connection: {
      type: STRING,
      description:
        "The id of the connection it reads through: a Connection's id (self-hosted), or on managed ClickStack the id of the " +
        "connection the platform made.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: ({ z }) =>
        z
          .string({ error: "connection is required: a connection's id (24 hex digits)" })
          .refine(isObjectIdText, { error: "connection must be a connection's id: 24 hex digits" }),
    },
    from: {
      type: {
        kind: "object",
        name: "SourceFrom",
        description: "Where a source's rows are.",
        fields: {
          databaseName: { type: STRING, description: "The ClickHouse database." },
          tableName: { type: STRING, description: "The table; a metric source may leave it out.", optional: true },
        },
      },
      description: "The database and table.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      compared: (v) => (typeof v === "object" && v !== null ? { tableName: "", ...(v as Record<string, unknown>) } : v),
      check: ({ z }) =>
        z.strictObject(
          { databaseName: z.string({ error: "from.databaseName must be a string" }), tableName: z.string().optional() },
          { error: "from is required: {databaseName, tableName}" },
        ),
    },
    section: expression("A label grouping sources in the source selector (at most 256 characters)."),
    disabled: {
      type: { kind: "boolean" },
      description: "True hides the source from the UI's selectors; default false.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(false),
    },
    querySettings: {
      type: objectList("SourceQuerySetting", "A ClickHouse setting applied to the source's queries.", {
        setting: { type: STRING, description: "The setting's name." },
        value: { type: STRING, description: "Its value." },
      }),
      description: "ClickHouse settings applied to the source's queries; default none.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault([]),
      check: ({ z }) =>
        z.array(
          z.strictObject(
            {
              setting: z.string({ error: "setting must be a string" }),
              value: z.string({ error: "value must be a string" }),
            },
            { error: "each query setting must be {setting, value}" },
          ),
          { error: "querySettings must be a list of {setting, value}" },
        ),
    },
    timestampValueExpression: expression("The DateTime column or expression of the table's primary key (every kind)."),
    defaultTableSelectExpression: expression("The columns a search shows by default (log, trace)."),
    serviceNameExpression: expression("The service name (log, trace)."),
    serviceVersionExpression: expression("The service's release (log, trace)."),
    severityTextExpression: expression("The severity text (log)."),
    bodyExpression: expression("The message body (log)."),
    eventAttributesExpression: expression("The event attributes (log, trace)."),
    resourceAttributesExpression: expression("The resource attributes (log, trace; metric requires it)."),
    displayedTimestampValueExpression: expression("The timestamp shown (log)."),
    implicitColumnExpression: expression("The column a bare search term matches (log, trace)."),
    traceIdExpression: expression("The trace id (log; trace requires it)."),
    spanIdExpression: expression("The span id (log; trace requires it)."),
    durationExpression: expression("The span's duration (trace, required)."),
    durationPrecision: {
      type: { kind: "integer" },
      description: "Decimal digits of the duration, 0 to 9 (trace); default 3.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(3),
      check: ({ z }) =>
        z
          .number({ error: "durationPrecision must be an integer 0 to 9" })
          .int({ error: "durationPrecision must be an integer 0 to 9" })
          .min(0, { error: "durationPrecision must be an integer 0 to 9" })
          .max(9, { error: "durationPrecision must be an integer 0 to 9" }),
    },
    parentSpanIdExpression: expression("The parent span's id (trace, required)."),
    spanNameExpression: expression("The span's name (trace, required)."),
    spanKindExpression: expression("The span's kind (trace, required)."),
    statusCodeExpression: expression("The status code (trace)."),
    statusMessageExpression: expression("The status message (trace)."),
    spanEventsValueExpression: expression("The span events (trace)."),
    metricTables: {
      type: {
        kind: "object",
        name: "SourceMetricTables",
        description: "A metric source's table for each metric type.",
        fields: {
          gauge: { type: STRING, description: "Gauges.", optional: true },
          histogram: { type: STRING, description: "Histograms.", optional: true },
          sum: { type: STRING, description: "Sums.", optional: true },
          summary: { type: STRING, description: "Summaries.", optional: true },
        },
      },
      description: "The table of each metric type (metric, required).",
      role: "both",
      whenAbsent: AS_ANSWERED,
      check: ({ z }) =>
        z.strictObject(
          {
            gauge: z.string().optional(),
            histogram: z.string().optional(),
            sum: z.string().optional(),
            summary: z.string().optional(),
          },
          { error: "metricTables must be {gauge?, histogram?, sum?, summary?} of table names" },
        ),
    },
    logSourceId: sourceRef("The source of the related logs (trace, metric)."),
    traceSourceId: sourceRef("The source of the related traces (log; session requires it)."),
    metricSourceId: sourceRef("The source of the related metrics (log, trace)."),
    sessionSourceId: sourceRef("The source of the related sessions (trace)."),
    highlightedTraceAttributeExpressions: {
      type: HIGHLIGHTED,
      description: "Attributes highlighted in a trace (log, trace); default none.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault([]),
      check: highlighted("highlightedTraceAttributeExpressions"),
    },
    highlightedRowAttributeExpressions: {
      type: HIGHLIGHTED,
      description: "Attributes highlighted in a row (log, trace); default none.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault([]),
      check: highlighted("highlightedRowAttributeExpressions"),
    },
    importId: takeOverId("source", "the program's whole source with one PUT only when it differs"),
    createdAt: {
      type: STRING,
      description: "When the source was made (ISO 8601, set by the service), when it says.",
      role: "output",
      stable: true,
      whenAbsent: FROM_STATE,
    },
    updatedAt: {
      type: STRING,
      description: "When the source last changed (ISO 8601, set by the service), when it says.",
      role: "output",
      whenAbsent: FROM_STATE,
    },
  },
} as const satisfies ResourceDefinition;

/**
 * The inputs that hold another resource's id: an export writes them as references. The related sources
 * (logSourceId, traceSourceId, ...) stay ids: sources name each other both ways, a cycle no program declares.
 */
export const SOURCE_REFERENCES = [{ path: ["connection"], to: "Connection" }] as const;
