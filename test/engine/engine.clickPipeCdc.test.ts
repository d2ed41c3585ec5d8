// A Postgres CDC ClickPipe beside the service's ClickPipeCdcInfrastructure, on the real engine through
// both doors, against the emulator's Cloud mode (issue 46): up makes both; a second preview has nothing
// to do; a table mapping added then removed, the pipe paused around each edit and the log saying so;
// scaling refused in preview, naming ClickPipeCdcInfrastructure; a pipe paused by hand seen by refresh
// as drift on `stopped`, started again by up; destroy leaves no pipe (the capacity stays: no delete).

import { beforeAll, describe, expect, it } from "vitest";
import { byHand, changes } from "../support/engine";
import { PIPE_SERVICE, PROGRAMS, withValue } from "../support/clickPipes";
import { timedRun } from "../support/cloudDoors";
import {
  PIPES,
  PIPE_DOORS,
  clickPipes,
  takeWrites,
  livePipe,
  livePipes,
  shortPipeSteps,
  type Resources,
} from "../support/clickPipeDoors";
import type { YamlDoor } from "../support/cloudDoors";

shortPipeSteps();

const SCALING = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipesCdcScaling`;
const CAPACITY = { replicaCpuMillicores: 4000, replicaMemoryGb: 16 };
const USERS = PROGRAMS.postgres.source.postgres.tableMappings[0];
const ORDERS = { sourceSchemaName: "public", sourceTable: "orders", targetTable: "public_orders" };

const program = (pipe: object): Resources => ({
  cdc: { type: "alertpipe:index:ClickPipeCdcInfrastructure", properties: { ...PIPE_SERVICE, ...CAPACITY } },
  ...clickPipes({ pg: pipe }),
});
const withMappings = (...mappings: object[]) => withValue(PROGRAMS.postgres, "source.postgres.tableMappings", mappings);

describe.each(PIPE_DOORS)("a Postgres CDC ClickPipe with ClickPipeCdcInfrastructure through %s", (door, open) => {
  let d: YamlDoor;
  const run = timedRun(door, () => d);
  const writes = () => takeWrites(d.emu);
  const mappingsLive = async () =>
    ((await livePipe(d.emu, "pg-cdc")).source as { postgres: { tableMappings: unknown[] } }).postgres.tableMappings;

  beforeAll(async () => {
    d = await open(program(PROGRAMS.postgres), "clickpipe-cdc");
  }, 300_000);

  it("makes the pipe with one POST and sets the capacity, then has nothing to do", async () => {
    expect(changes(await run("up"))).toEqual(["create cdc", "create pg"]);
    expect(writes().sort()).toEqual([`PATCH ${SCALING}`, `POST ${PIPES}`]);
    expect(d.emu.snapshot().cdcScaling?.[`${PIPE_SERVICE.organizationId}/${PIPE_SERVICE.serviceId}`]).toEqual(CAPACITY);
    expect(changes(await run("preview"))).toEqual([]);
    expect(writes()).toEqual([]);
  });

  it("adds a table mapping and removes it, pausing the pipe around each edit and saying so", async () => {
    d.write(program(withMappings(USERS, ORDERS)));
    const added = await run("up");
    expect(changes(added)).toEqual(["update pg"]);
    const pipe = `${PIPES}/${String((await livePipe(d.emu, "pg-cdc")).id)}`;
    const paused = [`PATCH ${pipe}/state`, `PATCH ${pipe}`, `PATCH ${pipe}/state`];
    expect(writes()).toEqual(paused);
    expect(added.told).toContain('stopping the ClickPipe "pg-cdc" to change its table mappings');
    expect(added.told).toContain('starting the ClickPipe "pg-cdc" again after its table mappings changed');
    expect(await mappingsLive()).toEqual([USERS, ORDERS]);

    d.write(program(PROGRAMS.postgres));
    expect(changes(await run("up"))).toEqual(["update pg"]);
    expect(writes()).toEqual(paused);
    expect(await mappingsLive()).toEqual([USERS]);
    expect((await livePipe(d.emu, "pg-cdc")).state).not.toMatch(/^Pause/);
  });

  it("refuses scaling on the pipe in preview, naming ClickPipeCdcInfrastructure, before any request", async () => {
    d.write(program(withValue(PROGRAMS.postgres, "scaling", { replicas: 2 })));
    const preview = await run("preview", false);
    expect(preview.ok).toBe(false);
    expect(preview.told).toContain("ClickPipeCdcInfrastructure");
    expect(preview.told).toContain("scaling");
    expect(writes()).toEqual([]);
    d.write(program(PROGRAMS.postgres));
  });

  it("shows a pipe paused by hand as drift on stopped, and up starts it again", async () => {
    const pipe = `${PIPES}/${String((await livePipe(d.emu, "pg-cdc")).id)}`;
    await byHand(d.emu, "PATCH", `${pipe}/state`, { command: "stop" });
    d.emu.resetRequestLog();
    const refresh = await run("refresh");
    expect(changes(refresh)).toEqual(["refresh-update pg"]);
    expect(d.state().get("pg")?.outputs).toMatchObject({ stopped: true });
    expect(String(d.state().get("pg")?.outputs?.state)).toMatch(/^Paus/);
    const up = await run("up");
    expect(changes(up)).toEqual(["update pg"]);
    expect(writes()).toEqual([`PATCH ${pipe}/state`]);
    expect(d.state().get("pg")?.outputs).toMatchObject({ stopped: false });
    expect(["Setup", "Running"]).toContain((await livePipe(d.emu, "pg-cdc")).state);
  });

  it("destroys both: no pipe left, the capacity kept (the API has no delete)", async () => {
    expect(changes(await run("destroy"))).toEqual(["delete cdc", "delete pg"]);
    expect(await livePipes(d.emu)).toEqual([]);
    expect(d.emu.snapshot().cdcScaling?.[`${PIPE_SERVICE.organizationId}/${PIPE_SERVICE.serviceId}`]).toEqual(CAPACITY);
  });
});
