// Area B: pipe settings and organization API keys under /v1, Basic auth with key ID and secret,
// `{requestId, status, result}` envelopes and `{status, error, requestId}` errors; pipe settings at
// the contract's `/pipes/` and `db_*`, or ClickHouse Cloud's `/clickpipes/` and `clickhouse_*`.

import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { BlockList, isIPv4 } from "node:net";
import { SETTING_NAMES, wireName } from "../provider/serviceFacts/pipeSettings";
import { hasCustomRoles, listRoles, roleOf } from "./roles";
import { serviceRoute } from "./services";
import { PIPE_SETTINGS_BODIES, keyCreateBodySchema, keyPatchBodySchema, parseWith } from "./schemas";
import type { CloudDialect } from "../provider/serviceFacts/cloudDialects";
import {
  cloudError,
  cloudOk,
  gatewayNotFound,
  isoNow,
  parseJson,
  sameSecret,
  sha256,
  type Incoming,
  type Reply,
  type Services,
} from "./replies";
import type { IpAccessEntry, PipeSettingsWire, StoredKey } from "./store";
import { CLICK_PIPE_ROUTES } from "./clickpipes";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Route {
  pattern: RegExp;
  /** Served only where area B speaks this dialect; absent: in both. */
  dialect?: CloudDialect;
  allow: string[];
  /** Names of the path parameters, in capture order; all must be uuids. */
  params: string[];
  run(services: Services, req: Incoming, ids: string[]): Reply;
}

/** A pipe's settings; the real service answers a settings call on a service that is not running with a 424. */
function settingsRoute(dialect: CloudDialect, pattern: RegExp, pipeParam: string): Route {
  return {
    pattern,
    dialect,
    allow: ["GET", "PUT"],
    params: ["organizationId", "serviceId", pipeParam],
    run: (services, req, ids) =>
      req.servicesIdle
        ? cloudError(424, `FAILED_DEPENDENCY: Service ${ids[1] ?? ""} is not running. Current state: idle`)
        : req.method === "GET"
          ? getSettings(services, ids)
          : putSettings(services, req, ids),
  };
}

const ROUTES: Route[] = [
  {
    // The key's own organization, as the real service lists it (a list of one); the bootstrap pair has none.
    pattern: /^\/v1\/organizations$/,
    allow: ["GET"],
    params: [],
    run: (services, req) => {
      const caller = authenticate(services, req);
      const org = caller.ok ? caller.organizationId : undefined;
      return cloudOk(org === undefined ? [] : [{ id: org, name: "emulator", createdAt: "2026-01-01T00:00:00Z" }]);
    },
  },
  settingsRoute("contract", /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)\/pipes\/([^/]+)\/settings$/, "pipeId"),
  settingsRoute(
    "clickhouse",
    /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)\/clickpipes\/([^/]+)\/settings$/,
    "clickPipeId",
  ),
  ...(["service", "state", "cdcScaling"] as const).map((what): Route => ({
    pattern: new RegExp(
      `^/v1/organizations/([^/]+)/services/([^/]+)${{ service: "", state: "/state", cdcScaling: "/clickpipesCdcScaling" }[what]}$`,
    ),
    dialect: "clickhouse",
    allow: { service: ["GET"], state: ["PATCH"], cdcScaling: ["GET", "PATCH"] }[what],
    params: ["organizationId", "serviceId"],
    run: (services, req, ids) => serviceRoute(services, req, ids, what),
  })),
  {
    pattern: /^\/v1\/organizations\/([^/]+)\/keys$/,
    allow: ["GET", "POST"],
    params: ["organizationId"],
    run: (services, req, [org]) =>
      req.method === "GET" ? listKeys(services, org ?? "") : createKey(services, req, org ?? ""),
  },
  {
    pattern: /^\/v1\/organizations\/([^/]+)\/roles$/,
    allow: ["GET"],
    params: ["organizationId"],
    run: (services, _req, [org]) => cloudOk(listRoles(services.state, org ?? "")),
  },
  {
    pattern: /^\/v1\/organizations\/([^/]+)\/keys\/([^/]+)$/,
    allow: ["GET", "PATCH", "DELETE"],
    params: ["organizationId", "keyId"],
    run: (services, req, [org, id]) => keyItem(services, req, org ?? "", id ?? ""),
  },
  ...CLICK_PIPE_ROUTES,
];

export function handleCloud(services: Services, req: Incoming): Reply {
  let route: Route | undefined;
  let captures: string[] = [];
  for (const candidate of ROUTES) {
    if (candidate.dialect !== undefined && candidate.dialect !== services.cloudDialect) continue;
    const match = candidate.pattern.exec(req.path);
    if (match) {
      route = candidate;
      captures = match.slice(1).map((s) => s ?? "");
      break;
    }
  }
  if (route === undefined)
    return services.cloudDialect === "clickhouse"
      ? gatewayNotFound(req)
      : cloudError(404, `no endpoint at ${req.path}`);
  if (!route.allow.includes(req.method)) {
    return cloudError(405, `${req.method} is not supported on ${req.path}`, { Allow: route.allow.join(", ") });
  }

  const caller = authenticate(services, req);
  if (!caller.ok) return caller.reply;
  const admission = services.limiters.cloud.take(caller.keyId);
  if (!admission.ok) {
    return cloudError(429, "rate limit exceeded; retry after the reset", {
      "X-RateLimit-Reset": String(admission.resetSeconds),
    });
  }

  for (const [i, value] of captures.entries()) {
    if (!UUID.test(value)) return cloudError(400, `${route.params[i] ?? "path parameter"} must be a uuid`);
  }
  // Uuids compare case-insensitively; lowercase is the one stored form.
  const ids = captures.map((s) => s.toLowerCase());
  const org = ids[0] ?? "";
  if (route.params[0] === "organizationId" && caller.organizationId !== undefined && caller.organizationId !== org) {
    return cloudError(403, "this API key belongs to another organization");
  }
  return route.run(services, req, ids);
}

// ---- Authentication -----------------------------------------------------------------------------

export type Caller =
  | {
      ok: true;
      keyId: string;
      /** undefined for the bootstrap credentials, which may act on any organization */ organizationId?: string;
    }
  | { ok: false; reply: Reply };

/** The caller's key (an organization's, or the bootstrap pair), checked as every /v1 route does. */
export function authenticate(services: Services, req: Incoming): Caller {
  const unauthorized: Caller = { ok: false, reply: cloudError(401, "missing or invalid credentials") };
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(req.authorization ?? "");
  if (!match) return unauthorized;
  const decoded = Buffer.from(match[1] ?? "", "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return unauthorized;
  const keyId = decoded.slice(0, colon);
  const keySecret = decoded.slice(colon + 1);

  if (sameSecret(keyId, services.keyId) && sameSecret(keySecret, services.keySecret)) return { ok: true, keyId };

  // A key made with hashData is known only by the hashes of its ID and secret, so the pair
  // presented is hashed the same way (base64 of the SHA-256 digest) and compared.
  const keyIdHash = sha256(keyId).toString("base64");
  const key = Object.values(services.state.keys).find((k) =>
    k.hashData !== null ? k.hashData.keyIdHash === keyIdHash : k.keyId === keyId,
  );
  if (key === undefined) return unauthorized;
  const secretMatches =
    key.hashData !== null
      ? sameSecret(sha256(keySecret).toString("base64"), key.hashData.keySecretHash)
      : sameSecret(sha256(keySecret).toString("hex"), key.keySecretSha256);
  if (!secretMatches) return unauthorized;
  if (key.state !== "enabled") return { ok: false, reply: cloudError(401, "this API key is disabled") };
  if (key.expireAt !== null && Date.parse(key.expireAt) <= Date.now()) {
    return { ok: false, reply: cloudError(401, "this API key has expired") };
  }
  if (key.ipAccessList.length > 0 && !allows(key.ipAccessList, req.clientIp)) {
    return { ok: false, reply: cloudError(403, "this API key may not be used from this address") };
  }
  key.usedAt = isoNow();
  services.persist();
  return { ok: true, keyId, organizationId: key.organizationId };
}

function allows(list: IpAccessEntry[], clientIp: string): boolean {
  if (!isIPv4(clientIp)) return false;
  const block = new BlockList();
  for (const { source } of list) {
    const [address = "", prefix] = source.split("/");
    if (prefix === undefined) block.addAddress(address, "ipv4");
    else block.addSubnet(address, Number(prefix), "ipv4");
  }
  return block.check(clientIp, "ipv4");
}

// ---- Pipe settings ------------------------------------------------------------------------------

/** Every pipe exists and starts with all thirteen settings unset, so GET never needs a prior PUT. */
function unsetSettings(): PipeSettingsWire {
  return Object.fromEntries(SETTING_NAMES.map((name) => [wireName(name), null]));
}

/**
 * The store keeps the contract's names, whatever the dialect, so a data file of any release loads
 * and a pipe keeps its settings when the dialect changes; another dialect's names are its edge's.
 */
function spoken(services: Services, stored: PipeSettingsWire): PipeSettingsWire {
  const dialect = services.cloudDialect;
  if (dialect === "contract") return stored;
  const out: PipeSettingsWire = {};
  for (const name of SETTING_NAMES) {
    const value = stored[wireName(name)];
    if (value !== undefined) out[wireName(name, dialect)] = value;
  }
  return out;
}

/** GET leaves out the settings never set, as the real service may; a setting once set (even to null) is there. */
function getSettings(services: Services, ids: string[]): Reply {
  return cloudOk(spoken(services, { ...(services.state.pipes[ids.join("/")] ?? {}) }));
}

/** Merges: an omitted setting keeps its value, null unsets it. The answer holds every setting (thirteen). */
function putSettings(services: Services, req: Incoming, ids: string[]): Reply {
  const json = parseJson(req.rawBody);
  if (!json.ok) return cloudError(400, json.message);
  const dialect = services.cloudDialect;
  const parsed = parseWith(PIPE_SETTINGS_BODIES[dialect], json.value);
  if (!parsed.ok) return cloudError(400, parsed.message);
  const pipe = ids.join("/");
  const merged = { ...(services.state.pipes[pipe] ?? {}) };
  for (const name of SETTING_NAMES) {
    const value = parsed.value[wireName(name, dialect)];
    if (value !== undefined) merged[wireName(name)] = value;
  }
  services.state.pipes[pipe] = merged;
  services.persist();
  return cloudOk(spoken(services, { ...unsetSettings(), ...merged }));
}

// ---- API keys -----------------------------------------------------------------------------------

/** The role uuids the organization does not have, in the words the emulator answers (ours). */
function unknownRoles(services: Services, org: string, ids: readonly string[] | undefined): string | undefined {
  const unknown = (ids ?? []).filter((id) => roleOf(services.state, org, id) === undefined);
  return unknown.length === 0 ? undefined : `assignedRoleIds: no role ${unknown.join(", ")} in this organization`;
}

/**
 * The service freezes `roles` for an organization that moved to custom roles (cloud-api-2026.md);
 * whether it refuses or ignores a write was not found: the emulator refuses one that would change
 * it, in its own words, so a program never meets a change the service silently drops.
 */
function frozenRoles(
  services: Services,
  org: string,
  held: readonly string[],
  sent: readonly string[] | undefined,
): string | undefined {
  if (sent === undefined || !hasCustomRoles(services.state, org)) return undefined;
  const same = sent.length === held.length && sent.every((role) => held.includes(role));
  return same
    ? undefined
    : "roles: frozen, as this organization moved to custom roles; assign roles with assignedRoleIds";
}

/** The key as area B returns it: never the secret, the keyId or the hashData. */
function publicKey(services: Services, key: StoredKey) {
  return {
    id: key.id,
    name: key.name,
    state: key.state,
    roles: [...key.roles],
    ...(key.assignedRoleIds === undefined
      ? {}
      : {
          assignedRoles: key.assignedRoleIds.map((roleId) => ({
            roleId,
            ...(roleOf(services.state, key.organizationId, roleId) ?? { roleName: "", roleType: "custom" }),
          })),
        }),
    expireAt: key.expireAt,
    usedAt: key.usedAt,
    createdAt: key.createdAt,
    keySuffix: key.keySuffix,
    ipAccessList: key.ipAccessList.map((e) => ({ source: e.source, description: e.description })),
  };
}

/** The organization's keys in creation order, each as the single-key GET answers it (never a secret); no paging. */
function listKeys(services: Services, org: string): Reply {
  return cloudOk(
    Object.values(services.state.keys)
      .filter((key) => key.organizationId === org)
      .map((key) => publicKey(services, key)),
  );
}

function createKey(services: Services, req: Incoming, org: string): Reply {
  const json = parseJson(req.rawBody);
  if (!json.ok) return cloudError(400, json.message);
  const parsed = parseWith(keyCreateBodySchema, json.value);
  if (!parsed.ok) return cloudError(400, parsed.message);
  const body = parsed.value;
  const refused = unknownRoles(services, org, body.assignedRoleIds) ?? frozenRoles(services, org, [], body.roles);
  if (refused !== undefined) return cloudError(400, refused);

  // With hashData the caller made the pair and sends only hashes: the service never knows the
  // secret, so it returns no credentials, and the key authenticates by its hashes.
  const hashed = body.hashData !== undefined;
  const keyId = hashed ? "" : newKeyId(services);
  // base64url has no ":", so the secret never confuses the Basic "id:secret" split.
  const keySecret = hashed ? "" : randomBytes(30).toString("base64url");
  const key: StoredKey = {
    id: randomUUID(),
    organizationId: org,
    name: body.name ?? "",
    state: body.state ?? "enabled",
    roles: body.roles ?? [],
    ...(body.assignedRoleIds === undefined
      ? {}
      : { assignedRoleIds: body.assignedRoleIds.map((id) => id.toLowerCase()) }),
    expireAt: body.expireAt ?? null,
    usedAt: null,
    createdAt: isoNow(),
    keySuffix: body.hashData?.keyIdSuffix ?? keyId.slice(-4),
    ipAccessList: body.ipAccessList ?? [],
    keyId,
    keySecretSha256: hashed ? "" : sha256(keySecret).toString("hex"),
    hashData: body.hashData ?? null,
  };
  services.state.keys[key.id] = key;
  services.persist();
  return cloudOk(hashed ? { key: publicKey(services, key) } : { key: publicKey(services, key), keyId, keySecret });
}

function keyItem(services: Services, req: Incoming, org: string, id: string): Reply {
  const key = services.state.keys[id];
  // A key of another organization is reported exactly like a missing one, so ids do not leak across organizations.
  if (key === undefined || key.organizationId !== org)
    return cloudError(404, `no API key with id ${id} in this organization`);
  if (req.method === "GET") return cloudOk(publicKey(services, key));
  if (req.method === "DELETE") {
    delete services.state.keys[id];
    services.persist();
    // The Cloud's document answers a delete with the envelope alone; the contract's mode keeps `result: {}`.
    if (services.cloudDialect === "clickhouse") return { status: 200, body: { requestId: randomUUID(), status: 200 } };
    return cloudOk({});
  }
  const json = parseJson(req.rawBody);
  if (!json.ok) return cloudError(400, json.message);
  const parsed = parseWith(keyPatchBodySchema, json.value);
  if (!parsed.ok) return cloudError(400, parsed.message);
  const patch = parsed.value;
  const refused =
    unknownRoles(services, org, patch.assignedRoleIds) ?? frozenRoles(services, org, key.roles, patch.roles);
  if (refused !== undefined) return cloudError(400, refused);
  if (patch.assignedRoleIds !== undefined) key.assignedRoleIds = patch.assignedRoleIds.map((id) => id.toLowerCase());
  if (patch.name !== undefined) key.name = patch.name;
  if (patch.roles !== undefined) key.roles = patch.roles;
  if (patch.expireAt !== undefined) key.expireAt = patch.expireAt;
  if (patch.state !== undefined) key.state = patch.state;
  if (patch.ipAccessList !== undefined) key.ipAccessList = patch.ipAccessList;
  services.persist();
  return cloudOk(publicKey(services, key));
}

/** 20 characters of A-Z0-9, unique among the keys and distinct from the bootstrap key ID. */
function newKeyId(services: Services): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (;;) {
    const id = Array.from({ length: 20 }, () => alphabet[randomInt(alphabet.length)]).join("");
    if (id !== services.keyId && !Object.values(services.state.keys).some((k) => k.keyId === id)) return id;
  }
}
