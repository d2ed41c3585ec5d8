// ClickPipeCdcInfrastructure through the dynamic door against the emulator's ClickHouse Cloud mode:
// the CDC scaling taken over, changed, drift found and put back, a destroy that sends nothing and
// says what stays; and the idle service, with and without alertpipe:wakeIdleServices.

import { beforeEach, describe, expect, it } from "vitest";
import * as cdc from "../../provider/clickPipeCdcInfrastructure/provider";
import { behaviour } from "../../provider/clickPipeCdcInfrastructure/behaviour";
import { lookupNamed, runLookup } from "../../provider/lookups/run";
import { useRuntime } from "../../provider/runtime/runtime";
import { ApiError, ServiceNotAwakeError } from "../../provider/errors";
import { DEFAULT_CDC_SCALING } from "../../emulator";
import { emulatorPerTest, setEnv } from "../support/emulatorPerTest";
import { failure } from "../support/failures";
import { PIPE_IDS } from "../support/fixtures";

const emu = emulatorPerTest({ service: "cloud", helper: "clickPipeCdcInfrastructure", cloudDialect: "clickhouse" });
beforeEach(() => useRuntime({ timings: { servicePollMs: 20, serviceWaitMs: 3_000 } }));

const host = { __provider: "serialized" };
const ids = { organizationId: PIPE_IDS.organizationId, serviceId: PIPE_IDS.serviceId };
const ID = `${ids.organizationId}/${ids.serviceId}`;
const SERVICE = `/v1/organizations/${ids.organizationId}/services/${ids.serviceId}`;
const SCALING = `${SERVICE}/clickpipesCdcScaling`;
const args = { ...ids, replicaCpuMillicores: 4000, replicaMemoryGb: 16 };
const basic = () => `Basic ${Buffer.from(`${emu.emulator.keyId}:${emu.emulator.keySecret}`).toString("base64")}`;

async function byHand(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emu.emulator.url}${path}`, {
    method,
    headers: { authorization: basic(), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

const stored = () => emu.emulator.snapshot().cdcScaling?.[ID];

describe("ClickPipeCdcInfrastructure on the Cloud's API", () => {
  it("takes the capacity over with one PATCH of both values, and reads back with nothing to do", async () => {
    const made = await cdc.create({ ...args, ...host });
    expect(made.id).toBe(ID);
    expect(emu.requests()).toEqual([`PATCH ${SCALING}`]);
    expect(emu.emulator.requests[0]?.status).toBe(200);
    expect(stored()).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
    expect(made.outs).toMatchObject(args);
    const read = await cdc.read(made.id, { ...made.outs, ...host });
    expect(read.props).toMatchObject(args);
    expect((await cdc.diff(made.id, { ...read.props, ...host }, { ...args, ...host })).changes).toBe(false);
  });

  it("changes the capacity in place with one PATCH", async () => {
    const made = await cdc.create({ ...args, ...host });
    const bigger = { ...args, replicaCpuMillicores: 8000, replicaMemoryGb: 32 };
    const diff = await cdc.diff(made.id, { ...made.outs, ...host }, { ...bigger, ...host });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    emu.emulator.resetRequestLog();
    const outs = await cdc.update(made.id, { ...made.outs, ...host }, { ...bigger, ...host });
    expect(emu.requests()).toEqual([`PATCH ${SCALING}`]);
    expect(outs.outs).toMatchObject(bigger);
    expect(stored()).toEqual({ replicaCpuMillicores: 8000, replicaMemoryGb: 32 });
  });

  it("replaces on another service", async () => {
    const made = await cdc.create({ ...args, ...host });
    const other = { ...args, serviceId: "2c9e6679-7425-40de-944b-e07fc1f90ae8" };
    const diff = await cdc.diff(made.id, { ...made.outs, ...host }, { ...other, ...host });
    expect(diff.replaces).toEqual(["serviceId"]);
  });

  it("shows a change made by hand as drift, and one update puts it back", async () => {
    const made = await cdc.create({ ...args, ...host });
    await byHand("PATCH", SCALING, { replicaCpuMillicores: 1000, replicaMemoryGb: 4 });
    const drifted = await cdc.read(made.id, { ...made.outs, ...host });
    expect(drifted.inputs).toMatchObject({ replicaCpuMillicores: 1000, replicaMemoryGb: 4 });
    const diff = await cdc.diff(made.id, { ...drifted.props, ...host }, { ...args, ...host });
    expect(diff.changes).toBe(true);
    await cdc.update(made.id, { ...drifted.props, ...host }, { ...args, ...host });
    expect(stored()).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
  });

  it("destroys by forgetting: no request, the capacity stays, and the log says so", async () => {
    const made = await cdc.create({ ...args, ...host });
    emu.emulator.resetRequestLog();
    await cdc.delete(made.id, { ...made.outs, ...host });
    expect(emu.requests()).toEqual([]);
    expect(stored()).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
    expect(emu.notices.join("\n")).toContain(
      "ClickHouse Cloud's API has no delete, so its database ClickPipes keep 4000 millicores and 16 GiB per replica",
    );
  });

  it("reads by its id alone, as the class's get does", async () => {
    await byHand("PATCH", SCALING, { replicaCpuMillicores: 3000, replicaMemoryGb: 12 });
    const read = await cdc.read(ID, { ...host });
    expect(read.id).toBe(ID);
    expect(read.props).toMatchObject({ ...ids, replicaCpuMillicores: 3000, replicaMemoryGb: 12 });
  });

  it("imports by organizationId/serviceId, the live values as the program's", async () => {
    const found = await behaviour.readImported(ID);
    expect(found?.id).toBe(ID);
    expect(found?.inputs).toEqual({ ...ids, ...DEFAULT_CDC_SCALING });
  });

  it("serves getClickPipeCdcInfrastructure from the same GET", async () => {
    await cdc.create({ ...args, ...host });
    emu.emulator.resetRequestLog();
    const def = lookupNamed("getClickPipeCdcInfrastructure");
    if (def === undefined) throw new Error("no getClickPipeCdcInfrastructure");
    expect(await runLookup(def, ids)).toEqual(args);
    expect(emu.requests()).toEqual([`GET ${SCALING}`]);
  });
});

describe("an idle service", () => {
  it("fails at once without alertpipe:wakeIdleServices, naming the service, its state and what to do", async () => {
    emu.emulator.setServiceState(ids.organizationId, ids.serviceId, "idle");
    const err = await failure(cdc.create({ ...args, ...host }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("SERVICE_IDLE");
    const message = (err as Error).message;
    expect(message).toContain("failed with status 424: FAILED_DEPENDENCY:");
    expect(message).toContain("Current state: idle");
    expect(message).toContain(`Service "${ids.serviceId}" is idle: wake it`);
    expect(message).toContain("set alertpipe:wakeIdleServices to true");
    expect(emu.requests()).toEqual([`PATCH ${SCALING}`]);
    expect(emu.emulator.serviceState(ids.organizationId, ids.serviceId)).toBe("idle");
  });

  it("is woken with alertpipe:wakeIdleServices, and the call sent once more, the log saying so", async () => {
    const restore = setEnv({ ALERTPIPE_WAKE_IDLE_SERVICES: "true" });
    try {
      emu.emulator.setServiceState(ids.organizationId, ids.serviceId, "idle", { wakeDelayMs: 100 });
      const made = await cdc.create({ ...args, ...host });
      expect(made.outs).toMatchObject(args);
      const sent = emu.requests();
      expect(sent[0]).toBe(`PATCH ${SCALING}`);
      expect(sent[1]).toBe(`PATCH ${SERVICE}/state`);
      expect(sent.slice(2, -1).every((r) => r === `GET ${SERVICE}`)).toBe(true);
      expect(sent.length).toBeGreaterThan(3);
      expect(sent.at(-1)).toBe(`PATCH ${SCALING}`);
      expect(emu.emulator.requests.map((r) => r.status)).toEqual([424, ...sent.slice(1).map(() => 200)]);
      expect(stored()).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
      const said = emu.notices.join("\n");
      expect(said).toContain(
        `because service "${ids.serviceId}" is idle; waking it (alertpipe:wakeIdleServices is true)`,
      );
      expect(said).toContain(`woke service "${ids.serviceId}": running after`);
    } finally {
      restore();
    }
  });

  it("never starts a stopped service, even with alertpipe:wakeIdleServices", async () => {
    const restore = setEnv({ ALERTPIPE_WAKE_IDLE_SERVICES: "true" });
    try {
      emu.emulator.setServiceState(ids.organizationId, ids.serviceId, "stopped");
      const err = await failure(cdc.create({ ...args, ...host }));
      expect((err as ApiError).code).toBe("SERVICE_IDLE");
      expect((err as Error).message).toContain(`Service "${ids.serviceId}" is stopped: start it`);
      expect(emu.requests()).toEqual([`PATCH ${SCALING}`]);
    } finally {
      restore();
    }
  });

  it("fails, sending the call no more, when the woken service does not run in time", async () => {
    const restore = setEnv({ ALERTPIPE_WAKE_IDLE_SERVICES: "true" });
    try {
      useRuntime({ timings: { servicePollMs: 20, serviceWaitMs: 200 } });
      emu.emulator.setServiceState(ids.organizationId, ids.serviceId, "idle", { wakeDelayMs: 60_000 });
      const err = await failure(cdc.create({ ...args, ...host }));
      expect(err).toBeInstanceOf(ServiceNotAwakeError);
      expect((err as Error).message).toContain(`service "${ids.serviceId}" is awaking, not running`);
      expect(emu.requests().filter((r) => r === `PATCH ${SCALING}`)).toHaveLength(1);
    } finally {
      restore();
    }
  });
});

describe("on the contract's dialect", () => {
  it("is refused in check naming alertpipe:cloudDialect, and nothing is sent", async () => {
    const restore = setEnv({ ALERTPIPE_CLOUD_DIALECT: "contract" });
    try {
      const checked = await cdc.check({}, { ...args });
      expect(checked.failures?.map((f) => f.reason).join("\n")).toContain("alertpipe:cloudDialect");
      expect(emu.requests()).toEqual([]);
    } finally {
      restore();
    }
  });
});
