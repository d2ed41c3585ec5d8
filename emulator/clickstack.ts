// Managed ClickStack as ClickHouse Cloud serves it (cloudDialect "clickhouse"): HyperDX's external
// API behind the cloud API's gateway, under /v1/organizations/{org}/services/{svc}/clickstack. The
// routes the Cloud document describes for alerts, webhooks, saved searches, dashboards and sources
// (no connections route: the platform made the seeded connection, which sources name), Basic auth of the
// organization's keys and the cloud limiter; the objects are area A's 2026 ones (alerting.ts,
// teamObjects.ts), answered in the cloud envelope, lists as a bare `result` array paged by
// limit/offset. A route the gateway does not serve answers an HTML 404.

import { randomUUID } from "node:crypto";
import { NOT_ON_MANAGED_CLICKSTACK } from "../provider/serviceFacts/observability";
import { handleAlerting } from "./alerting";
import { authenticate } from "./cloud";
import { FixedWindowLimiter } from "./limits";
import { cloudError, cloudOk, gatewayNotFound, parseJson, type Incoming, type Reply, type Services } from "./replies";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)\/clickstack(\/.*)?$/;

/** What the Cloud document describes (no GET of one webhook, as HyperDX; no connections: the platform makes it). */
const SERVED: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^\/alerts$/, ["GET", "POST"]],
  [/^\/alerts\/[^/]+$/, ["GET", "PUT", "DELETE"]],
  [/^\/webhooks$/, ["GET", "POST"]],
  [/^\/webhooks\/[^/]+$/, ["PUT", "DELETE"]],
  [/^\/saved-searches$/, ["GET", "POST"]],
  [/^\/saved-searches\/[^/]+$/, ["GET", "PUT", "DELETE"]],
  [/^\/dashboards$/, ["GET", "POST"]],
  [/^\/dashboards\/validate$/, ["POST"]],
  [/^\/dashboards\/[^/]+$/, ["GET", "PUT", "DELETE"]],
  [/^\/sources$/, ["GET", "POST"]],
  [/^\/sources\/[^/]+$/, ["GET", "PUT", "DELETE"]],
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
    team = {
      ...services,
      mode: "2026",
      emailChannels: true,
      managedSources: true,
      limiters: { ...services.limiters, alerting: UNLIMITED },
    };
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

  const write = /^\/(dashboards|sources)(\/|$)/.test(rest) ? observabilityWrite(req, rest) : alertWrite(req, rest);
  if (write.problem !== undefined)
    return rest === "/dashboards/validate"
      ? cloudOk({ valid: false, errors: [{ path: write.problemPath ?? "", message: write.problem }], normalized: null })
      : cloudError(400, `Body validation failed: ${write.problemPath ?? ""}: ${write.problem}`);
  const inner = handleAlerting(asTeam(services), {
    ...(write.forwarded ?? req),
    path: `/api/v2${rest}`,
    authorization: `Bearer ${services.token}`,
  });
  if (/^\/alerts(\/|$)/.test(rest) && (req.method === "POST" || req.method === "PUT") && inner.status === 200)
    keepChannel(services, inner, write.channel);
  return inCloudEnvelope(services, inner, rest);
}

const SEVERITIES: readonly unknown[] = ["critical", "error", "warning", "info", null];
const WEBHOOK_EXTRAS = ["webhookService", "slackChannelId", "severity"] as const;

/** An alert write's body, when it is one: what HyperDX's handlers take, and the channel as written. */
interface AlertWrite {
  readonly problem?: string;
  readonly problemPath?: string;
  readonly forwarded?: Incoming;
  readonly channel?: Record<string, unknown>;
}

/**
 * What the Cloud schemas refuse that HyperDX's take (an alert's `channels`: it has `channel` alone), and
 * their webhook channel's members HyperDX's lack (kept beside the alert).
 */
function alertWrite(req: Incoming, rest: string): AlertWrite {
  if (!/^\/alerts(\/|$)/.test(rest) || (req.method !== "POST" && req.method !== "PUT")) return {};
  const json = parseJson(req.rawBody);
  if (!json.ok || !isRecord(json.value)) return {};
  if ("channels" in json.value)
    return {
      problemPath: "channels",
      problem: "not a field of ClickStackCreateAlertRequest; send one channel as `channel`",
    };
  const channel = json.value.channel;
  if (!isRecord(channel)) return {};
  // An email channel is HyperDX's handlers' own on this gateway (alertBodyCloudSchema), stored as written.
  if (channel.type === "email") return {};
  for (const member of ["webhookService", "slackChannelId"] as const)
    if (channel[member] !== undefined && channel[member] !== null && typeof channel[member] !== "string")
      return { problemPath: `channel.${member}`, problem: "Expected string" };
  if (channel.severity !== undefined && !SEVERITIES.includes(channel.severity))
    return { problemPath: "channel.severity", problem: "must be one of critical, error, warning, info" };
  if (!WEBHOOK_EXTRAS.some((m) => channel[m] !== undefined && channel[m] !== null)) return {};
  const { webhookService: _s, slackChannelId: _c, severity: _v, ...plain } = channel;
  return { forwarded: { ...req, rawBody: JSON.stringify({ ...json.value, channel: plain }) }, channel };
}

/** Members HyperDX's schemas have and the Cloud's lack: dropped, as HyperDX drops a field it does not know. */
const NOT_IN_CLOUD_CONFIG = NOT_ON_MANAGED_CLICKSTACK.tileConfig;
const NOT_IN_CLOUD_FILTER = NOT_ON_MANAGED_CLICKSTACK.filter;
const NOT_IN_CLOUD_SOURCE = NOT_ON_MANAGED_CLICKSTACK.source;

const without = (o: Record<string, unknown>, names: readonly string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !names.includes(k)));

/**
 * A dashboard or source write as the Cloud schemas have it: a create's filters carry no id
 * (ClickStackFilterInput; a PUT's ClickStackFilter requires one), a trace source needs
 * durationPrecision (ClickStackTraceSource, where HyperDX's server defaults it), and the members
 * the Cloud's schemas lack are dropped before HyperDX's handlers see the body.
 */
function observabilityWrite(req: Incoming, rest: string): AlertWrite {
  if (req.method !== "POST" && req.method !== "PUT") return {};
  const json = parseJson(req.rawBody);
  if (!json.ok || !isRecord(json.value)) return {};
  const body = json.value;
  if (rest.startsWith("/sources")) {
    if (body.kind === "trace" && body.durationPrecision === undefined)
      return { problemPath: "durationPrecision", problem: "Required" };
    return { forwarded: { ...req, rawBody: JSON.stringify(without(body, NOT_IN_CLOUD_SOURCE)) } };
  }
  const filters = Array.isArray(body.filters) ? body.filters : undefined;
  if (req.method === "POST" && filters !== undefined) {
    const at = filters.findIndex((f) => isRecord(f) && f.id !== undefined);
    if (at >= 0)
      return {
        problemPath: `filters.${at}.id`,
        problem: "not a field of ClickStackFilterInput: a new filter has no id",
      };
  }
  const tiles = Array.isArray(body.tiles)
    ? body.tiles.map((t: unknown) =>
        isRecord(t) && isRecord(t.config) ? { ...t, config: without(t.config, NOT_IN_CLOUD_CONFIG) } : t,
      )
    : body.tiles;
  const sent = {
    ...body,
    tiles,
    ...(filters === undefined
      ? {}
      : { filters: filters.map((f: unknown) => (isRecord(f) ? without(f, NOT_IN_CLOUD_FILTER) : f)) }),
  };
  return { forwarded: { ...req, rawBody: JSON.stringify(sent) } };
}

/** Keeps (or clears) the channel as written beside the alert HyperDX's handlers stored. */
function keepChannel(services: Services, inner: Reply, channel: Record<string, unknown> | undefined): void {
  const id = isRecord(inner.body) && isRecord(inner.body.data) ? inner.body.data.id : undefined;
  const stored = typeof id === "string" ? services.state.alerts[id] : undefined;
  if (stored === undefined) return;
  if (channel === undefined) delete stored.cloudChannel;
  else stored.cloudChannel = { ...channel };
  services.persist();
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object as the Cloud schemas have it: an alert has no `channels`, and its channel as written. */
function cloudObject(services: Services, rest: string, object: unknown): unknown {
  if (!/^\/alerts(\/|$)/.test(rest) || !isRecord(object)) return object;
  const { channels: _channels, ...alert } = object;
  const written = typeof alert.id === "string" ? services.state.alerts[alert.id]?.cloudChannel : undefined;
  return written === undefined ? alert : { ...alert, channel: { ...written } };
}

/** `{data}` as `{status, requestId, result}` (a list's bare array, no `meta`); `{message}` as `{status, error, requestId}`. */
function inCloudEnvelope(services: Services, inner: Reply, rest: string): Reply {
  const requestId = randomUUID();
  if (inner.status >= 200 && inner.status < 300) {
    // A validation's answer is bare in HyperDX's API: it is the result as a whole.
    const data = rest === "/dashboards/validate" ? inner.body : isRecord(inner.body) ? inner.body.data : undefined;
    if (data === undefined) return { status: 200, body: { status: 200, requestId } };
    const result = Array.isArray(data)
      ? data.map((o) => cloudObject(services, rest, o))
      : cloudObject(services, rest, data);
    return { status: 200, body: { status: 200, requestId, result } };
  }
  const words = isRecord(inner.body) && typeof inner.body.message === "string" ? inner.body.message : "";
  return cloudError(inner.status, words === "" ? `status ${inner.status}` : words);
}
