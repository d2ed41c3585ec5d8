// Managed ClickStack as ClickHouse Cloud serves it (cloudDialect "clickhouse"): HyperDX's external
// API behind the cloud API's gateway, under /v1/organizations/{org}/services/{svc}/clickstack. The
// routes the Cloud document describes for alerts, webhooks and saved searches, Basic auth of the
// organization's keys and the cloud limiter; the objects are area A's 2026 ones (alerting.ts,
// teamObjects.ts), answered in the cloud envelope, lists as a bare `result` array paged by
// limit/offset. A route the gateway does not serve answers an HTML 404.

import { randomUUID } from "node:crypto";
import { handleAlerting } from "./alerting";
import { authenticate } from "./cloud";
import { FixedWindowLimiter } from "./limits";
import { cloudError, gatewayNotFound, parseJson, type Incoming, type Reply, type Services } from "./replies";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)\/clickstack(\/.*)?$/;

/** What the Cloud document describes for these three (no GET of one webhook, as HyperDX). */
const SERVED: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^\/alerts$/, ["GET", "POST"]],
  [/^\/alerts\/[^/]+$/, ["GET", "PUT", "DELETE"]],
  [/^\/webhooks$/, ["GET", "POST"]],
  [/^\/webhooks\/[^/]+$/, ["PUT", "DELETE"]],
  [/^\/saved-searches$/, ["GET", "POST"]],
  [/^\/saved-searches\/[^/]+$/, ["GET", "PUT", "DELETE"]],
];

/** Whether the path is under a service's `/clickstack`. */
export function isClickStackPath(path: string): boolean {
  return PREFIX.test(path);
}

/** Area A's 2026 handlers, counted by the cloud limiter alone (one budget per key). */
const teamServices = new WeakMap<Services, Services>();
const UNLIMITED = new FixedWindowLimiter(false);

function asTeam(services: Services): Services {
  let team = teamServices.get(services);
  if (team === undefined) {
    team = { ...services, mode: "2026", limiters: { ...services.limiters, alerting: UNLIMITED } };
    teamServices.set(services, team);
  }
  return team;
}

export function handleClickStack(services: Services, req: Incoming): Reply {
  const [, org = "", svc = "", rest = ""] = PREFIX.exec(req.path) ?? [];
  if (!SERVED.some(([pattern, allow]) => pattern.test(rest) && allow.includes(req.method))) return gatewayNotFound(req);

  const caller = authenticate(services, req);
  if (!caller.ok) return caller.reply;
  const admission = services.limiters.cloud.take(caller.keyId);
  if (!admission.ok)
    return cloudError(429, "rate limit exceeded; retry after the reset", {
      "X-RateLimit-Reset": String(admission.resetSeconds),
    });
  if (!UUID.test(org)) return cloudError(400, "organizationId must be a uuid");
  if (!UUID.test(svc)) return cloudError(400, "serviceId must be a uuid");
  if (caller.organizationId !== undefined && caller.organizationId !== org.toLowerCase())
    return cloudError(403, "this API key belongs to another organization");

  const refused = cloudSchemaProblem(req, rest);
  if (refused !== undefined) return cloudError(400, refused);
  const inner = handleAlerting(asTeam(services), {
    ...req,
    path: `/api/v2${rest}`,
    authorization: `Bearer ${services.token}`,
  });
  return inCloudEnvelope(inner, rest);
}

/** What the Cloud schemas refuse that HyperDX's take: an alert's `channels` (it has `channel` alone). */
function cloudSchemaProblem(req: Incoming, rest: string): string | undefined {
  if (!/^\/alerts(\/|$)/.test(rest) || (req.method !== "POST" && req.method !== "PUT")) return undefined;
  const json = parseJson(req.rawBody);
  if (!json.ok || typeof json.value !== "object" || json.value === null) return undefined;
  if ("channels" in json.value)
    return "Body validation failed: channels: not a field of ClickStackCreateAlertRequest; send one channel as `channel`";
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object as the Cloud schemas have it: an alert has no `channels`. */
function cloudObject(rest: string, object: unknown): unknown {
  if (!/^\/alerts(\/|$)/.test(rest) || !isRecord(object)) return object;
  const { channels: _channels, ...alert } = object;
  return alert;
}

/** `{data}` as `{status, requestId, result}` (a list's bare array, no `meta`); `{message}` as `{status, error, requestId}`. */
function inCloudEnvelope(inner: Reply, rest: string): Reply {
  const requestId = randomUUID();
  if (inner.status >= 200 && inner.status < 300) {
    const data = isRecord(inner.body) ? inner.body.data : undefined;
    if (data === undefined) return { status: 200, body: { status: 200, requestId } };
    const result = Array.isArray(data) ? data.map((o) => cloudObject(rest, o)) : cloudObject(rest, data);
    return { status: 200, body: { status: 200, requestId, result } };
  }
  const words = isRecord(inner.body) && typeof inner.body.message === "string" ? inner.body.message : "";
  return cloudError(inner.status, words === "" ? `status ${inner.status}` : words);
}
