// Area A: alerts under /api/v2/alerts, Bearer token auth, `{data}` bodies and `{message}` errors.

import { randomBytes } from "node:crypto";
import { ALERT_LIST_PAGE_MAX } from "../provider/serviceFacts/alertRules";
import { alertBodySchema, parseWith, type AlertBody } from "./schemas";
import { alertingError, isoNow, parseJson, sameSecret, type Incoming, type Reply, type Services } from "./replies";
import type { StoredAlert } from "./store";
import { queryInteger } from "./paging";
import { teamObjectRoute } from "./teamObjects";

const COLLECTION = /^\/api\/v2\/alerts$/;
const ITEM = /^\/api\/v2\/alerts\/([^/]+)$/;

export function handleAlerting(services: Services, req: Incoming): Reply {
  const item = ITEM.exec(req.path);
  const objects = teamObjectRoute(req.path);
  const route = COLLECTION.test(req.path)
    ? { allow: ["GET", "POST"] }
    : item
      ? { allow: ["GET", "PUT", "DELETE"] }
      : objects;
  if (route === undefined) return alertingError(404, `no endpoint at ${req.path}`);
  if (!route.allow.includes(req.method)) {
    return alertingError(405, `${req.method} is not supported on ${req.path}`, { Allow: route.allow.join(", ") });
  }

  const denied = authenticate(services, req.authorization);
  if (denied) return denied;
  const admission = services.limiters.alerting.take("bearer");
  if (!admission.ok) {
    // The real service's headers: RateLimit-*, not X-RateLimit-*.
    return alertingError(429, "Too many requests, please try again later.", {
      "RateLimit-Limit": String(admission.limit),
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": String(admission.resetSeconds),
    });
  }

  if (objects !== undefined) return objects.handle(services, req);
  if (item === null) return req.method === "GET" ? list(services, req) : create(services, req);
  const id = item[1] ?? "";
  const existing = services.state.alerts[id];
  if (existing === undefined) return alertingError(404, `no alert with id ${id}`);
  switch (req.method) {
    case "GET":
      return { status: 200, body: { data: existing } };
    case "PUT":
      return replace(services, req, existing);
    default:
      delete services.state.alerts[id];
      services.persist();
      return { status: 200, body: {} };
  }
}

function authenticate(services: Services, authorization: string | undefined): Reply | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
  if (!match || !sameSecret(match[1] ?? "", services.token)) {
    return alertingError(401, "missing or invalid bearer token");
  }
  return undefined;
}

function readBody(req: Incoming): { ok: true; body: AlertBody } | { ok: false; reply: Reply } {
  const json = parseJson(req.rawBody);
  if (!json.ok) return { ok: false, reply: alertingError(400, json.message) };
  const parsed = parseWith(alertBodySchema, json.value);
  if (!parsed.ok) return { ok: false, reply: alertingError(400, parsed.message) };
  return { ok: true, body: parsed.value };
}

/**
 * The caller's alerts (every alert: the one token is the one team) in creation order, wrapped in
 * `data` like every answer. `limit` and `offset` page as the newer service does; without them, all.
 */
function list(services: Services, req: Incoming): Reply {
  const limit = queryInteger(req.query, "limit", 1, ALERT_LIST_PAGE_MAX);
  if (!limit.ok) return alertingError(400, limit.message);
  const offset = queryInteger(req.query, "offset", 0, Number.MAX_SAFE_INTEGER);
  if (!offset.ok) return alertingError(400, offset.message);
  const all = Object.values(services.state.alerts);
  const from = offset.value ?? 0;
  return { status: 200, body: { data: all.slice(from, limit.value === undefined ? undefined : from + limit.value) } };
}

function create(services: Services, req: Incoming): Reply {
  const read = readBody(req);
  if (!read.ok) return read.reply;
  const now = isoNow();
  const alert = toAlert(read.body, newAlertId(services), services.state.team, now, now);
  services.state.alerts[alert.id] = alert;
  services.persist();
  // The real service answers every success 200, create included.
  return { status: 200, body: { data: alert } };
}

/** PUT replaces the whole body: a member left out is gone afterwards, as after a fresh create. */
function replace(services: Services, req: Incoming, existing: StoredAlert): Reply {
  const read = readBody(req);
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
  return { status: 200, body: { data: alert } };
}

/**
 * The returned object in the spec's member order; members without a value are left out, never null.
 * What the body does not hold (state, silenced) survives a PUT, as the UI's silencing does live.
 */
function toAlert(
  body: AlertBody,
  id: string,
  team: string,
  createdAt: string,
  updatedAt: string,
  existing?: StoredAlert,
): StoredAlert {
  return {
    id,
    ...(body.name !== undefined && body.name !== null ? { name: body.name } : {}),
    ...(body.message !== undefined && body.message !== null ? { message: body.message } : {}),
    threshold: body.threshold,
    interval: body.interval,
    thresholdType: body.thresholdType,
    source: body.source,
    state: existing?.state ?? "OK",
    channel: { type: body.channel.type, webhookId: body.channel.webhookId },
    team,
    ...(body.tileId !== undefined ? { tileId: body.tileId } : {}),
    ...(body.dashboardId !== undefined ? { dashboard: body.dashboardId } : {}),
    ...(existing?.silenced !== undefined ? { silenced: existing.silenced } : {}),
    createdAt,
    updatedAt,
  };
}

function newAlertId(services: Services): string {
  for (;;) {
    const id = randomBytes(12).toString("hex");
    if (services.state.alerts[id] === undefined) return id;
  }
}
