// The five ClickPipe failure modes of ClickHouse's Terraform provider (ClickHouse/terraform-provider-clickhouse
// #376, #393, #221, #583, #383; docs/design/clickpipes.md), replayed against ours on the real engine through
// both doors, against the emulator's Cloud mode, one stack per door: each ends well. The tests run in order
// on one program, each adding to what the one before left; the last destroys it all.

import { beforeAll, describe, expect, it } from "vitest";
import { changes, requestLog } from "../support/engine";
import { PIPE_SERVICE, PROGRAMS, withValue } from "../support/clickPipes";
import { timedRun, type YamlDoor } from "../support/cloudDoors";
import {
  PIPES,
  PIPE_DOORS,
  clickPipes,
  livePipe,
  livePipes,
  shortPipeSteps,
  takeWrites,
} from "../support/clickPipeDoors";

const STEP_MS = 50;
shortPipeSteps(STEP_MS);

const { organizationId: ORG, serviceId: SVC } = PIPE_SERVICE;
const SERVICE = `/v1/organizations/${ORG}/services/${SVC}`;
const TUNED = withValue(PROGRAMS.kafka, "settings.streamingMaxInsertWaitMs", 2000);
const SCALED = withValue(TUNED, "scaling.replicas", 4);
const HELD = { ...withValue(PROGRAMS.kafka, "name", "held-orders"), stopped: true };
const FAILING = withValue(PROGRAMS.kafka, "name", "failing-orders");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(PIPE_DOORS)("the peer's ClickPipe failure modes through %s", (door, open) => {
  let d: YamlDoor;
  const run = timedRun(door, () => d);
  const writes = () => takeWrites(d.emu);
  const pathOf = async (name: string) => `${PIPES}/${String((await livePipe(d.emu, name)).id)}`;

  beforeAll(async () => {
    d = await open(clickPipes({ orders: PROGRAMS.kafka }), "clickpipe-peer");
  }, 300_000);

  it("#376: an idle service refuses the create, named with its state and what to do; woken on opt-in, one pipe", async () => {
    d.emu.setServiceState(ORG, SVC, "idle", { wakeDelayMs: 100 });
    const refused = await run("up", false);
    expect(refused.ok).toBe(false);
    expect(refused.told).toContain("SERVICE_IDLE");
    expect(refused.told).toContain(`Service "${SVC}" is idle: wake it`);
    expect(refused.told).toContain("alertpipe:wakeIdleServices");
    expect(writes()).toEqual([`POST ${PIPES}`]);
    expect(await livePipes(d.emu)).toEqual([]);
    expect(d.state().get("orders")).toBeUndefined();

    await d.setConfig({ "alertpipe:wakeIdleServices": { value: "true" } });
    const woken = await run("up");
    expect(changes(woken)).toEqual(["create orders"]);
    expect(woken.told).toContain(`woke service "${SVC}"`);
    expect(writes()).toEqual([`POST ${PIPES}`, `PATCH ${SERVICE}/state`, `POST ${PIPES}`]);
    // The scaling went in the POST: no scaling PATCH could be refused after it (#583 too).
    expect(await livePipe(d.emu, "orders")).toMatchObject({ scaling: PROGRAMS.kafka.scaling });
  });

  it("#393: an update that leaves scaling alone sends no scaling", async () => {
    d.write(clickPipes({ orders: TUNED }));
    expect(changes(await run("up"))).toEqual(["update orders"]);
    expect(writes()).toEqual([await pathOf("orders")].map((p) => `PATCH ${p}`));
    expect((await livePipe(d.emu, "orders")).settings).toMatchObject({ streaming_max_insert_wait_ms: 2000 });
  });

  it("#221: a scaling change waits until the pipe is neither Modifying nor Provisioning", async () => {
    // Long enough a step that the first read after the PATCH finds the pipe Modifying.
    process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = "1500";
    d.write(clickPipes({ orders: SCALED }));
    const pipe = await pathOf("orders");
    d.emu.resetRequestLog();
    const up = await run("up").finally(() => (process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = String(STEP_MS)));
    expect(changes(up)).toEqual(["update orders"]);
    const sent = requestLog(d.emu);
    d.emu.resetRequestLog();
    expect(sent.filter((r) => !r.startsWith("GET "))).toEqual([`PATCH ${pipe}/scaling`]);
    expect(
      sent.slice(sent.indexOf(`PATCH ${pipe}/scaling`) + 1).filter((r) => r === `GET ${pipe}`).length,
    ).toBeGreaterThan(1);
    expect(up.told).toContain('the ClickPipe "orders" is Modifying; waiting for the scaling to apply');
    expect(["Modifying", "Provisioning"]).not.toContain(d.state().get("orders")?.outputs?.state);
    expect((await livePipe(d.emu, "orders")).scaling).toMatchObject({ replicas: 4 });
  });

  it("#583: scaling on a CDC pipe fails preview; a refused stop after create keeps the pipe in the state", async () => {
    d.write(clickPipes({ orders: SCALED, cdc: withValue(PROGRAMS.postgres, "scaling", { replicas: 2 }) }));
    const preview = await run("preview", false);
    expect(preview.told).toContain("ClickPipeCdcInfrastructure");
    expect(writes()).toEqual([]);

    d.write(clickPipes({ orders: SCALED, held: HELD }));
    d.emu.setFaults({ failBeforeCommit: { method: "PATCH", pathPattern: /clickpipes\/[^/]+\/state$/, count: 10 } });
    const refused = await run("up", false).finally(() => d.emu.setFaults({}));
    expect(refused.ok).toBe(false);
    const made = await pathOf("held-orders");
    expect(writes().filter((w) => !w.endsWith("/state"))).toEqual([`POST ${PIPES}`]);
    expect(d.state().get("held")).toMatchObject({ id: made.split("/").pop(), outputs: { stopped: false } });

    expect(changes(await run("up"))).toEqual(["update held"]);
    expect(writes()).toEqual([`PATCH ${made}/state`]);
    expect(await livePipe(d.emu, "held-orders")).toMatchObject({ state: "Stopped" });
  });

  it("#383: a Failed pipe: preview does not fail, up starts it (stopped is false), state is an output only", async () => {
    d.write(clickPipes({ orders: SCALED, held: HELD, failing: FAILING }));
    expect(changes(await run("up"))).toEqual(["create failing"]);
    while ((await livePipe(d.emu, "failing-orders")).state !== "Failed") await sleep(STEP_MS);

    const refresh = await run("refresh");
    expect(changes(refresh)).toEqual(["refresh-update failing"]);
    expect(refresh.told).toContain('the ClickPipe "failing-orders" is Failed');
    expect(d.state().get("failing")?.outputs).toMatchObject({ state: "Failed", stopped: true });
    expect(d.state().get("failing")?.inputs).not.toHaveProperty("state");
    expect(changes(await run("preview"))).toEqual(["update failing"]);

    const failing = await pathOf("failing-orders");
    writes();
    const up = await run("up");
    expect(changes(up)).toEqual(["update failing"]);
    expect(up.told).toContain('starting the ClickPipe "failing-orders", which is Failed');
    expect(writes()).toEqual([`PATCH ${failing}/state`]);
    expect((await livePipe(d.emu, "failing-orders")).state).not.toBe("Failed");
  });

  it("destroys every pipe the replays made, leaving none outside the state", async () => {
    expect(changes(await run("destroy"))).toEqual(["delete failing", "delete held", "delete orders"]);
    expect(await livePipes(d.emu)).toEqual([]);
  });
});
