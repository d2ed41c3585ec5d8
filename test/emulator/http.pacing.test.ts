// Client-side pacing against the emulator's real limits over loopback HTTP, with latency injected
// after the service counts each request: a burst paced by the limiter draws no 429, and each send
// counts from when it was written to the socket plus the arrival margin, not from its answer.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { send } from "../../provider/http/client";
import { arrivalMarginMs, limiterFor } from "../../provider/http/rateLimit";
import { connectionFor } from "../../provider/runtime/connection";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { envFor, FAST_RETRIES, setEnv } from "../support/emulatorPerTest";
import { ORG_ID } from "../support/fixtures";
import { busiestWindow } from "../support/windows";

const LIMIT = { requests: 5, perSeconds: 1 };
const WINDOW_MS = LIMIT.perSeconds * 1000;
/** Longer than the arrival margin of a 1 s window (100 ms), so every answer comes after the write plus the margin. */
const LATENCY_MS = 250;
/** Three windows' worth. */
const BURST = 11;

describe("a burst paced against the service's fixed windows", () => {
  let emulator: RunningEmulator;
  let restoreEnv = (): void => {};

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0, rateLimits: { cloud: LIMIT, alerting: false }, latencyMs: LATENCY_MS });
    restoreEnv = setEnv({
      ...envFor("cloud", emulator),
      ALERTPIPE_CLOUD_RATE_LIMIT: `${LIMIT.requests}/${LIMIT.perSeconds}`,
    });
    resetRuntime();
    // One attempt: a 429 would fail its send rather than be retried out of sight.
    useRuntime({ retryPolicy: { ...FAST_RETRIES, maxAttempts: 1 } });
  });

  afterEach(async () => {
    restoreEnv();
    resetRuntime();
    await emulator.close();
  });

  async function burst(): Promise<void> {
    const conn = connectionFor("cloud");
    await Promise.all(
      Array.from({ length: BURST }, () => send(conn, { method: "GET", path: `/v1/organizations/${ORG_ID}/keys` })),
    );
  }

  it("draws no 429", async () => {
    await burst();
    expect(emulator.requests.map((r) => r.status)).toEqual(Array.from({ length: BURST }, () => 200));
  });

  it("never has more than the limit arrive within one window", async () => {
    await burst();
    expect(
      busiestWindow(
        emulator.requests.map((r) => r.at),
        WINDOW_MS,
      ),
    ).toBeLessThanOrEqual(LIMIT.requests);
  });

  it("counts each send from its write to the socket plus the margin, before its answer came", async () => {
    await burst();
    const sends = limiterFor(connectionFor("cloud"))?.recent() ?? [];
    expect(sends.length).toBeGreaterThan(0);
    for (const s of sends) {
      expect(s.writtenAt).toBeGreaterThanOrEqual(s.grantedAt ?? Number.NaN);
      expect(s.countedFrom).toBe((s.writtenAt ?? Number.NaN) + arrivalMarginMs(WINDOW_MS));
    }
  });
});
