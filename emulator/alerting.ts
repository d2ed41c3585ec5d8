// Area A: alerts under /api/v2/alerts, Bearer token auth, `{data}` bodies and `{message}` errors.
// Two modes: the contract's (the default), and "2026", HyperDX's external API as its server answers
// at commit b52a6fa (docs/design/real-alerting-service.md lists what differs and why).

import { randomBytes } from "node:crypto";
import { ALERT_LIST_PAGE_MAX } from "../provider/serviceFacts/alertRules";
import { alertBody2026Schema, alertBodyCloudSchema, alertBodySchema, parseWith } from "./schemas";
import { alertingError, isoNow, parseJson, sameSecret, type Incoming, type Reply, type Services } from "./replies";
import type { StoredAlert, StoredChannel } from "./store";
import { queryInteger } from "./paging";
import { teamObjectRoute } from "./teamObjects";
import { tileProblem } from "./observability";

const COLLECTION = /^\/api\/v2\/alerts$/;
const ITEM = /^\/api\/v2\/alerts\/([^/]+)$/;
const API_ROOT = /^\/api\/v2\/?$/;

/** What a create or PUT body holds, in either mode, once checked. */
interface AlertFields {
  threshold: number;
  interval: string;
  source: StoredAlert["source"];
  thresholdType: StoredAlert["thresholdType"];
  channel?: StoredChannel | undefined;
  channels?: Channel[] | undefined;
  thresholdMax?: number | undefined;
  scheduleOffsetMinutes?: number | undefined;
  scheduleStartAt?: string | null | undefined;
  numConsecutiveWindows?: number | null | undefined;
  note?: string | null | undefined;
  groupBy?: string | null | undefined;
  dashboardId?: string | undefined;
  tileId?: string | undefined;
  savedSearchId?: string | undefined;
  name?: string | null | undefined;
  message?: string | null | undefined;
}

interface Channel {
  type: "webhook";
  webhookId: string;
}

export function handleAlerting(services: Services, req: Incoming): Reply {
  const counted: { headers?: Record<string, string> } = {};
  const reply = route(services, req, counted);
  // The real service states its count of the key's requests in every answer it counted (2026 mode).
  return counted.headers === undefined ? reply : { ...reply, headers: { ...counted.headers, ...reply.headers } };
}

function route(services: Services, req: Incoming, counted: { headers?: Record<string, string> }): Reply {
  if (services.mode === "2026" && API_ROOT.test(req.path)) return apiRoot(services, req);
  const item = ITEM.exec(req.path);
  const objects = teamObjectRoute(req.path);
  const route = COLLECTION.test(req.path)
    ? { allow: ["GET", "POST"] }
    : item
      ? { allow: ["GET", "PUT", "DELETE"] }
      : objects;
  if (route === undefined) return alertingError(404, `no endpoint at ${req.path}`);
  const allowed = route.allow.includes(req.method);
  if (!allowed && services.mode !== "2026") {
    return alertingError(405, `${req.method} is not supported on ${req.path}`, { Allow: route.allow.join(", ") });
  }

  // The real service counts a request before it looks at the key (2026 mode), each key by itself.
  if (services.mode === "2026") {
    const limited = admit(services, bearer(req.authorization) ?? "", counted);
    if (limited) return limited;
  }
  const denied = authenticate(services, req.authorization);
  if (denied) return denied;
  if (services.mode !== "2026") {
    const limited = admit(services, "bearer", {});
    if (limited) return limited;
  }
  // Express has no 405: a method its router lacks (a GET of one webhook) falls through to its HTML 404.
  if (!allowed) return expressNotFound(req);

  if (objects !== undefined) return objects.handle(services, req);
  if (item === null) return req.method === "GET" ? list(services, req) : create(services, req);
  const id = item[1] ?? "";
  // The real service takes only what Mongoose calls an ObjectId in the path (24 hex digits, or any
  // 12 characters): any other id is a 400.
  if (services.mode === "2026" && !isObjectId(decoded(id))) {
    return alertingError(400, `id: must be an ObjectId (24 hexadecimal digits), not ${JSON.stringify(id)}`);
  }
  const existing = services.state.alerts[id];
  if (existing === undefined) {
    // The real service checks a PUT's body, and what it names, before it looks the alert up.
    const read = services.mode === "2026" && req.method === "PUT" ? readBody(services, req) : undefined;
    return read !== undefined && !read.ok ? read.reply : alertingError(404, `no alert with id ${id}`);
  }
  switch (req.method) {
    case "GET":
      return { status: 200, body: { data: render(services, existing) } };
    case "PUT":
      return replace(services, req, existing);
    default:
      delete services.state.alerts[id];
      services.persist();
      return { status: 200, body: {} };
  }
}

/** A path segment as Express hands it to a route (percent-decoded), or as it came when it cannot be decoded. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What Mongoose's ObjectId.isValid takes: 24 hex digits, or any 12 characters. */
function isObjectId(id: string): boolean {
  return /^[0-9a-f]{24}$/i.test(id) || id.length === 12;
}

/** Express's answer to a path or method no route has, as HyperDX's server sends it. */
function expressNotFound(req: Incoming): Reply {
  const page = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${req.method} ${encodeURI(req.path)}</pre>\n</body>\n</html>\n`;
  return { status: 404, body: page, text: "text/html" };
}

/**
 * What a 2026 alert names, looked up as HyperDX's `validateAlertInput` does (controllers/alerts.ts
 * at b52a6fa): a saved-search alert's saved search, then every channel's webhook, in the team.
 * A tile alert's dashboard and tile first (observability.ts).
 */
function referenceProblem(services: Services, body: AlertFields): Reply | undefined {
  if (body.source === "tile") {
    const problem = tileProblem(services, body.dashboardId, body.tileId);
    if (problem !== undefined) return problem;
  }
  if (body.source === "saved_search") {
    const search = body.savedSearchId ?? "";
    if (!isObjectId(search)) return alertingError(400, "Invalid saved search ID");
    if (services.state.savedSearches?.[search] === undefined) return alertingError(400, "Saved search not found");
  }
  const hooks = (body.channels ?? (body.channel === undefined ? [] : [body.channel])).flatMap((c) =>
    c.type === "webhook" ? [c.webhookId] : [],
  );
  if (hooks.some((h) => !isObjectId(h))) return alertingError(400, "Invalid webhook ID");
  if (hooks.some((h) => services.state.webhooks?.[h] === undefined)) return alertingError(400, "Webhook not found");
  return undefined;
}

function bearer(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
}

/** A 429 when the credential's window is spent, else undefined, the count it states put in `counted` (2026 mode). */
function admit(
  services: Services,
  credential: string,
  counted: { headers?: Record<string, string> },
): Reply | undefined {
  const admission = services.limiters.alerting.take(credential);
  if (admission.ok) {
    if (services.mode === "2026" && admission.remaining !== undefined) {
      counted.headers = {
        "RateLimit-Limit": String(admission.limit),
        "RateLimit-Remaining": String(admission.remaining),
        "RateLimit-Reset": String(admission.resetSeconds),
      };
    }
    return undefined;
  }
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(admission.limit),
    "RateLimit-Remaining": "0",
    "RateLimit-Reset": String(admission.resetSeconds),
  };
  // The real service's 429 asks for a whole window (express-rate-limit's Retry-After), however soon the reset.
  if (services.mode === "2026") headers["Retry-After"] = String(services.limiters.alerting.windowSeconds);
  // The real service's headers: RateLimit-*, not X-RateLimit-*; its words as Express sends a string (2026 mode).
  const words = "Too many requests, please try again later.";
  if (services.mode === "2026") return { status: 429, body: words, text: "text/html", headers };
  return alertingError(429, words, headers);
}

/**
 * `GET /api/v2` as HyperDX answers it (packages/api/src/routers/external-api/v2/index.ts at b52a6fa):
 * the version and the key's user, the key checked, no rate limit counted. The contract has no such
 * path; the provider asks it to learn which spelling of `source` a service speaks.
 */
function apiRoot(services: Services, req: Incoming): Reply {
  if (req.method !== "GET") return alertingError(404, `no endpoint at ${req.path}`);
  const denied = authenticate(services, req.authorization);
  if (denied) return denied;
  // The user as Mongoose's toJSON gives it; the emulator has one user, made with its team.
  const at = isoNow();
  const user = {
    _id: services.state.team.split("").reverse().join(""),
    email: "emulator@example.test",
    name: "Emulator",
    team: services.state.team,
    accessKey: services.token,
    createdAt: at,
    updatedAt: at,
    __v: 0,
  };
  return { status: 200, body: { version: "v2", user } };
}

function authenticate(services: Services, authorization: string | undefined): Reply | undefined {
  const token = bearer(authorization);
  if (token !== undefined && sameSecret(token, services.token)) return undefined;
  // The real service answers a bare `Unauthorized` in plain text.
  if (services.mode === "2026") return { status: 401, body: "Unauthorized", text: "text/plain" };
  return alertingError(401, "missing or invalid bearer token");
}

function readBody(services: Services, req: Incoming): { ok: true; body: AlertFields } | { ok: false; reply: Reply } {
  const json = parseJson(req.rawBody);
  if (!json.ok) return { ok: false, reply: alertingError(400, json.message) };
  const parsed =
    services.mode === "2026"
      ? parseWith<AlertFields>(services.emailChannels === true ? alertBodyCloudSchema : alertBody2026Schema, json.value)
      : parseWith<AlertFields>(alertBodySchema, json.value);
  if (!parsed.ok) return { ok: false, reply: alertingError(400, parsed.message) };
  const missing = services.mode === "2026" ? referenceProblem(services, parsed.value) : undefined;
  if (missing !== undefined) return { ok: false, reply: missing };
  return { ok: true, body: parsed.value };
}

/**
 * The caller's alerts (every alert: the one token is the one team) in creation order, wrapped in
 * `data` like every answer. `limit` and `offset` page as the newer service does, and a paged answer
 * carries the total in `meta` and `X-Total-Count` as it does; without them, all (in 2026 mode, at
 * most 1000 and always with the total, as the real service; in the contract's, as the contract has it).
 */
function list(services: Services, req: Incoming): Reply {
  const limit = queryInteger(req.query, "limit", 1, ALERT_LIST_PAGE_MAX);
  if (!limit.ok) return alertingError(400, limit.message);
  const offset = queryInteger(req.query, "offset", 0, Number.MAX_SAFE_INTEGER);
  if (!offset.ok) return alertingError(400, offset.message);
  const all = Object.values(services.state.alerts);
  const from = offset.value ?? 0;
  if (services.mode !== "2026") {
    const data = all
      .slice(from, limit.value === undefined ? undefined : from + limit.value)
      .map((a) => render(services, a));
    if (limit.value === undefined && offset.value === undefined) return { status: 200, body: { data } };
    return {
      status: 200,
      body: { data, meta: { total: all.length, limit: limit.value ?? all.length, offset: from } },
      headers: { "X-Total-Count": String(all.length) },
    };
  }
  const size = limit.value ?? ALERT_LIST_PAGE_MAX;
  return {
    status: 200,
    body: {
      data: all.slice(from, from + size).map((a) => render(services, a)),
      meta: { total: all.length, limit: size, offset: from },
    },
    headers: { "X-Total-Count": String(all.length) },
  };
}

function create(services: Services, req: Incoming): Reply {
  const read = readBody(services, req);
  if (!read.ok) return read.reply;
  const now = isoNow();
  const alert = toAlert(read.body, newAlertId(services), services.state.team, now, now);
  services.state.alerts[alert.id] = alert;
  services.persist();
  // The real service answers every success 200, create included.
  return { status: 200, body: { data: render(services, alert) } };
}

/** PUT replaces the whole body: a member left out is gone afterwards, as after a fresh create. */
function replace(services: Services, req: Incoming, existing: StoredAlert): Reply {
  const read = readBody(services, req);
  if (!read.ok) return read.reply;
  const alert = toAlert(
    read.body,
    existing.id,
    existing.team,
    existing.createdAt,
    isoNow(existing.updatedAt),
    existing,
  );
  services.state.alerts[alert.id] = alert;
  services.persist();
  return { status: 200, body: { data: render(services, alert) } };
}

/**
 * The stored object, in the contract's member order; members without a value are left out, never
 * null. What the body does not hold (state, silenced, executionErrors) survives a PUT, as the UI's silencing does live.
 */
function toAlert(
  body: AlertFields,
  id: string,
  team: string,
  createdAt: string,
  updatedAt: string,
  existing?: StoredAlert,
): StoredAlert {
  // The check made sure one of them is there, and that channel is channels[0] when both are.
  const channels = body.channels?.map((c) => ({ type: c.type, webhookId: c.webhookId }));
  const one: StoredChannel | undefined =
    body.channel?.type === "email"
      ? { type: "email", emailRecipients: [...body.channel.emailRecipients] }
      : body.channel && { type: body.channel.type, webhookId: body.channel.webhookId };
  const first = channels?.[0] ?? one ?? { type: "webhook" as const, webhookId: "" };
  // As the service: a PUT that leaves these out keeps them; a start sent stores the offset as 0.
  const thresholdMax = body.thresholdMax ?? existing?.thresholdMax;
  const startAt =
    body.scheduleStartAt === undefined
      ? existing?.scheduleStartAt
      : body.scheduleStartAt === null
        ? null
        : new Date(body.scheduleStartAt).toISOString();
  const offset =
    body.scheduleOffsetMinutes ?? (body.scheduleStartAt !== undefined ? 0 : existing?.scheduleOffsetMinutes);
  return {
    id,
    ...(body.name !== undefined && body.name !== null ? { name: body.name } : {}),
    ...(body.message !== undefined && body.message !== null ? { message: body.message } : {}),
    threshold: body.threshold,
    interval: body.interval,
    thresholdType: body.thresholdType,
    source: body.source,
    state: existing?.state ?? "OK",
    channel: first,
    ...(body.channels !== undefined ? { channels } : {}),
    ...(thresholdMax !== undefined ? { thresholdMax } : {}),
    ...(offset !== undefined ? { scheduleOffsetMinutes: offset } : {}),
    ...(startAt !== undefined ? { scheduleStartAt: startAt } : {}),
    ...(body.numConsecutiveWindows != null ? { numConsecutiveWindows: body.numConsecutiveWindows } : {}),
    ...(body.note != null ? { note: body.note } : {}),
    ...(body.groupBy != null && body.source !== "tile" ? { groupBy: body.groupBy } : {}),
    ...(body.savedSearchId !== undefined && body.source !== "tile" ? { savedSearchId: body.savedSearchId } : {}),
    team,
    ...(body.tileId !== undefined ? { tileId: body.tileId } : {}),
    ...(body.dashboardId !== undefined ? { dashboard: body.dashboardId } : {}),
    ...(body.savedSearchId !== undefined ? { savedSearch: body.savedSearchId } : {}),
    ...(existing?.silenced !== undefined ? { silenced: existing.silenced } : {}),
    ...(existing?.executionErrors !== undefined ? { executionErrors: existing.executionErrors } : {}),
    createdAt,
    updatedAt,
  };
}

/**
 * An alert as an answer carries it: as stored in the contract's mode; in 2026 mode as HyperDX's
 * `translateAlertDocumentToExternalAlert` (packages/api/src/utils/externalApi.ts) makes it: `teamId`,
 * `dashboardId`, `savedSearchId`, `channels` beside `channel`, null for an unset name, message,
 * note and numConsecutiveWindows; thresholdMax, the schedule and groupBy only when set.
 */
function render(services: Services, alert: StoredAlert): unknown {
  if (services.mode !== "2026") {
    // The contract has no executionErrors (the 2026 service's output), nor managed ClickStack's channel as written.
    const { executionErrors: _errors, cloudChannel: _cloud, ...contract } = alert;
    return contract;
  }
  return {
    id: alert.id,
    name: alert.name ?? null,
    message: alert.message ?? null,
    note: alert.note ?? null,
    threshold: alert.threshold,
    ...(alert.thresholdMax !== undefined ? { thresholdMax: alert.thresholdMax } : {}),
    interval: alert.interval,
    ...(alert.scheduleOffsetMinutes !== undefined ? { scheduleOffsetMinutes: alert.scheduleOffsetMinutes } : {}),
    ...(alert.scheduleStartAt !== undefined ? { scheduleStartAt: alert.scheduleStartAt } : {}),
    numConsecutiveWindows: alert.numConsecutiveWindows ?? null,
    thresholdType: alert.thresholdType,
    source: alert.source,
    state: alert.state,
    channel: alert.channel,
    channels: alert.channels ?? [alert.channel],
    teamId: alert.team,
    ...(alert.tileId !== undefined ? { tileId: alert.tileId } : {}),
    ...(alert.dashboard !== undefined ? { dashboardId: alert.dashboard } : {}),
    ...(alert.savedSearch !== undefined ? { savedSearchId: alert.savedSearch } : {}),
    ...(alert.groupBy !== undefined ? { groupBy: alert.groupBy } : {}),
    ...(alert.silenced !== undefined ? { silenced: alert.silenced } : {}),
    ...(alert.executionErrors !== undefined ? { executionErrors: alert.executionErrors } : {}),
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt,
  };
}

function newAlertId(services: Services): string {
  for (;;) {
    const id = randomBytes(12).toString("hex");
    if (services.state.alerts[id] === undefined) return id;
  }
}
