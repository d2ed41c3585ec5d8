// A Kafka ClickPipe with a schema registry on the real engine, through both doors (the dynamic
// classes, and Pulumi YAML through the plugin), against the emulator's Cloud mode: up makes it with one
// POST; a second preview has nothing to do; replicas change in place; stopped then started; a broker
// change replaces it (deleting first: same name and table); destroy leaves nothing.

import { beforeAll, describe, expect, it } from "vitest";
import { changes } from "../support/engine";
import { timedRun, type YamlDoor } from "../support/cloudDoors";
import { PROGRAMS, withValue } from "../support/clickPipes";
import { PIPE_DOORS, clickPipes, livePipes, shortPipeSteps, takeWrites } from "../support/clickPipeDoors";

shortPipeSteps();

type Program = Record<string, unknown>;

describe.each(PIPE_DOORS)("a Kafka ClickPipe through %s", (door, open) => {
  let d: YamlDoor;
  const pipes = () => livePipes(d.emu);
  const timed = timedRun(door, () => d);
  const run = async (kind: "up" | "destroy" | "preview", program: Program) => {
    d.write(clickPipes({ orders: program }));
    const r = await timed(kind);
    return { ...r, writes: takeWrites(d.emu) };
  };
  const scaled = withValue(PROGRAMS.kafka, "scaling.replicas", 4);

  beforeAll(async () => {
    d = await open(clickPipes({ orders: PROGRAMS.kafka }), "clickpipe");
  }, 300_000);

  it("makes the pipe with one POST, then has nothing to do", async () => {
    expect(changes(await run("up", PROGRAMS.kafka))).toEqual(["create orders"]);
    expect(JSON.stringify(await pipes())).not.toContain("kafka-password-1");
    // Credentials are secret in the state: never in plain text.
    const state = await d.exportText();
    expect(state).toContain("credentials");
    expect(state).not.toContain("kafka-password-1");
    expect(state).not.toContain("sr-password-1");
    expect(changes(await run("preview", PROGRAMS.kafka))).toEqual([]);
  });

  it("changes replicas in place", async () => {
    d.emu.resetRequestLog();
    const up = await run("up", scaled);
    expect(changes(up)).toEqual(["update orders"]);
    expect(up.writes).toEqual([expect.stringMatching(/\/scaling$/)]);
    expect((await pipes())[0]?.scaling).toMatchObject({ replicas: 4 });
  });

  it("stops the pipe, then starts it", async () => {
    expect(changes(await run("up", { ...scaled, stopped: true }))).toEqual(["update orders"]);
    expect((await pipes())[0]?.state).toBe("Stopped");
    expect(changes(await run("up", { ...scaled, stopped: false }))).toEqual(["update orders"]);
    expect((await pipes())[0]?.state).not.toBe("Stopped");
  });

  it("replaces the pipe when its brokers change, leaving one", async () => {
    const moved = withValue(scaled, "source.kafka.brokers", "broker-2:9092");
    const up = await run("up", moved);
    expect(changes(up)).toContain("replace orders");
    // Same name and table: the old pipe goes before the new one is made.
    const deleted = up.writes.findIndex((w) => w.startsWith("DELETE "));
    expect(deleted).toBeGreaterThanOrEqual(0);
    expect(up.writes.findIndex((w) => w.startsWith("POST "))).toBeGreaterThan(deleted);
    const all = await pipes();
    expect(all).toHaveLength(1);
    expect(all[0]?.source).toMatchObject({ kafka: { brokers: "broker-2:9092" } });
  });

  it("destroys it and leaves nothing", async () => {
    expect(changes(await run("destroy", PROGRAMS.kafka))).toEqual(["delete orders"]);
    expect(await pipes()).toEqual([]);
  });
});
