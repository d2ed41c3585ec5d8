// Saved searches under /api/v2/saved-searches (a whole PUT; DELETE takes the alerts watching it
// along) and the team's sources under /api/v2/sources: a few seeded log sources, no paging.

import { z } from "zod";
import {
  SAVED_SEARCH_DEFAULTS,
  SAVED_SEARCH_LIMITS,
  SQL_AST_OPERATORS,
  UNKNOWN_SOURCE,
  WHERE_LANGUAGES,
  isObjectId,
  isRenderableFilter,
  unrenderableFilterWords,
} from "../provider/serviceFacts/savedSearches";
import { pageOf } from "./paging";
import { alertingBody, alertingError, isoNow, type Incoming, type Reply, type Services } from "./replies";
import type { StoredSearch } from "./store";
import { newId } from "./webhooks";
import { sourcesOf } from "./observability";

/** The sources every emulator holds: log sources, as the real service's schema has them. */
export const SEEDED_SOURCES = [
  {
    id: "65a000000000000000000001",
    kind: "log",
    name: "Logs",
    connection: "65a0000000000000000000c1",
    from: { databaseName: "default", tableName: "otel_logs" },
    timestampValueExpression: "TimestampTime",
    defaultTableSelectExpression: "Timestamp, ServiceName, SeverityText, Body",
  },
  {
    id: "65a000000000000000000002",
    kind: "log",
    name: "Audit",
    connection: "65a0000000000000000000c1",
    from: { databaseName: "default", tableName: "audit_logs" },
    timestampValueExpression: "Timestamp",
    defaultTableSelectExpression: "Timestamp, Actor, Action",
  },
] as const;

const max = (n: number) => ({ error: `String must contain at most ${n} character(s)` });
const filterSchema = z.union([
  z.object({
    type: z.enum(["lucene", "sql"]).default("sql"),
    condition: z.string().max(SAVED_SEARCH_LIMITS.condition),
  }),
  z.object({
    type: z.literal("sql_ast"),
    operator: z.enum(SQL_AST_OPERATORS),
    left: z.string().max(SAVED_SEARCH_LIMITS.condition),
    right: z.string().max(SAVED_SEARCH_LIMITS.condition),
  }),
]);

const bodySchema = z.object({
  name: z
    .string({ error: (i) => (i.input === undefined ? "Required" : "Expected string") })
    .trim()
    .min(1, { error: "String must contain at least 1 character(s)" })
    .max(SAVED_SEARCH_LIMITS.name, max(SAVED_SEARCH_LIMITS.name)),
  sourceId: z.string({ error: "Required" }).refine(isObjectId, { error: "Invalid ObjectId" }),
  select: z
    .string()
    .max(SAVED_SEARCH_LIMITS.select, max(SAVED_SEARCH_LIMITS.select))
    .default(SAVED_SEARCH_DEFAULTS.select),
  where: z.string().max(SAVED_SEARCH_LIMITS.where, max(SAVED_SEARCH_LIMITS.where)).default(SAVED_SEARCH_DEFAULTS.where),
  whereLanguage: z
    .enum(WHERE_LANGUAGES, {
      error: (i) => `Invalid enum value. Expected 'lucene' | 'sql', received '${String(i.input)}'`,
    })
    .default("lucene"),
  orderBy: z.string().max(SAVED_SEARCH_LIMITS.orderBy, max(SAVED_SEARCH_LIMITS.orderBy)).default(""),
  tags: z
    .array(z.string().max(SAVED_SEARCH_LIMITS.tag, max(SAVED_SEARCH_LIMITS.tag)))
    .max(SAVED_SEARCH_LIMITS.tags, { error: `Array must contain at most ${SAVED_SEARCH_LIMITS.tags} element(s)` })
    .default([]),
  filters: z
    .array(filterSchema, { error: "Invalid input" })
    .max(SAVED_SEARCH_LIMITS.filters, { error: `Array must contain at most ${SAVED_SEARCH_LIMITS.filters} element(s)` })
    .default([]),
});

const searchesOf = (services: Services) => (services.state.savedSearches ??= {});
const sameFilter = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  ["type", "condition", "operator", "left", "right"].every((k) => a[k] === b[k]);

type Read =
  { ok: true; search: Omit<StoredSearch, "id" | "teamId" | "createdAt" | "updatedAt"> } | { ok: false; reply: Reply };

/** The body checked in the service's order: schema, then the source, then (on PUT) the lookup. */
function readBody(services: Services, req: Incoming): Read {
  const parsed = alertingBody(req, bodySchema);
  if (!parsed.ok) return parsed;
  if (sourcesOf(services)[parsed.value.sourceId] === undefined)
    return { ok: false, reply: alertingError(400, UNKNOWN_SOURCE) };
  const filters = parsed.value.filters.map((f): Record<string, unknown> => ({ ...f }));
  return { ok: true, search: { ...parsed.value, filters } };
}

/** The first filter the sidebar cannot render and the stored search does not already hold, as a 400. */
function unrenderable(
  filters: readonly Record<string, unknown>[],
  stored: readonly Record<string, unknown>[],
): Reply | undefined {
  const bad = filters.findIndex((f) => !isRenderableFilter(f) && !stored.some((s) => sameFilter(f, s)));
  return bad < 0 ? undefined : alertingError(400, unrenderableFilterWords(bad));
}

export function handleSavedSearches(services: Services, req: Incoming, id?: string): Reply {
  const searches = searchesOf(services);
  if (id === undefined) {
    if (req.method === "GET") return pageOf(req, Object.values(searches));
    const read = readBody(services, req);
    if (!read.ok) return read.reply;
    const refused = unrenderable(read.search.filters, []);
    if (refused) return refused;
    const now = isoNow();
    const search: StoredSearch = {
      id: newId(searches),
      ...read.search,
      teamId: services.state.team,
      createdAt: now,
      updatedAt: now,
    };
    searches[search.id] = search;
    services.persist();
    return { status: 200, body: { data: search } };
  }
  if (req.method === "PUT") {
    const read = readBody(services, req);
    if (!read.ok) return read.reply;
    const existing = searches[id];
    if (existing === undefined) return alertingError(404, "Saved search not found");
    const refused = unrenderable(read.search.filters, existing.filters);
    if (refused) return refused;
    const search: StoredSearch = { ...existing, ...read.search, updatedAt: isoNow(existing.updatedAt) };
    searches[id] = search;
    services.persist();
    return { status: 200, body: { data: search } };
  }
  const existing = searches[id];
  if (existing === undefined) return alertingError(404, "Saved search not found");
  if (req.method === "GET") return { status: 200, body: { data: existing } };
  // The alerts watching it go with it, and the answer says nothing of them.
  for (const [alertId, alert] of Object.entries(services.state.alerts))
    if (alert.savedSearch === id) delete services.state.alerts[alertId];
  delete searches[id];
  services.persist();
  return { status: 200, body: {} };
}
