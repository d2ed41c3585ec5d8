// Test support: a fresh emulator for each test with the Alert provider pointed at it over real
// HTTP, the notices the provider says collected, and the alerts made by hand as someone in the UI would.

import { afterEach, beforeEach } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { resetConfiguration } from "../../provider/connection";
import { useDispatcher, useRetryPolicy } from "../../provider/http/client";
import { resetLimiters } from "../../provider/http/rateLimit";
import { useNotices } from "../../provider/notices";
import { useSecondLookDelay } from "../../provider/recovery";

const ENV = ["ALERTPIPE_ALERTING_URL", "ALERTPIPE_ALERTING_TOKEN", "ALERTPIPE_ALERTING_RATE_LIMIT"] as const;

/** Short waits, so a test never sits out the real backoff. */
export const FAST_RETRIES = { maxAttempts: 2, maxTotalMs: 2_000, baseDelayMs: 1, maxDelayMs: 5 } as const;

export interface AlertEmulator {
  readonly emulator: RunningEmulator;
  /** Lines the provider said to the user during the test. */
  readonly notices: readonly string[];
  /** Creates an alert outside the provider (as in the UI) and answers its id. */
  byHand(body: Record<string, unknown>): Promise<string>;
  /** The ids of the alerts on the service. */
  alertIds(): string[];
  /** "METHOD path" of each request since the test began (or since `emulator.resetRequestLog()`). */
  requests(): string[];
}

export function alertEmulatorPerTest(): AlertEmulator {
  let current: RunningEmulator | undefined;
  const notices: string[] = [];
  const saved: Record<string, string | undefined> = {};
  const emulator = (): RunningEmulator => {
    if (!current) throw new Error("alertEmulatorPerTest: the emulator exists only while a test runs");
    return current;
  };

  beforeEach(async () => {
    current = await startEmulator({ port: 0, rateLimits: { cloud: false, alerting: false } });
    for (const name of ENV) saved[name] = process.env[name];
    process.env.ALERTPIPE_ALERTING_URL = current.url;
    process.env.ALERTPIPE_ALERTING_TOKEN = current.token;
    process.env.ALERTPIPE_ALERTING_RATE_LIMIT = "off";
    useDispatcher(undefined);
    useRetryPolicy(FAST_RETRIES);
    resetConfiguration();
    resetLimiters();
    notices.length = 0;
    useNotices((line) => notices.push(line));
    useSecondLookDelay(50);
  });

  afterEach(async () => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    useRetryPolicy(undefined);
    useNotices(undefined);
    useSecondLookDelay(undefined);
    resetConfiguration();
    await current?.close();
    current = undefined;
  });

  return {
    get emulator() {
      return emulator();
    },
    notices,
    async byHand(body) {
      const res = await fetch(`${emulator().url}/api/v2/alerts`, {
        method: "POST",
        headers: { authorization: `Bearer ${emulator().token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { data?: { id?: unknown } };
      if (res.status !== 200 || typeof answer.data?.id !== "string") throw new Error(`creating an alert by hand answered ${res.status}`);
      return answer.data.id;
    },
    alertIds() {
      return Object.keys(emulator().snapshot().alerts);
    },
    requests() {
      return emulator().requests.map((r) => `${r.method} ${r.path}`);
    },
  };
}
