// A local, stateful stand-in for both services (area A alerts, area B pipe settings and API keys)
// on one origin, so stacks and tests run offline. See DECISIONS.md for what the spec leaves open.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_RATE_LIMITS, FixedWindowLimiter, type RateLimit } from "./limits";
import { EXCHANGE_LOG_ENV, exchangeWriter } from "./exchangeLog";
import { createListener, randomDraws, type FaultPlan, type RecordedRequest, type RouterState } from "./router";
import type { EmulatorMode, Services } from "./replies";
import type { CloudDialect } from "../provider/serviceFacts/cloudDialects";
import { seedCustomRoles, type CustomRoleSeed } from "./roles";
import { pendingRaces } from "./webhooks";
import { clickPipesNow, type ClickPipeView } from "./clickpipes";
import { setServiceState, serviceState } from "./services";
import type { ServiceState } from "../provider/serviceFacts/services";
import {
  copyState,
  emptyState,
  loadState,
  saveState,
  type EmulatorState,
  type ExecutionError,
  type Silenced,
} from "./store";

export type { AfterCommitFault, FaultKind, FaultPlan, RandomFaults, RecordedRequest, WriteRoute } from "./router";
export { DEFAULT_RANDOM_DELAY_MS, FAULT_KINDS } from "./router";
export type { RateLimit } from "./limits";
export type { EmulatorMode } from "./replies";
export type { CloudDialect } from "../provider/serviceFacts/cloudDialects";
export { DEFAULT_RATE_LIMITS } from "./limits";
export { SEEDED_SOURCES } from "./savedSearches";
export { SEEDED_CONNECTION } from "./observability";
export type { ClickPipeView } from "./clickpipes";
export { DEFAULT_CDC_SCALING, DEFAULT_WAKE_DELAY_MS, serviceRunningOr424 } from "./services";
export { SYSTEM_ROLES, customRoleId, type CustomRoleSeed } from "./roles";
export type {
  EmulatorState,
  StoredAlert,
  StoredKey,
  StoredSearch,
  StoredRole,
  StoredWebhook,
  PipeSettingsWire,
  IpAccessEntry,
  HashData,
  Silenced,
  ExecutionError,
  KeyRole,
  KeyState,
} from "./store";

/** Credentials accepted when none are given. Fixed (not random) so a stack's config keeps working across restarts. */
export const DEFAULT_CREDENTIALS = {
  token: "emulator-token",
  keyId: "emulator-key-id",
  keySecret: "emulator-key-secret",
} as const;

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Any other address needs all three credentials given: the defaults are published. */
  host?: string;
  /** Area A bearer token. */
  token?: string;
  /** Area B bootstrap key ID and secret; they work for every organization. */
  keyId?: string;
  keySecret?: string;
  /** Load state from this file at start and write it back after every change. */
  dataFile?: string;
  /** Per-credential fixed windows; defaults cloud 10/10 s, alerting 100/60 s; `false` disables. */
  rateLimits?: { cloud?: RateLimit | false; alerting?: RateLimit | false };
  /** Initial fault plan's latency; setFaults replaces it. */
  latencyMs?: number;
  /** Called after each request is answered (or cut); used by the CLI to print one line per request. */
  onRequest?: (request: RecordedRequest) => void;
  /**
   * Which alerting service area A speaks: "contract" (the default), the seed contract's; or "2026",
   * HyperDX's external API as its server answers at commit b52a6fa (2026-08): `saved_search` and
   * `savedSearchId`, `teamId`/`dashboardId`/`channels` and nulls in answers, RateLimit-* on every
   * answer, unknown members dropped, any threshold (docs/design/real-alerting-service.md).
   */
  mode?: EmulatorMode;
  /**
   * Which cloud management API area B speaks: "contract" (the default), the seed contract's; or
   * "clickhouse", ClickHouse Cloud's OpenAPI document: pipe settings at `…/clickpipes/{clickPipeId}/settings`
   * with six settings named `clickhouse_*` (docs/design/cloud-api-clickhouse.md), and managed ClickStack's
   * alerts, webhooks, saved searches, dashboards and sources under `/v1/organizations/{org}/services/{svc}/clickstack/…`
   * (emulator/clickstack.ts). `mode` still governs area A.
   */
  cloudDialect?: CloudDialect;
  /**
   * Custom roles of area B's organizations (beside the three system roles every one has, SYSTEM_ROLES);
   * an organization with one has moved to custom roles, which freezes its keys' deprecated `roles`.
   * A role without `id` gets `customRoleId(organizationId, name)`. Kept in the data file.
   */
  customRoles?: readonly CustomRoleSeed[];
  /**
   * Append every exchange (request and answer, credentials left out) as a JSON line to this file;
   * default ALERTPIPE_EXCHANGE_LOG. The test suite's record for `npm run test:openapi`.
   */
  exchangeLog?: string;
}

export interface RunningEmulator {
  /** Origin of both areas, e.g. http://127.0.0.1:4100 (no trailing slash). */
  url: string;
  port: number;
  token: string;
  keyId: string;
  keySecret: string;
  /** Every request in the order answered (including 401/429/503 ones); the same array across resets. */
  requests: RecordedRequest[];
  resetRequestLog(): void;
  /** Replaces the current plan (a copy is kept; counters in your object are not touched); a random plan starts again from its seed. */
  setFaults(plan: FaultPlan): void;
  /**
   * Test hook: silences an alert as someone in the UI would (`silenced` then answers this object),
   * or with undefined lifts it (`silenced` absent again). False when there is no such alert.
   */
  silence(alertId: string, silenced: Silenced | undefined): boolean;
  /**
   * Test hook: the next PUT of this webhook meets another writer that changes its url to `url`
   * between the service's read and its write, and answers 409 (the real service's race).
   */
  raceWebhookPut(webhookId: string, url: string): void;
  /**
   * Test hook: the alert's last evaluation recorded these errors (2026 mode answers them as
   * `executionErrors`), or with undefined none. False when there is no such alert.
   */
  recordExecutionErrors(alertId: string, errors: readonly ExecutionError[] | undefined): boolean;
  /** Test hook: the alert watches this saved search (so the search's DELETE takes it along). False when no alert. */
  watchSearch(alertId: string, savedSearchId: string): boolean;
  /**
   * Test hook (ClickHouse Cloud mode): the service is `state` (idle, stopped, or running again); ClickPipes
   * writes on it answer 424 until it runs. Its `awake` (or `start`) command runs it after `wakeDelayMs`.
   */
  setServiceState(
    organizationId: string,
    serviceId: string,
    state: ServiceState,
    options?: { wakeDelayMs?: number },
  ): void;
  /** The service's state now, as its GET answers it. */
  serviceState(organizationId: string, serviceId: string): string;
  /** Test hook (ClickHouse Cloud mode): every ClickPipe now, those whose delete finished left out. */
  clickPipes(): ClickPipeView[];
  /** Deep copy of all state as plain JSON; key secrets appear only as SHA-256 hashes. */
  snapshot(): EmulatorState;
  close(): Promise<void>;
}

/** Whether `host` is this machine alone (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * The URL a provider on this machine reaches the emulator by: a wildcard address is no place to
 * connect to, and the provider takes plain http only for a loopback host, so it is named as loopback.
 */
export function urlFor(host: string, port: number): string {
  const h = host.replace(/^\[|\]$/g, "");
  if (h === "" || h === "0.0.0.0") return `http://127.0.0.1:${port}`;
  if (/^[0:]+$/.test(h)) return `http://[::1]:${port}`;
  return `http://${h.includes(":") ? `[${h}]` : h}:${port}`;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  if (
    !isLoopbackHost(host) &&
    (options.token === undefined || options.keyId === undefined || options.keySecret === undefined)
  ) {
    throw new Error(
      `listening on ${host} serves the emulator beyond this machine, where its default credentials (published with the package) ` +
        "would let anyone in: give your own token, key ID and key secret (alertpipe-emulator --token, --key-id, --key-secret)",
    );
  }
  const token = options.token ?? DEFAULT_CREDENTIALS.token;
  const keyId = options.keyId ?? DEFAULT_CREDENTIALS.keyId;
  const keySecret = options.keySecret ?? DEFAULT_CREDENTIALS.keySecret;
  if (token === "" || keyId === "" || keySecret === "") throw new Error("emulator credentials must not be empty");
  if (keyId.includes(":")) throw new Error("the emulator key ID must not contain ':' (Basic auth splits on it)");

  const dataFile = options.dataFile;
  const state = dataFile === undefined ? emptyState() : loadState(dataFile);
  const persist = dataFile === undefined ? () => {} : () => saveState(dataFile, state);
  seedCustomRoles(state, options.customRoles ?? [], new Date().toISOString());
  // Written once at start so the team id (and the file's existence) is settled before the first request.
  persist();

  const limit = (area: "cloud" | "alerting"): RateLimit | false => {
    const configured = options.rateLimits?.[area];
    return configured === undefined ? DEFAULT_RATE_LIMITS[area] : configured;
  };
  const services: Services = {
    state,
    persist,
    token,
    keyId,
    keySecret,
    limiters: { cloud: new FixedWindowLimiter(limit("cloud")), alerting: new FixedWindowLimiter(limit("alerting")) },
    mode: options.mode ?? "contract",
    cloudDialect: options.cloudDialect ?? "contract",
  };
  const exchanges = exchangeWriter(options.exchangeLog ?? process.env[EXCHANGE_LOG_ENV]);
  const router: RouterState = {
    services,
    requests: [],
    faults: copyPlan({ ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}) }),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(exchanges !== undefined ? { exchanges } : {}),
  };

  const server = createServer(createListener(router));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: urlFor(host, port),
    port,
    token,
    keyId,
    keySecret,
    requests: router.requests,
    resetRequestLog: () => {
      // Emptied in place so a reference taken earlier stays the live log.
      router.requests.length = 0;
    },
    setFaults: (plan) => {
      const draw = randomDraws(plan);
      router.faults = copyPlan(plan);
      if (draw === undefined) delete router.draw;
      else router.draw = draw;
    },
    silence: (alertId, silenced) => {
      const alert = state.alerts[alertId];
      if (alert === undefined) return false;
      if (silenced === undefined) delete alert.silenced;
      else alert.silenced = { ...silenced };
      persist();
      return true;
    },
    raceWebhookPut: (webhookId, url) => {
      const races = pendingRaces.get(services) ?? new Map<string, string>();
      races.set(webhookId, url);
      pendingRaces.set(services, races);
    },
    recordExecutionErrors: (alertId, errors) => {
      const alert = state.alerts[alertId];
      if (alert === undefined) return false;
      if (errors === undefined) delete alert.executionErrors;
      else alert.executionErrors = errors.map((e) => ({ ...e }));
      persist();
      return true;
    },
    watchSearch: (alertId, savedSearchId) => {
      const alert = state.alerts[alertId];
      if (alert === undefined) return false;
      alert.savedSearch = savedSearchId;
      persist();
      return true;
    },
    setServiceState: (organizationId, serviceId, serviceNow, options) =>
      setServiceState(services, organizationId, serviceId, serviceNow, options?.wakeDelayMs),
    serviceState: (organizationId, serviceId) => serviceState(services, organizationId, serviceId),
    clickPipes: () => clickPipesNow(services),
    snapshot: () => copyState(state),
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets would otherwise hold close() open until they time out.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function copyPlan(plan: FaultPlan): FaultPlan {
  return {
    ...(plan.latencyMs !== undefined ? { latencyMs: plan.latencyMs } : {}),
    ...(plan.latencyWritesOnly !== undefined ? { latencyWritesOnly: plan.latencyWritesOnly } : {}),
    ...(plan.failNext !== undefined ? { failNext: plan.failNext } : {}),
    ...(plan.failBeforeCommit !== undefined ? { failBeforeCommit: { ...plan.failBeforeCommit } } : {}),
    ...(plan.cutAfterCommit !== undefined ? { cutAfterCommit: { ...plan.cutAfterCommit } } : {}),
    ...(plan.failAfterCommit !== undefined ? { failAfterCommit: { ...plan.failAfterCommit } } : {}),
    ...(plan.delayAfterCommit !== undefined ? { delayAfterCommit: { ...plan.delayAfterCommit } } : {}),
    ...(plan.servicesIdle !== undefined ? { servicesIdle: plan.servicesIdle } : {}),
    ...(plan.random !== undefined
      ? {
          random: {
            ...plan.random,
            ...(plan.random.kinds ? { kinds: [...plan.random.kinds] } : {}),
            ...(plan.random.routes ? { routes: plan.random.routes.map((r) => ({ ...r })) } : {}),
          },
        }
      : {}),
  };
}
