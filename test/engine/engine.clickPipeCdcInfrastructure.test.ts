// ClickPipeCdcInfrastructure on the real engine through both doors, against the emulator's ClickHouse
// Cloud mode (issue 46): an idle service refused with its name, state and what to do; woken under
// alertpipe:wakeIdleServices and the capacity taken over in one up; a second preview with nothing to
// do; a change by hand found by refresh and put back; a destroy that sends nothing and says what stays.

import { beforeAll, describe, expect, it } from "vitest";
import { byHand, changes, emulator as startEmulator, installedPackage, requestLog } from "../support/engine";
import { CLOUD_MODE, cloudConfig, dynamicDoor, yamlDoor, type Door } from "../support/cloudDoors";
import { PIPE_IDS } from "../support/fixtures";

const ORG = PIPE_IDS.organizationId;
const SVC = PIPE_IDS.serviceId;
const SERVICE = `/v1/organizations/${ORG}/services/${SVC}`;
const SCALING = `${SERVICE}/clickpipesCdcScaling`;
const CDC = { organizationId: ORG, serviceId: SVC, replicaCpuMillicores: 4000, replicaMemoryGb: 16 };

const isWrite = (method: string) => method !== "GET";

const dynamic = async (): Promise<Door> => {
  const emu = await startEmulator(CLOUD_MODE);
  return dynamicDoor(emu, cloudConfig(emu), "cdc-infrastructure", async () => {
    new (installedPackage().ClickPipeCdcInfrastructure)("cdc", CDC);
  });
};

const yaml = async (): Promise<Door> => {
  const emu = await startEmulator(CLOUD_MODE);
  return yamlDoor(emu, cloudConfig(emu), {
    cdc: { type: "alertpipe:index:ClickPipeCdcInfrastructure", properties: CDC },
  });
};

describe.each([
  ["the dynamic classes", dynamic],
  ["Pulumi YAML through the plugin", yaml],
])("ClickPipeCdcInfrastructure through %s", (_door, open) => {
  let d: Door;

  beforeAll(async () => {
    d = await open();
  }, 300_000);

  it("fails on an idle service without alertpipe:wakeIdleServices, naming it, its state and what to do", async () => {
    d.emu.setServiceState(ORG, SVC, "idle", { wakeDelayMs: 200 });
    const up = await d.run("up");
    expect(up.ok).toBe(false);
    expect(up.told).toContain("SERVICE_IDLE");
    expect(up.told).toContain(`Service "${SVC}" is idle: wake it`);
    expect(up.told).toContain("alertpipe:wakeIdleServices");
    expect(requestLog(d.emu, isWrite)).toEqual([`PATCH ${SCALING}`]);
    expect(d.emu.snapshot().cdcScaling).toBeUndefined();
    expect(d.state().get("cdc")).toBeUndefined();
  });

  it("wakes the service with alertpipe:wakeIdleServices, says so, and takes the capacity over in one up", async () => {
    await d.setConfig({ "alertpipe:wakeIdleServices": { value: "true" } });
    d.emu.resetRequestLog();
    const up = await d.run("up");
    expect(up.ok, up.told).toBe(true);
    expect(changes(up)).toEqual(["create cdc"]);
    expect(requestLog(d.emu, isWrite)).toEqual([`PATCH ${SCALING}`, `PATCH ${SERVICE}/state`, `PATCH ${SCALING}`]);
    expect(up.told).toContain(`woke service "${SVC}"`);
    expect(d.emu.serviceState(ORG, SVC)).toBe("running");
    expect(d.emu.snapshot().cdcScaling?.[`${ORG}/${SVC}`]).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
    expect(d.state().get("cdc")?.outputs).toMatchObject(CDC);
  });

  it("has nothing to do in a second preview", async () => {
    d.emu.resetRequestLog();
    const preview = await d.run("preview");
    expect(preview.ok, preview.told).toBe(true);
    expect(changes(preview)).toEqual([]);
    expect(requestLog(d.emu, isWrite)).toEqual([]);
  });

  it("finds a change by hand on refresh and puts it back on up, in place", async () => {
    await byHand(d.emu, "PATCH", SCALING, { replicaCpuMillicores: 1000, replicaMemoryGb: 4 });
    const refresh = await d.run("refresh");
    expect(refresh.ok, refresh.told).toBe(true);
    expect(changes(refresh)).toEqual(["refresh-update cdc"]);
    expect(d.state().get("cdc")?.outputs).toMatchObject({ replicaCpuMillicores: 1000, replicaMemoryGb: 4 });
    d.emu.resetRequestLog();
    const up = await d.run("up");
    expect(up.ok, up.told).toBe(true);
    expect(changes(up)).toEqual(["update cdc"]);
    expect(requestLog(d.emu, isWrite)).toEqual([`PATCH ${SCALING}`]);
    expect(d.emu.snapshot().cdcScaling?.[`${ORG}/${SVC}`]).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
  });

  it("destroys by forgetting: no request, the capacity stays, and the log says so", async () => {
    d.emu.resetRequestLog();
    const destroy = await d.run("destroy");
    expect(destroy.ok, destroy.told).toBe(true);
    expect(changes(destroy)).toEqual(["delete cdc"]);
    expect(requestLog(d.emu, isWrite)).toEqual([]);
    expect(destroy.told).toContain("ClickHouse Cloud's API has no delete");
    expect(d.emu.snapshot().cdcScaling?.[`${ORG}/${SVC}`]).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
    expect(d.state().get("cdc")).toBeUndefined();
  });
});
