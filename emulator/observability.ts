// Dashboards, sources and connections under /api/v2 as HyperDX's server (b52a6fa) behaves
// (docs/design/dashboards-sources-connections.md): tile ids kept by a PUT that sends them, the
// alerts of a dropped or unalertable tile deleted silently, a dashboard DELETE taking its alerts
// along and answering 200 even when missing, a whole-source PUT, a connection's password kept and
// never answered. Nothing here refuses a delete or cascades to what points at a source.

import { z } from "zod";
import {
  AGGREGATING_DISPLAY_TYPES,
  ALERTABLE_DISPLAY_TYPES,
  DASHBOARD_LIMITS,
  DISPLAY_TYPES,
  MANAGED_SOURCE_UNNAMED_FIELDS,
  SETTING_PREFIX,
  SOURCE_KINDS,
  SOURCE_KIND_FIELDS,
  SOURCE_UNNAMED_FIELDS,
  isObjectIdText,
  sourceDefaults,
  sourceFieldsOf,
  type SourceKind,
} from "../provider/serviceFacts/observability";
import { alertingError, isoNow, parseJson, type Incoming, type Reply, type Services } from "./replies";
import { SEEDED_SOURCES } from "./savedSearches";
import { newId } from "./webhooks";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The connection the seeded sources read through. */
export const SEEDED_CONNECTION = {
  id: "65a0000000000000000000c1",
  name: "Local ClickHouse",
  host: "http://127.0.0.1:8123",
  username: "default",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
} as const;

/** Stored, with the seeded ones, in the state; made on first use (older data files have none). */
export function sourcesOf(services: Services): Record<string, Obj> {
  return (services.state.sources ??= Object.fromEntries(
    SEEDED_SOURCES.map((s) => [s.id, { ...sourceDefaults(s.kind), ...structuredClone(s) }]),
  ));
}
function connectionsOf(services: Services): Record<string, Obj> {
  return (services.state.connections ??= { [SEEDED_CONNECTION.id]: { ...SEEDED_CONNECTION, password: "" } });
}
const dashboardsOf = (services: Services) => (services.state.dashboards ??= {});

const notFoundText: Reply = { status: 404, body: "Not Found", text: "text/plain" };
const badId: Reply = alertingError(400, "Params validation failed: id: Invalid ObjectId");
const bodyError = (words: string) => alertingError(400, `Body validation failed: ${words}`);

function json(req: Incoming): { ok: true; value: Obj } | { ok: false; reply: Reply } {
  const parsed = parseJson(req.rawBody);
  if (!parsed.ok) return { ok: false, reply: alertingError(400, parsed.message) };
  return isObj(parsed.value)
    ? { ok: true, value: parsed.value }
    : { ok: false, reply: bodyError("Expected object, received " + typeof parsed.value) };
}

const words = (error: z.ZodError) => error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");

// ---- connections

const connectionBody = z.object({
  name: z.string({ error: "Required" }),
  host: z.string({ error: "Required" }),
  username: z.string({ error: "Required" }),
  password: z.string().optional(),
  hyperdxSettingPrefix: z.string().regex(SETTING_PREFIX, { error: "Invalid" }).nullable().optional(),
  isPrometheusEndpoint: z.boolean().optional(),
});

/** Never the password. */
const renderConnection = (c: Obj): Obj => {
  const { password: _pw, ...rest } = c;
  return rest;
};

export function handleConnections(services: Services, req: Incoming, id?: string): Reply {
  const all = connectionsOf(services);
  if (id === undefined && req.method === "GET")
    return { status: 200, body: { data: Object.values(all).map(renderConnection) } };
  if (id !== undefined && !isObjectIdText(id)) return badId;
  if (req.method === "POST" || req.method === "PUT") {
    const body = json(req);
    if (!body.ok) return body.reply;
    // A PUT may clear the prefix with "" or null; a POST refuses "".
    const raw =
      req.method === "PUT" && body.value.hyperdxSettingPrefix === ""
        ? { ...body.value, hyperdxSettingPrefix: null }
        : body.value;
    const parsed = connectionBody.safeParse(raw);
    if (!parsed.success) return bodyError(words(parsed.error));
    const sent = parsed.data;
    if (req.method === "POST") {
      const now = isoNow();
      const made: Obj = {
        id: newId(all),
        name: sent.name,
        host: sent.host,
        username: sent.username,
        password: sent.password ?? "",
        ...(sent.hyperdxSettingPrefix == null ? {} : { hyperdxSettingPrefix: sent.hyperdxSettingPrefix }),
        ...(sent.isPrometheusEndpoint === undefined ? {} : { isPrometheusEndpoint: sent.isPrometheusEndpoint }),
        createdAt: now,
        updatedAt: now,
      };
      all[made.id as string] = made;
      services.persist();
      return { status: 200, body: { data: renderConnection(made) } };
    }
    const existing = all[id ?? ""];
    if (existing === undefined) return notFoundText;
    const next: Obj = { ...existing, name: sent.name, host: sent.host, username: sent.username };
    // Omitted or "" keeps the old password: a PUT cannot set it back to empty.
    if (sent.password !== undefined && sent.password !== "") next.password = sent.password;
    if (sent.hyperdxSettingPrefix === null) delete next.hyperdxSettingPrefix;
    else if (sent.hyperdxSettingPrefix !== undefined) next.hyperdxSettingPrefix = sent.hyperdxSettingPrefix;
    if (sent.isPrometheusEndpoint !== undefined) next.isPrometheusEndpoint = sent.isPrometheusEndpoint;
    next.updatedAt = isoNow(existing.updatedAt as string);
    all[id ?? ""] = next;
    services.persist();
    return { status: 200, body: { data: renderConnection(next) } };
  }
  const existing = all[id ?? ""];
  if (existing === undefined) return notFoundText;
  if (req.method === "GET") return { status: 200, body: { data: renderConnection(existing) } };
  // Sources keep pointing at it: nothing is refused, nothing cascades.
  delete all[id ?? ""];
  services.persist();
  return { status: 200, body: {} };
}

// ---- sources

const isKind = (v: unknown): v is SourceKind => (SOURCE_KINDS as readonly unknown[]).includes(v);

/** The whole source as the server checks it: the kind's fields, no null, an existing connection. */
function readSource(services: Services, body: Obj): { ok: true; source: Obj } | { ok: false; reply: Reply } {
  if (!isKind(body.kind)) return { ok: false, reply: bodyError("kind: Invalid discriminator value") };
  const kind = body.kind;
  const fields = sourceFieldsOf(kind);
  const problems: string[] = [];
  for (const f of ["name", "connection", "from", ...SOURCE_KIND_FIELDS[kind].required])
    if (body[f] === undefined) problems.push(`${f}: Required`);
  for (const f of fields) if (body[f] === null) problems.push(`${f}: Expected string, received null`);
  // HyperDX's server (b52a6fa) requires the rollup's granularity, which its document does not mark required.
  const rollup = body.metadataMaterializedViews;
  if (services.mode === "2026" && isObj(rollup) && rollup.granularity === undefined)
    problems.push("metadataMaterializedViews.granularity: Required");
  if (problems.length > 0) return { ok: false, reply: bodyError(problems.join("; ")) };
  const connection = body.connection;
  if (typeof connection !== "string" || !isObjectIdText(connection))
    return { ok: false, reply: alertingError(400, "connection must be a valid connection id") };
  if (connectionsOf(services)[connection] === undefined)
    return { ok: false, reply: alertingError(400, "connection must be an existing connection id") };
  // Unknown fields are dropped silently; those Source does not name are stored as any other.
  const unnamed = (services.managedSources === true ? MANAGED_SOURCE_UNNAMED_FIELDS : SOURCE_UNNAMED_FIELDS)[kind];
  const stored = [...fields, ...unnamed];
  const kept = Object.fromEntries(Object.entries(body).filter(([k, v]) => stored.includes(k) && v !== undefined));
  return { ok: true, source: { ...sourceDefaults(kind), ...kept } };
}

export function handleSources(services: Services, req: Incoming, id?: string): Reply {
  const all = sourcesOf(services);
  if (id === undefined && req.method === "GET") return { status: 200, body: { data: Object.values(all) } };
  const missing = alertingError(404, "Source not found");
  if (req.method === "POST" || req.method === "PUT") {
    const body = json(req);
    if (!body.ok) return body.reply;
    const read = readSource(services, body.value);
    if (!read.ok) return read.reply;
    if (req.method === "PUT" && all[id ?? ""] === undefined) return missing;
    // A PUT replaces the whole source: a field left out is gone.
    const source = { id: id ?? newId(all), ...read.source };
    all[source.id] = source;
    services.persist();
    return { status: 200, body: { data: source } };
  }
  const existing = all[id ?? ""];
  if (existing === undefined) return missing;
  if (req.method === "GET") return { status: 200, body: { data: existing } };
  delete all[id ?? ""];
  services.persist();
  return { status: 200, body: {} };
}

// ---- dashboards

const CONFIG_KEYS = [
  "displayType",
  "configType",
  "sourceId",
  "connectionId",
  "sqlTemplate",
  "select",
  "where",
  "whereLanguage",
  "groupBy",
  "having",
  "orderBy",
  "limit",
  "asRatio",
  "fillNulls",
  "alignDateRangeToGranularity",
  "fitYAxisToData",
  "compareToPreviousPeriod",
  "seriesLimit",
  "formulas",
  "showOperandSeries",
  "groupByColumnsOnLeft",
  "numberFormat",
  "color",
  "colorRules",
  "backgroundChart",
  "onClick",
  "markdown",
];

const tileShape = z.object({
  id: z.string().max(36).optional(),
  name: z.string({ error: "Required" }),
  x: z.number().int().min(0).max(DASHBOARD_LIMITS.xMax, { error: "Number must be less than or equal to 23" }),
  y: z.number().int().min(0),
  w: z.number().int().min(1).max(DASHBOARD_LIMITS.wMax),
  h: z.number().int().min(1),
  config: z.record(z.string(), z.unknown()).optional(),
  containerId: z.string().min(1).max(256).optional(),
  tabId: z.string().min(1).max(256).optional(),
});

const dashboardShape = z.object({
  name: z.string({ error: "Required" }).max(DASHBOARD_LIMITS.name),
  tiles: z.array(tileShape, { error: "Required" }).max(DASHBOARD_LIMITS.tiles),
  tags: z.array(z.string().max(DASHBOARD_LIMITS.tag)).max(DASHBOARD_LIMITS.tags).optional(),
  filters: z.array(z.record(z.string(), z.unknown())).optional(),
  savedQuery: z.string().nullable().optional(),
  savedQueryLanguage: z.enum(["lucene", "sql"]).nullable().optional(),
  // Only "sql", and that when left out.
  savedFilterValues: z
    .array(
      z.looseObject({
        type: z.literal("sql", { error: 'Invalid literal value, expected "sql"' }).default("sql"),
        condition: z.string(),
      }),
    )
    .optional(),
  containers: z.array(z.record(z.string(), z.unknown())).max(DASHBOARD_LIMITS.containers).optional(),
});
type DashboardBody = z.infer<typeof dashboardShape>;

/** A config as the server stores it: unknown keys dropped, its defaults written out. */
function storedConfig(config: Obj): Obj {
  const out: Obj = Object.fromEntries(Object.entries(config).filter(([k]) => CONFIG_KEYS.includes(k)));
  const builder = out.configType === undefined;
  const type = out.displayType;
  if (builder && (AGGREGATING_DISPLAY_TYPES as readonly unknown[]).includes(type) && Array.isArray(out.select))
    out.select = out.select.map((item: unknown) =>
      isObj(item) ? { valueExpression: "", where: "", whereLanguage: "lucene", ...item } : item,
    );
  if (builder && (type === "line" || type === "stacked_bar")) return { asRatio: false, fillNulls: true, ...out };
  if (builder && type === "table") return { asRatio: false, ...out };
  if (!builder && (type === "line" || type === "stacked_bar")) return { fillNulls: true, ...out };
  return out;
}

/** What the server refuses of tiles at create and update, in its words. */
function tilesProblem(services: Services, tiles: DashboardBody["tiles"]): Reply | undefined {
  const sources = sourcesOf(services);
  const missing = new Set<string>();
  for (const tile of tiles) {
    const c = tile.config;
    if (c === undefined) return alertingError(400, "Tile must have either series or config");
    if (!(DISPLAY_TYPES as readonly unknown[]).includes(c.displayType))
      return bodyError("tiles.config.displayType: Invalid discriminator value");
    if (typeof c.sourceId === "string" && sources[c.sourceId] === undefined) missing.add(c.sourceId);
    const select = Array.isArray(c.select) ? (c.select as unknown[]) : [];
    const formulas = Array.isArray(c.formulas) && c.formulas.length > 0;
    if (c.displayType === "number" && c.configType === undefined && select.length > 1 && !formulas)
      return alertingError(400, "Number tiles support a single select item unless formulas are used");
    if (
      select.some(
        (s) => isObj(s) && s.aggFn === "count" && typeof s.valueExpression === "string" && s.valueExpression !== "",
      )
    )
      return alertingError(400, "Value expression cannot be used with count aggregation function");
  }
  if (missing.size > 0)
    return alertingError(400, `Could not find the following source IDs: ${[...missing].join(", ")}`);
  return undefined;
}

/** A filter's id: refused on a POST (the service gives them), a member every PUT filter needs ("" for a new one). */
function filtersProblem(filters: DashboardBody["filters"], verb: string): string | undefined {
  for (const [i, f] of (filters ?? []).entries()) {
    if (verb === "POST" && f.id !== undefined) return `filters.${i}: Unrecognized key(s) in object: 'id'`;
    if (verb === "PUT" && typeof f.id !== "string") return `filters.${i}.id: Required`;
  }
  return undefined;
}

/** Each tile's containerId and tabId name one of the containers the dashboard will have. */
function containersProblem(tiles: DashboardBody["tiles"], containers: readonly Obj[]): Reply | undefined {
  for (const [i, t] of tiles.entries()) {
    if (t.containerId === undefined) continue;
    const container = containers.find((c) => c.id === t.containerId);
    if (container === undefined)
      return alertingError(400, `tiles.${i}.containerId: Tile references unknown containerId "${t.containerId}"`);
    const tabs = Array.isArray(container.tabs) ? (container.tabs as unknown[]) : [];
    if (t.tabId !== undefined && !tabs.some((tab) => isObj(tab) && tab.id === t.tabId))
      return alertingError(
        400,
        `tiles.${i}.tabId: Tile references unknown tabId "${t.tabId}" in container "${t.containerId}"`,
      );
  }
  return undefined;
}

/**
 * POST /dashboards/validate: the create's schema and tile rules, never persisted; 200 whether valid or
 * not, `{valid, errors: [{path, message}], normalized}` (normalized null when invalid).
 */
export function handleDashboardValidate(services: Services, req: Incoming): Reply {
  const body = json(req);
  if (!body.ok) return body.reply;
  const invalid = (errors: { path: string; message: string }[]): Reply => ({
    status: 200,
    body: { valid: false, errors, normalized: null },
  });
  const parsed = dashboardShape.safeParse(body.value);
  if (!parsed.success) return invalid(parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  const problem = tilesProblem(services, parsed.data.tiles);
  if (problem !== undefined)
    return invalid([{ path: "", message: isObj(problem.body) ? String(problem.body.message) : "invalid" }]);
  return { status: 200, body: { valid: true, errors: [], normalized: parsed.data } };
}

function readDashboard(
  services: Services,
  req: Incoming,
  existing?: Obj,
): { ok: true; body: DashboardBody } | { ok: false; reply: Reply } {
  const body = json(req);
  if (!body.ok) return body;
  const parsed = dashboardShape.safeParse(body.value);
  if (!parsed.success) return { ok: false, reply: bodyError(words(parsed.error)) };
  const filters = filtersProblem(parsed.data.filters, req.method);
  if (filters !== undefined) return { ok: false, reply: bodyError(filters) };
  const containers = parsed.data.containers ?? (existing?.containers as Obj[] | undefined) ?? [];
  const problem = containersProblem(parsed.data.tiles, containers) ?? tilesProblem(services, parsed.data.tiles);
  return problem === undefined ? { ok: true, body: parsed.data } : { ok: false, reply: problem };
}

/** A PUT keeps the id of a tile sent with one of this dashboard's tile ids; any other tile gets a new one. */
function storedTiles(tiles: DashboardBody["tiles"], existing: readonly Obj[]): Obj[] {
  const known = new Set(existing.map((t) => t.id));
  const taken = new Set<unknown>();
  return tiles.map((t) => {
    const keep = t.id !== undefined && known.has(t.id) && !taken.has(t.id);
    const id = keep ? t.id : newId(Object.fromEntries([...known, ...taken].map((k) => [String(k), true])));
    taken.add(id);
    const { id: _sent, config, ...rest } = t;
    return { id, ...rest, config: storedConfig(config ?? {}) };
  });
}

const withFilterIds = (filters: readonly Obj[], existing: readonly Obj[]): Obj[] => {
  const known = new Set(existing.map((f) => f.id));
  return filters.map((f) => ({ ...f, id: typeof f.id === "string" && known.has(f.id) ? f.id : newId({}) }));
};

const renderDashboard = (d: Obj): Obj => {
  const { containers, ...rest } = d;
  return Array.isArray(containers) && containers.length > 0 ? { ...rest, containers } : rest;
};

/** Every alert on a tile the list lost or made unalertable (cleanupDashboardAlerts). */
function cleanupAlerts(services: Services, dashboardId: string, tiles: readonly Obj[]): void {
  const alertable = new Set(
    tiles
      .filter((t) => isObj(t.config) && (ALERTABLE_DISPLAY_TYPES as readonly unknown[]).includes(t.config.displayType))
      .map((t) => t.id),
  );
  for (const [alertId, alert] of Object.entries(services.state.alerts))
    if (alert.dashboard === dashboardId && !alertable.has(alert.tileId)) delete services.state.alerts[alertId];
}

export function handleDashboards(services: Services, req: Incoming, id?: string): Reply {
  const all = dashboardsOf(services);
  if (id === undefined && req.method === "GET")
    return { status: 200, body: { data: Object.values(all).map(renderDashboard) } };
  if (id !== undefined && !isObjectIdText(id)) return badId;
  if (req.method === "POST") {
    const read = readDashboard(services, req);
    if (!read.ok) return read.reply;
    const b = read.body;
    const made: Obj = {
      id: newId(all),
      name: b.name,
      // A POST ignores sent tile ids.
      tiles: storedTiles(
        b.tiles.map((t) => ({ ...t, id: undefined })),
        [],
      ),
      tags: [...new Set(b.tags ?? [])],
      filters: withFilterIds(b.filters ?? [], []),
      savedQuery: b.savedQuery ?? null,
      savedQueryLanguage: b.savedQueryLanguage ?? (typeof b.savedQuery === "string" ? "lucene" : null),
      savedFilterValues: b.savedFilterValues ?? [],
      containers: b.containers ?? [],
    };
    all[made.id as string] = made;
    services.persist();
    return { status: 200, body: { data: renderDashboard(made) } };
  }
  const existing = all[id ?? ""];
  if (req.method === "DELETE") {
    // Every alert on it goes along; a missing dashboard answers 200 as well.
    for (const [alertId, alert] of Object.entries(services.state.alerts))
      if (alert.dashboard === id) delete services.state.alerts[alertId];
    delete all[id ?? ""];
    services.persist();
    return { status: 200, body: {} };
  }
  if (existing === undefined) return notFoundText;
  if (req.method === "GET") return { status: 200, body: { data: renderDashboard(existing) } };
  const read = readDashboard(services, req, existing);
  if (!read.ok) return read.reply;
  const b = read.body;
  const tiles = storedTiles(b.tiles, existing.tiles as Obj[]);
  // What a PUT is not sent, it keeps.
  const next: Obj = { ...existing, name: b.name, tiles };
  if (b.tags !== undefined) next.tags = [...new Set(b.tags)];
  if (b.filters !== undefined) next.filters = withFilterIds(b.filters, existing.filters as Obj[]);
  if (b.savedQuery !== undefined) next.savedQuery = b.savedQuery;
  if (b.savedQueryLanguage !== undefined || typeof b.savedQuery === "string")
    next.savedQueryLanguage = b.savedQueryLanguage ?? (typeof b.savedQuery === "string" ? "lucene" : null);
  if (b.savedFilterValues !== undefined) next.savedFilterValues = b.savedFilterValues;
  if (b.containers !== undefined) next.containers = b.containers;
  all[id ?? ""] = next;
  cleanupAlerts(services, id ?? "", tiles);
  services.persist();
  return { status: 200, body: { data: renderDashboard(next) } };
}

/** A tile alert's dashboard and tile, looked up as the server's validateAlertInput does (2026 mode). */
export function tileProblem(
  services: Services,
  dashboardId: string | undefined,
  tileId: string | undefined,
): Reply | undefined {
  if (dashboardId === undefined || !isObjectIdText(dashboardId)) return alertingError(400, "Invalid dashboard ID");
  const dashboard = dashboardsOf(services)[dashboardId];
  if (dashboard === undefined) return alertingError(400, "Dashboard not found");
  const tiles = Array.isArray(dashboard.tiles) ? (dashboard.tiles as Obj[]) : [];
  return tiles.some((t) => t.id === tileId) ? undefined : alertingError(400, "Tile not found");
}
