// One budget per key on ClickHouse Cloud (issue 37): ClickHouse publishes its limit per key (10
// requests per 10 s), and managed ClickStack is served by the same API with the same key. The
// emulator's Cloud mode counts a key's ClickStack and area B requests in one window; the provider
// paces both through the key's one limiter, so an apply that uses both meets no 429.

import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, SEEDED_SOURCES, startEmulator, type RunningEmulator } from "../../emulator";
import * as alert from "../../provider/alert/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import * as search from "../../provider/savedSearch/provider";
import * as webhook from "../../provider/webhook/provider";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { CLICKSTACK_IDS, envFor, FAST_RETRIES, setEnv } from "../support/emulatorPerTest";
import { PIPE_IDS } from "../support/fixtures";
import { busiestWindow } from "../support/windows";

const { organizationId: ORG, serviceId: SVC } = CLICKSTACK_IDS;
const CLICKSTACK = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;
const CLICKPIPE = `/v1/organizations/${ORG}/services/${SVC}/clickpipes/${PIPE_IDS.pipeId}/settings`;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
/** The n-th ClickPipe of the service: any uuid is a pipe in the emulator. */
const pipeId = (n: number) => `${hex(n, 8)}-0000-4000-8000-000000000000`;

let emu: RunningEmulator | undefined;
let restoreEnv = (): void => {};
afterEach(async () => {
  restoreEnv();
  resetRuntime();
  await emu?.close();
  emu = undefined;
});

async function get(path: string): Promise<number> {
  const running = emu as RunningEmulator;
  const res = await fetch(`${running.url}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${running.keyId}:${running.keySecret}`).toString("base64")}` },
  });
  await res.arrayBuffer();
  return res.status;
}

describe("one Cloud key's budget for managed ClickStack and area B", () => {
  it("is one window in the emulator: a key's ClickStack calls spend what its ClickPipe calls may", async () => {
    emu = await startEmulator({
      port: 0,
      cloudDialect: "clickhouse",
      rateLimits: { cloud: { requests: 2, perSeconds: 60 }, alerting: false },
    });
    expect(await get(`${CLICKSTACK}/webhooks`)).toBe(200);
    expect(await get(`${CLICKSTACK}/saved-searches`)).toBe(200);
    expect(await get(CLICKPIPE)).toBe(429);
  });

  it("meets no 429 in an apply of 20 alerts on managed ClickStack and 20 PipeSettings on one key, at the default pace", async () => {
    // The emulator and the provider at their defaults: the published 10 requests per 10 s per key.
    emu = await startEmulator({ port: 0, cloudDialect: "clickhouse" });
    const { ALERTPIPE_CLOUD_RATE_LIMIT: _paced, ...env } = envFor("clickstack", emu);
    delete process.env.ALERTPIPE_CLOUD_RATE_LIMIT;
    restoreEnv = setEnv({ ...env, ALERTPIPE_CLOUD_DIALECT: "clickhouse" });
    resetRuntime();
    // One attempt: a 429 fails its resource rather than being retried out of sight.
    const waits: string[] = [];
    useRuntime({ retryPolicy: { ...FAST_RETRIES, maxAttempts: 1 }, notices: (line) => waits.push(line) });

    const hook = await webhook.create({ name: "ops", service: "generic", url: "https://hooks.example.com/ops" });
    const found = await search.create({ name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" });
    const alerts = Array.from({ length: 20 }, (_, i) =>
      alert.create({
        threshold: i + 1,
        interval: "5m",
        source: "search",
        thresholdType: "above",
        savedSearchId: found.id,
        channel: { type: "webhook", webhookId: hook.id },
      }),
    );
    const pipes = Array.from({ length: 20 }, (_, i) =>
      pipeSettings.create({ ...PIPE_IDS, organizationId: ORG, serviceId: SVC, pipeId: pipeId(i), dbMaxThreads: 8 }),
    );
    await Promise.all([...alerts, ...pipes]);

    const requests = emu.requests;
    expect(requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(requests.filter((r) => r.path.startsWith(`${CLICKSTACK}/alerts`))).toHaveLength(20);
    expect(requests.filter((r) => r.path.includes("/clickpipes/"))).toHaveLength(20);
    // The key's one pace held them: 42 requests need five windows.
    expect(waits.some((w) => w.includes("client-side pacing of this credential (10 per 10 s)"))).toBe(true);
    const window = DEFAULT_RATE_LIMITS.cloud;
    expect(
      busiestWindow(
        requests.map((r) => r.at),
        window.perSeconds * 1000,
      ),
    ).toBeLessThanOrEqual(window.requests);
  }, 120_000);
});
