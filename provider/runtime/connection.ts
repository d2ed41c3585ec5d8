// Services and credentials: the stack config, else environment variables read at call time, so a
// host started before the env was set still sees them.

import { DEFAULT_RATE_LIMITS, parseRateLimit, rateLimitText, type RateLimit } from "../serviceFacts/rateLimits";
import { ALERTING_DIALECTS, type AlertingDialect } from "../serviceFacts/alertRules";
import { CLOUD_DIALECTS, cloudDialectOfHost, type CloudDialect } from "../serviceFacts/cloudDialects";
import { ConfigError } from "../errors";
import { idProblem } from "../protocol/ids";
import { runtime, type ConfigSource } from "./runtime";

export type Area = "alerting" | "cloud";

export type { ConfigSource } from "./runtime";

interface Setting {
  /** Full stack config key, e.g. `alertpipe:cloudKeyId`. */
  readonly configKey: string;
  readonly envVar: string;
  readonly secret: boolean;
  readonly required: boolean;
  readonly description: string;
}

/** The one table of connection settings; the README's mirrors it. */
export const CONNECTION_SETTINGS = {
  alertingUrl: {
    configKey: "alertpipe:alertingUrl",
    envVar: "ALERTPIPE_ALERTING_URL",
    secret: false,
    required: true,
    description: "base URL of the alerting API (area A)",
  },
  alertingToken: {
    configKey: "alertpipe:alertingToken",
    envVar: "ALERTPIPE_ALERTING_TOKEN",
    secret: true,
    required: true,
    description: "Bearer token for the alerting API",
  },
  cloudUrl: {
    configKey: "alertpipe:cloudUrl",
    envVar: "ALERTPIPE_CLOUD_URL",
    secret: false,
    required: true,
    description:
      'base URL of the cloud management API (area B), with or without its trailing "/v1", e.g. "https://api.clickhouse.cloud"',
  },
  cloudKeyId: {
    configKey: "alertpipe:cloudKeyId",
    envVar: "ALERTPIPE_CLOUD_KEY_ID",
    secret: false,
    required: true,
    description: "key ID of the API key used for area B",
  },
  cloudKeySecret: {
    configKey: "alertpipe:cloudKeySecret",
    envVar: "ALERTPIPE_CLOUD_KEY_SECRET",
    secret: true,
    required: true,
    description: "key secret of the API key used for area B",
  },
  alertingRateLimit: {
    configKey: "alertpipe:alertingRateLimit",
    envVar: "ALERTPIPE_ALERTING_RATE_LIMIT",
    secret: false,
    required: false,
    description: `client-side pacing for area A as "requests/seconds" (default "${rateLimitText(DEFAULT_RATE_LIMITS.alerting)}"; "off" disables)`,
  },
  cloudRateLimit: {
    configKey: "alertpipe:cloudRateLimit",
    envVar: "ALERTPIPE_CLOUD_RATE_LIMIT",
    secret: false,
    required: false,
    description: `client-side pacing for area B as "requests/seconds" (default "${rateLimitText(DEFAULT_RATE_LIMITS.cloud)}"; "off" disables)`,
  },
  alertingDialect: {
    configKey: "alertpipe:alertingDialect",
    envVar: "ALERTPIPE_ALERTING_DIALECT",
    secret: false,
    required: false,
    description:
      'how the alerting API spells a search alert\'s source: "contract" (`search`) or "2026" (`saved_search`, HyperDX); ' +
      "unset: asked of the service once per process, when a search alert is first written",
  },
  cloudDialect: {
    configKey: "alertpipe:cloudDialect",
    envVar: "ALERTPIPE_CLOUD_DIALECT",
    secret: false,
    required: false,
    description:
      'how the cloud management API spells pipe settings\' paths and names: "contract" (`/pipes/`, `db_*`) or "clickhouse" (ClickHouse Cloud: ' +
      '`/clickpipes/`, `clickhouse_*`); unset: "clickhouse" when cloudUrl\'s host is api.clickhouse.cloud or ends in .clickhouse.cloud, else "contract"',
  },
  wakeIdleServices: {
    configKey: "alertpipe:wakeIdleServices",
    envVar: "ALERTPIPE_WAKE_IDLE_SERVICES",
    secret: false,
    required: false,
    description:
      'waking of an idle ClickHouse Cloud service: "true" lets a ClickPipes call it refuses as idle (424) send the service\'s ' +
      '`awake` command, wait until it runs and send the call once more; default "false": the call fails, naming the service and its state',
  },
  clickstackOrganizationId: {
    configKey: "alertpipe:clickstackOrganizationId",
    envVar: "ALERTPIPE_CLICKSTACK_ORGANIZATION_ID",
    secret: false,
    required: false,
    description:
      "managed ClickStack: the ClickHouse Cloud organization (a uuid); with clickstackServiceId, area A goes through the cloud " +
      "API (cloudUrl and its key) instead of alertingUrl",
  },
  clickstackServiceId: {
    configKey: "alertpipe:clickstackServiceId",
    envVar: "ALERTPIPE_CLICKSTACK_SERVICE_ID",
    secret: false,
    required: false,
    description:
      "managed ClickStack: the ClickHouse Cloud service (a uuid) whose ClickStack holds the alerts; needs clickstackOrganizationId",
  },
} as const satisfies Record<string, Setting>;

export type ConnectionSettingName = keyof typeof CONNECTION_SETTINGS;

export interface AreaConnection {
  readonly area: Area;
  /** Base URL without a trailing slash. */
  readonly baseUrl: string;
  /** Complete value of the Authorization header. Never log or echo it. */
  readonly authorization: string;
  /** A non-reversible name of the credential; keys the limiters. */
  readonly credentialId: string;
  /** Client-side pacing; undefined when disabled. */
  readonly rateLimit: RateLimit | undefined;
  /** Every credential string, for the HTTP layer to scrub. */
  readonly secrets: readonly string[];
  /** The alerting API's spelling of `source`; undefined: ask the service. */
  readonly dialect?: AlertingDialect;
  /** Area B's spelling of paths and names; set for the cloud area. */
  readonly cloudDialect?: CloudDialect;
  /**
   * Managed ClickStack: area A through the cloud API's gateway (`area` is then "cloud", the service that
   * answers): `/api/v2/…` sent as `{pathPrefix}/…`, answers in the cloud envelope (provider/http/gateway.ts).
   */
  readonly gateway?: { readonly kind: "clickstack"; readonly pathPrefix: string };
}

/** Keeps the stack config `configure` was given for this host process. */
export function configure(config: ConfigSource): void {
  runtime().config = config;
}

/** Every resource's `configure`, which carries the stack config. */
export async function configureProvider(req: { readonly config: ConfigSource }): Promise<void> {
  configure(req.config);
}

function lookup(name: ConnectionSettingName): string | undefined {
  const s = CONNECTION_SETTINGS[name];
  const fromConfig = runtime().config?.get(s.configKey);
  if (fromConfig !== undefined && fromConfig !== "") return fromConfig;
  const fromEnv = process.env[s.envVar];
  return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
}

/** A credential fit for the Authorization header (ASCII only); never repeated. */
function headerSafe(name: ConnectionSettingName): string {
  const value = required(name);
  if (/[^\t\x20-\x7e]/.test(value)) {
    const key = CONNECTION_SETTINGS[name].configKey;
    throw new ConfigError(
      name,
      CONNECTION_SETTINGS[name],
      `${key} holds a character an HTTP header cannot carry (a line break, a control character or a non-ASCII letter), so it cannot be sent: copy the value again`,
    );
  }
  return value;
}

function required(name: ConnectionSettingName): string {
  const value = lookup(name);
  if (value === undefined)
    throw new ConfigError(name, CONNECTION_SETTINGS[name], `${CONNECTION_SETTINGS[name].configKey} is not set`);
  return value;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function baseUrl(name: ConnectionSettingName): string {
  const key = CONNECTION_SETTINGS[name].configKey;
  const raw = required(name).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not repeated: a secret pasted into the wrong setting must not reach a log.
    throw new ConfigError(name, CONNECTION_SETTINGS[name], `${key} is not a URL`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw new ConfigError(
      name,
      CONNECTION_SETTINGS[name],
      `${key} must use https (plain http is allowed only for a loopback host such as 127.0.0.1 or localhost)`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new ConfigError(
      name,
      CONNECTION_SETTINGS[name],
      `${key} must not carry a user name or password; credentials go in their own settings`,
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new ConfigError(name, CONNECTION_SETTINGS[name], `${key} must be a base URL without a query or fragment`);
  }
  const base = url.toString().replace(/\/+$/, "");
  // Paths start with /v1 (http/paths.ts); the peer's convention names it in the URL.
  return name === "cloudUrl" ? base.replace(/\/v1$/, "") : base;
}

function rateLimit(name: ConnectionSettingName, area: Area): RateLimit | undefined {
  const raw = lookup(name)?.trim();
  if (raw === undefined || raw === "") return DEFAULT_RATE_LIMITS[area];
  const limit = parseRateLimit(raw);
  if (limit === undefined) {
    throw new ConfigError(
      name,
      CONNECTION_SETTINGS[name],
      `${CONNECTION_SETTINGS[name].configKey} must look like "10/10" (a whole number of requests >= 1, "/", seconds > 0) or "off"`,
    );
  }
  return limit === "off" ? undefined : limit;
}

function dialect(): AlertingDialect | undefined {
  const raw = lookup("alertingDialect")?.trim();
  if (raw === undefined || raw === "") return undefined;
  if ((ALERTING_DIALECTS as readonly string[]).includes(raw)) return raw as AlertingDialect;
  throw new ConfigError(
    "alertingDialect",
    CONNECTION_SETTINGS.alertingDialect,
    `${CONNECTION_SETTINGS.alertingDialect.configKey} must be one of ${ALERTING_DIALECTS.map((d) => `"${d}"`).join(", ")}, or unset to ask the service`,
  );
}

/** The set dialect, else the one of cloudUrl's host (`contract` when that is not a URL either). */
function cloudDialect(): CloudDialect {
  const raw = lookup("cloudDialect")?.trim();
  if (raw === undefined || raw === "") {
    const url = lookup("cloudUrl")?.trim();
    return URL.canParse(url ?? "") ? cloudDialectOfHost(new URL(url ?? "").hostname) : "contract";
  }
  if ((CLOUD_DIALECTS as readonly string[]).includes(raw)) return raw as CloudDialect;
  throw new ConfigError(
    "cloudDialect",
    CONNECTION_SETTINGS.cloudDialect,
    `${CONNECTION_SETTINGS.cloudDialect.configKey} must be one of ${CLOUD_DIALECTS.map((d) => `"${d}"`).join(", ")}, ` +
      'or unset ("clickhouse" for a host api.clickhouse.cloud or *.clickhouse.cloud, else "contract")',
  );
}

/** Whether the program's owner lets the provider wake an idle service; "true" or "false", else a ConfigError. */
export function wakeIdleServices(): boolean {
  const raw = lookup("wakeIdleServices")?.trim().toLowerCase();
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  const s = CONNECTION_SETTINGS.wakeIdleServices;
  throw new ConfigError("wakeIdleServices", s, `${s.configKey} must be "true" or "false"`);
}

/**
 * A resource ClickHouse Cloud alone serves (the contract has no such route): refused in check, naming
 * alertpipe:cloudDialect, when the connection speaks the contract. An invalid dialect is connectionFailures'.
 */
export function clickhouseCloudOnly(resource: string): Array<{ property: string; reason: string }> {
  let spoken: CloudDialect;
  try {
    spoken = cloudDialect();
  } catch (err) {
    if (err instanceof ConfigError) return [];
    throw err;
  }
  if (spoken === "clickhouse") return [];
  const s = CONNECTION_SETTINGS.cloudDialect;
  const why = lookup("cloudDialect") === undefined ? `unset, and cloudUrl's host is not ClickHouse Cloud's` : "set so";
  const err = new ConfigError(
    "cloudDialect",
    s,
    `${resource} exists only on ClickHouse Cloud's API, and ${s.configKey} says the cloud API speaks the contract ` +
      `(${why}), which has no such route: set ${s.configKey} to "clickhouse" (or cloudUrl to https://api.clickhouse.cloud)`,
  );
  return [{ property: "", reason: err.message }];
}

/** The configured dialect, for checks; undefined when unset or invalid. Managed ClickStack speaks "2026". */
export function configuredDialect(): AlertingDialect | undefined {
  try {
    return isManagedClickStack() ? "2026" : dialect();
  } catch (err) {
    if (err instanceof ConfigError) return undefined;
    throw err;
  }
}

/** Each area's settings, so one area is never held back by the other's. */
const AREA_SETTINGS: Record<Area, readonly ConnectionSettingName[]> = {
  alerting: ["alertingUrl", "alertingToken", "alertingRateLimit", "alertingDialect"],
  cloud: ["cloudUrl", "cloudKeyId", "cloudKeySecret", "cloudRateLimit", "cloudDialect", "wakeIdleServices"],
};

/** Area A's settings when it is managed ClickStack: the cloud API's, and the two ids. */
const MANAGED_SETTINGS: readonly ConnectionSettingName[] = [
  "cloudUrl",
  "cloudKeyId",
  "cloudKeySecret",
  "cloudRateLimit",
  "clickstackOrganizationId",
  "clickstackServiceId",
];

const MANAGED_IDS = ["clickstackOrganizationId", "clickstackServiceId"] as const;

/** Whether area A is managed ClickStack: either id set says so (the other missing is a problem). */
export function isManagedClickStack(): boolean {
  return MANAGED_IDS.some((n) => lookup(n) !== undefined);
}

/** A ClickHouse Cloud id of the managed connection, fit for a path; never both kinds of connection. */
function managedId(name: (typeof MANAGED_IDS)[number]): string {
  const s = CONNECTION_SETTINGS[name];
  const other = MANAGED_IDS.find((n) => n !== name) ?? name;
  const value = lookup(name)?.trim();
  if (value === undefined)
    throw new ConfigError(
      name,
      s,
      `${s.configKey} is not set, but ${CONNECTION_SETTINGS[other].configKey} is: managed ClickStack needs both ids ` +
        "(or neither, for a self-hosted alerting API at alertpipe:alertingUrl)",
    );
  const problem = idProblem(value, "uuid");
  if (problem !== undefined) throw new ConfigError(name, s, `${s.configKey} is not a ClickHouse Cloud id: ${problem}`);
  return value;
}

/** Both kinds of alerting connection on one provider: named together, neither chosen. */
function selfHostedToo(): void {
  const set = (["alertingUrl", "alertingToken"] as const).filter((n) => lookup(n) !== undefined);
  if (set.length === 0) return;
  const managed = MANAGED_IDS.filter((n) => lookup(n) !== undefined).map((n) => CONNECTION_SETTINGS[n].configKey);
  throw new ConfigError(
    set[0] ?? "alertingUrl",
    CONNECTION_SETTINGS[set[0] ?? "alertingUrl"],
    `both kinds of alerting connection are set: ${set.map((n) => CONNECTION_SETTINGS[n].configKey).join(" and ")} ` +
      `(a self-hosted alerting API) and ${managed.join(" and ")} (managed ClickStack through the cloud API). ` +
      "One provider speaks to one: unset one kind (several accounts: one explicit provider each)",
  );
}

function validate(name: ConnectionSettingName, area: Area): void {
  if (name === "clickstackOrganizationId" || name === "clickstackServiceId") managedId(name);
  else if (name === "alertingUrl" || name === "cloudUrl") baseUrl(name);
  else if (name === "alertingRateLimit" || name === "cloudRateLimit") rateLimit(name, area);
  else if (name === "alertingToken") headerSafe(name);
  else if (name === "alertingDialect") dialect();
  else if (name === "cloudDialect") cloudDialect();
  else if (name === "wakeIdleServices") wakeIdleServices();
  else required(name);
}

/** Every setting an area would fail on, at once, so preview shows them all. */
function connectionProblems(area: Area): ConfigError[] {
  const problems: ConfigError[] = [];
  const managed = area === "alerting" && isManagedClickStack();
  if (managed) {
    try {
      selfHostedToo();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err);
    }
  }
  for (const name of managed ? MANAGED_SETTINGS : AREA_SETTINGS[area]) {
    try {
      validate(name, name.startsWith("cloud") ? "cloud" : area);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err);
    }
  }
  return problems;
}

/** The problems as check failures, naming no property: no input is at fault. */
export function connectionFailures(area: Area): Array<{ property: string; reason: string }> {
  return connectionProblems(area).map((p) => ({ property: "", reason: p.message }));
}

/**
 * Keys limiters per credential without keeping the credential: one key at one origin is one budget,
 * whichever area or path spends it (managed ClickStack spends the Cloud key's).
 */
export function credentialFingerprint(baseUrl: string, authorization: string): string {
  // Lazily required: crypto is only needed when a method runs.
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  const origin = new URL(baseUrl).origin;
  return `key:${createHash("sha256").update(`${origin} ${authorization}`).digest("hex").slice(0, 16)}`;
}

/** The cloud key's Authorization header and every form of its secret. */
function cloudKey(): { authorization: string; secrets: string[] } {
  const cloudKeyId = required("cloudKeyId");
  const cloudKeySecret = required("cloudKeySecret");
  const authorization = `Basic ${Buffer.from(`${cloudKeyId}:${cloudKeySecret}`, "utf8").toString("base64")}`;
  // Every form of the secret sent; the key ID alone is a name, not a secret.
  return {
    authorization,
    secrets: [authorization, authorization.slice("Basic ".length), `${cloudKeyId}:${cloudKeySecret}`, cloudKeySecret],
  };
}

/**
 * Area A as managed ClickStack: the cloud key, its limiter and pacing (one budget per key), and the
 * service's own gateway path; it speaks `saved_search`, so the dialect is never asked.
 */
function managedConnection(): AreaConnection {
  selfHostedToo();
  const org = encodeURIComponent(managedId("clickstackOrganizationId"));
  const svc = encodeURIComponent(managedId("clickstackServiceId"));
  // Without its trailing /v1 (baseUrl), so never /v1/v1.
  const root = baseUrl("cloudUrl");
  const { authorization, secrets } = cloudKey();
  return {
    area: "cloud",
    baseUrl: root,
    authorization,
    credentialId: credentialFingerprint(root, authorization),
    rateLimit: rateLimit("cloudRateLimit", "cloud"),
    secrets,
    dialect: "2026",
    gateway: {
      kind: "clickstack",
      pathPrefix: `/v1/organizations/${org}/services/${svc}/clickstack`,
    },
  };
}

/**
 * Settings are read at each call (a setting may arrive after the host started), but a connection is
 * built once per area and set of values: each call would otherwise parse URLs and hash the credential.
 */
const built = new Map<string, AreaConnection>();
const ALL_SETTINGS = Object.keys(CONNECTION_SETTINGS) as ConnectionSettingName[];

/** Each area's latest, with the settings it was built from: most calls find them unchanged, and allocate nothing. */
const latest = new Map<Area, { readonly settings: readonly (string | undefined)[]; readonly conn: AreaConnection }>();

function unchanged(settings: readonly (string | undefined)[]): boolean {
  return ALL_SETTINGS.every((name, i) => lookup(name) === settings[i]);
}

export function connectionFor(area: Area): AreaConnection {
  const last = latest.get(area);
  if (last !== undefined && unchanged(last.settings)) return last.conn;
  const settings = ALL_SETTINGS.map(lookup);
  const key = `${area}\0${settings.map((value) => value ?? "").join("\0")}`;
  const conn = built.get(key) ?? buildConnection(area);
  // A handful of values in a process's life; a test changing them often keeps only the latest.
  if (!built.has(key) && built.size >= 8) built.clear();
  built.set(key, conn);
  latest.set(area, { settings, conn });
  return conn;
}

function buildConnection(area: Area): AreaConnection {
  if (area === "alerting" && isManagedClickStack()) return managedConnection();
  if (area === "alerting") {
    const url = baseUrl("alertingUrl");
    const authorization = `Bearer ${headerSafe("alertingToken")}`;
    const spoken = dialect();
    return {
      area,
      baseUrl: url,
      authorization,
      credentialId: credentialFingerprint(url, authorization),
      rateLimit: rateLimit("alertingRateLimit", area),
      secrets: [authorization, authorization.slice("Bearer ".length)],
      ...(spoken === undefined ? {} : { dialect: spoken }),
    };
  }
  const url = baseUrl("cloudUrl");
  const { authorization, secrets } = cloudKey();
  return {
    area,
    baseUrl: url,
    authorization,
    credentialId: credentialFingerprint(url, authorization),
    rateLimit: rateLimit("cloudRateLimit", area),
    cloudDialect: cloudDialect(),
    secrets,
  };
}

/** Says once which credentials are in plain text; `isPlainText` because each door sees secretness its own way. */
export function warnPlainTextCredentials(
  isPlainText: (configKey: string) => boolean,
  say: (line: string) => void,
): void {
  const rt = runtime();
  const said = (rt.saidOnce ??= new Set());
  const keys = (Object.keys(CONNECTION_SETTINGS) as ConnectionSettingName[])
    .filter((n) => CONNECTION_SETTINGS[n].secret)
    .map((n) => CONNECTION_SETTINGS[n].configKey)
    .filter((key) => !said.has(`plain text ${key}`) && isPlainText(key));
  if (keys.length === 0) return;
  for (const key of keys) said.add(`plain text ${key}`);
  say(
    `pulumi-alertpipe: ${keys.join(" and ")} ${keys.length === 1 ? "is" : "are"} set in plain text, so the stack's config file and its state hold ` +
      `${keys.length === 1 ? "it" : "them"} unencrypted: set ${keys.length === 1 ? "it" : "each"} as a secret with ` +
      `${keys.map((key) => `\`pulumi config set --secret ${key} <value>\``).join(" and ")}.`,
  );
}
