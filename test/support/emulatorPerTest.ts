// Test support: a fresh emulator for each test with a provider pointed at it over real HTTP, and the
// notices the provider says collected. Each resource's helper (alertEmulator.ts, keyEmulator.ts)
// adds what its tests do by hand; the setup and its undoing are stated here once.

import type { Dispatcher } from "undici";
import { afterEach, beforeEach } from "vitest";
import { startEmulator, type CloudDialect, type EmulatorMode, type RunningEmulator } from "../../emulator";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";

/** Short waits, so a test never sits out the real backoff. */
export const FAST_RETRIES = { maxAttempts: 2, maxTotalMs: 2_000, baseDelayMs: 1, maxDelayMs: 5 } as const;

/** The organization and service of managed ClickStack in these tests (any uuids: the emulator's key works for all). */
export const CLICKSTACK_IDS = {
  organizationId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  serviceId: "7b2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e",
} as const;

/** The environment that points the provider at one service of the emulator, with client-side pacing off. */
export function envFor(service: "alerting" | "cloud" | "clickstack", emu: RunningEmulator): Record<string, string> {
  if (service === "clickstack")
    return {
      ...envFor("cloud", emu),
      ALERTPIPE_CLICKSTACK_ORGANIZATION_ID: CLICKSTACK_IDS.organizationId,
      ALERTPIPE_CLICKSTACK_SERVICE_ID: CLICKSTACK_IDS.serviceId,
    };
  return service === "alerting"
    ? { ALERTPIPE_ALERTING_URL: emu.url, ALERTPIPE_ALERTING_TOKEN: emu.token, ALERTPIPE_ALERTING_RATE_LIMIT: "off" }
    : {
        ALERTPIPE_CLOUD_URL: emu.url,
        ALERTPIPE_CLOUD_KEY_ID: emu.keyId,
        ALERTPIPE_CLOUD_KEY_SECRET: emu.keySecret,
        ALERTPIPE_CLOUD_RATE_LIMIT: "off",
      };
}

/** Sets the variables; answers a function that puts back what each was before (unset stays unset). */
export function setEnv(vars: Record<string, string>): () => void {
  const saved = Object.keys(vars).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, vars);
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

export interface EmulatorPerTest {
  readonly emulator: RunningEmulator;
  /** Lines the provider said to the user during the test. */
  readonly notices: readonly string[];
  /** "METHOD path" of each request since the test began (or since `emulator.resetRequestLog()`). */
  requests(): string[];
}

export interface PerTestOptions {
  /** Which service the provider under test talks to; "clickstack": area A as managed ClickStack, the Cloud API's. */
  readonly service: "alerting" | "cloud" | "clickstack";
  /** Names the helper in the error when the emulator is used outside a test. */
  readonly helper: string;
  /** Which alerting service the emulator speaks (default: the contract's). */
  readonly mode?: EmulatorMode;
  /** Which cloud API area B speaks (default: the contract's); the provider is told it by ALERTPIPE_CLOUD_DIALECT. */
  readonly cloudDialect?: CloudDialect;
  /** The dispatcher the provider sends with during each test, closed after it (default: the provider's own). */
  readonly dispatcher?: () => Dispatcher;
}

export function emulatorPerTest(options: PerTestOptions): EmulatorPerTest {
  let current: RunningEmulator | undefined;
  let agent: Dispatcher | undefined;
  let restoreEnv = (): void => {};
  const notices: string[] = [];
  const emulator = (): RunningEmulator => {
    if (!current) throw new Error(`${options.helper}: the emulator exists only while a test runs`);
    return current;
  };

  beforeEach(async () => {
    current = await startEmulator({
      port: 0,
      rateLimits: { cloud: false, alerting: false },
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.service === "clickstack" ? { cloudDialect: "clickhouse" as const } : {}),
      ...(options.cloudDialect === undefined ? {} : { cloudDialect: options.cloudDialect }),
    });
    restoreEnv = setEnv({
      ...envFor(options.service, current),
      ...(options.cloudDialect === undefined ? {} : { ALERTPIPE_CLOUD_DIALECT: options.cloudDialect }),
    });
    agent = options.dispatcher?.();
    notices.length = 0;
    resetRuntime();
    useRuntime({
      dispatcher: agent,
      retryPolicy: FAST_RETRIES,
      notices: (line) => notices.push(line),
      timings: { secondLookMs: 50 },
    });
  });

  afterEach(async () => {
    restoreEnv();
    resetRuntime();
    await agent?.close();
    agent = undefined;
    await current?.close();
    current = undefined;
  });

  return {
    get emulator() {
      return emulator();
    },
    notices,
    requests() {
      return emulator().requests.map((r) => `${r.method} ${r.path}`);
    },
  };
}
