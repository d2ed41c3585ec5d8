// Area B as ClickHouse Cloud speaks it (issue 37), on the real engine through both front doors: a
// program with PipeSettings and an ApiKey against the emulator's Cloud dialect, configured with only
// the settings the guide (docs/guides/real-accounts.md) names, the dialect set explicitly as it says
// for a host other than *.clickhouse.cloud. Up sends the Cloud's path (the emulator refuses the
// contract's names there), a second preview has nothing to do, a change by hand is found by refresh,
// and destroy leaves no key and no setting of ours.

import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { CliRun } from "../support/cliStack";
import {
  byHand,
  changes,
  emulator as startEmulator,
  installedPackage,
  ourState,
  requestLog,
  stackWith,
  succeeded,
} from "../support/engine";
import type { EngineStack } from "../support/engine";
import { KEYS_PATH, ORG_ID, PIPE_IDS, PIPE_RESOURCE_ID } from "../support/fixtures";
import { yamlProgram, yamlStack } from "../support/yamlStack";
import type { StackConfig } from "../../scripts/exampleStack";

const CLICKPIPE = `/v1/organizations/${PIPE_IDS.organizationId}/services/${PIPE_IDS.serviceId}/clickpipes/${PIPE_IDS.pipeId}/settings`;
const PIPE = { ...PIPE_IDS, dbMaxThreads: 8, dbParallelViewProcessing: true, resetOnDelete: true };
const KEY = { organizationId: ORG_ID, name: "ci", roles: ["developer" as const] };
const isWrite = (method: string) => method !== "GET";

/** What the guide names for ClickHouse Cloud's area B behind a host of its own; pacing off for speed. */
function guideConfig(emu: RunningEmulator): StackConfig {
  return {
    "alertpipe:cloudUrl": { value: `${emu.url}/v1` },
    "alertpipe:cloudKeyId": { value: emu.keyId },
    "alertpipe:cloudKeySecret": { value: emu.keySecret, secret: true },
    "alertpipe:cloudDialect": { value: "clickhouse" },
    "alertpipe:cloudRateLimit": { value: "off" },
  };
}

async function cloudEmulator(): Promise<RunningEmulator> {
  return startEmulator({ cloudDialect: "clickhouse", rateLimits: { cloud: false, alerting: false } });
}

function expectMade(emu: RunningEmulator, keyId: string): void {
  // The contract's /pipes/ is not served there, and /clickpipes/ takes the Cloud's names alone.
  expect(requestLog(emu, isWrite).sort()).toEqual([`POST ${KEYS_PATH}`, `PUT ${CLICKPIPE}`]);
  expect(emu.requests.every((r) => r.status === 200)).toBe(true);
  expect(emu.snapshot().pipes[PIPE_RESOURCE_ID]).toEqual({ db_max_threads: 8, db_parallel_view_processing: true });
  expect(emu.snapshot().keys[keyId]?.name).toBe("ci");
}

async function changeByHand(emu: RunningEmulator, keyId: string): Promise<void> {
  await byHand(emu, "PUT", CLICKPIPE, { clickhouse_max_threads: 32 });
  await byHand(emu, "PATCH", `${KEYS_PATH}/${keyId}`, { name: "renamed by hand" });
}

function expectRefreshed(stack: Pick<EngineStack, "readStateFile">): void {
  const state = ourState(stack);
  expect(state.get("ingest")?.outputs).toMatchObject({ dbMaxThreads: 32, dbParallelViewProcessing: true });
  expect(state.get("ci")?.outputs).toMatchObject({ name: "renamed by hand" });
}

function expectNothingLeft(emu: RunningEmulator): void {
  expect(emu.snapshot().keys).toEqual({});
  expect(emu.snapshot().pipes[PIPE_RESOURCE_ID]).toEqual({ db_max_threads: null, db_parallel_view_processing: null });
}

function ok<T extends CliRun>(run: T): T {
  expect(run.code, run.output).toBe(0);
  return run;
}

describe("ClickHouse Cloud's area B in Pulumi YAML, through the native plugin", () => {
  it("goes through up, a preview with nothing to do, refresh after a change by hand, and destroy", async () => {
    const emu = await cloudEmulator();
    const resources = {
      ingest: { type: "alertpipe:index:PipeSettings", properties: PIPE },
      ci: { type: "alertpipe:index:ApiKey", properties: KEY },
    };
    const { stack } = await yamlStack(undefined, yamlProgram({ resources }), { config: guideConfig(emu) });

    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up)).toEqual(["create ci", "create ingest"]);
    const keyId = ourState(stack).get("ci")?.id ?? "";
    expectMade(emu, keyId);

    emu.resetRequestLog();
    const preview = ok(await stack.runLogged("preview", ["preview"]));
    expect(changes(preview)).toEqual([]);
    expect(requestLog(emu, isWrite)).toEqual([]);

    await changeByHand(emu, keyId);
    const refresh = ok(await stack.runLogged("refresh", ["refresh", "--yes"]));
    expect(changes(refresh)).toEqual(["refresh-update ci", "refresh-update ingest"]);
    expect(requestLog(emu)).toContain(`GET ${CLICKPIPE}`);
    expectRefreshed(stack);

    const destroy = ok(await stack.runLogged("destroy", ["destroy", "--yes"]));
    expect(changes(destroy)).toEqual(["delete ci", "delete ingest"]);
    expectNothingLeft(emu);
  });
});

describe("ClickHouse Cloud's area B through the dynamic classes", () => {
  it("goes through up, a preview with nothing to do, refresh after a change by hand, and destroy", async () => {
    const emu = await cloudEmulator();
    const stack = await stackWith(guideConfig(emu), "cloud-dialect", {
      program: async () => {
        const { ApiKey, PipeSettings } = installedPackage();
        new PipeSettings("ingest", PIPE);
        new ApiKey("ci", KEY);
      },
    });

    const up = succeeded(await stack.up());
    expect(changes(up)).toEqual(["create ci", "create ingest"]);
    const keyId = ourState(stack).get("ci")?.id ?? "";
    expectMade(emu, keyId);

    emu.resetRequestLog();
    expect(changes(succeeded(await stack.preview()))).toEqual([]);
    expect(requestLog(emu, isWrite)).toEqual([]);

    await changeByHand(emu, keyId);
    const refresh = succeeded(await stack.refresh());
    expect(changes(refresh)).toEqual(["refresh-update ci", "refresh-update ingest"]);
    expectRefreshed(stack);

    const destroy = succeeded(await stack.destroy());
    expect(changes(destroy)).toEqual(["delete ci", "delete ingest"]);
    expectNothingLeft(emu);
  });
});
