// A Kafka ClickPipe with a schema registry on the real engine, through both doors (the dynamic
// classes, and Pulumi YAML through the plugin), against the emulator's Cloud mode: up makes it with one
// POST; a second preview has nothing to do; replicas change in place; stopped then started; a broker
// change replaces it (deleting first: same name and table); destroy leaves nothing.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { Step } from "../../scripts/engine/stack";
import { changes, emulator as startEmulator, installedPackage, requestLog, stackWith, told } from "../support/engine";
import { CLOUD_MODE, cloudConfig } from "../support/cloudDoors";
import { PROGRAMS, withValue } from "../support/clickPipes";
import { yamlProgram, yamlStack } from "../support/yamlStack";

const { organizationId: ORG, serviceId: SVC } = PROGRAMS.kafka;
const PIPES = `/v1/organizations/${ORG}/services/${SVC}/clickpipes`;
const isWrite = (method: string) => method !== "GET";

let savedStep: string | undefined;
beforeAll(() => {
  savedStep = process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
  process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = "50";
});
afterAll(() => {
  if (savedStep === undefined) delete process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
  else process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = savedStep;
});

type Program = Record<string, unknown>;

interface Door {
  emu: RunningEmulator;
  run(kind: "up" | "destroy" | "preview", program: Program): Promise<{ ok: boolean; steps: Step[]; told: string }>;
  stateText(): string;
}

async function dynamicDoor(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  let current: Program = PROGRAMS.kafka;
  const stack = await stackWith(cloudConfig(emu), "clickpipe", {
    program: async () => {
      const pkg = installedPackage() as unknown as { ClickPipe: new (name: string, args: Program) => unknown };
      new pkg.ClickPipe("orders", current);
    },
  });
  return {
    emu,
    run: async (kind, program) => {
      current = program;
      const r = await stack[kind]();
      return { ok: r.ok, steps: r.steps, told: told(r) };
    },
    stateText: () => stack.readStateFile(),
  };
}

async function yamlDoor(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  const text = (program: Program) =>
    yamlProgram({ resources: { orders: { type: "alertpipe:index:ClickPipe", properties: program } } });
  const yaml = await yamlStack(undefined, text(PROGRAMS.kafka), { config: cloudConfig(emu) });
  const args = { up: ["up", "--yes"], destroy: ["destroy", "--yes"], preview: ["preview", "--diff"] };
  return {
    emu,
    run: async (kind, program) => {
      yaml.write(text(program));
      const r = await yaml.stack.runLogged(kind, args[kind]);
      return { ok: r.code === 0, steps: r.steps, told: `${r.output}\n${r.diagnostics.join("\n")}` };
    },
    stateText: () => yaml.stack.readStateFile(),
  };
}

describe.each([
  ["the dynamic classes", dynamicDoor],
  ["Pulumi YAML through the plugin", yamlDoor],
])("a Kafka ClickPipe through %s", (door, open) => {
  let d: Door;
  const pipes = async () => {
    const res = await fetch(`${d.emu.url}${PIPES}`, {
      headers: { authorization: `Basic ${Buffer.from(`${d.emu.keyId}:${d.emu.keySecret}`).toString("base64")}` },
    });
    return ((await res.json()) as { result: Array<Record<string, unknown>> }).result;
  };
  const run = async (kind: "up" | "destroy" | "preview", program: Program) => {
    const t0 = Date.now();
    const r = await d.run(kind, program);
    console.log(`${door}: ${kind} ${Date.now() - t0} ms`);
    expect(r.ok, r.told).toBe(true);
    const writes = requestLog(d.emu, isWrite);
    d.emu.resetRequestLog();
    return { ...r, writes };
  };
  const scaled = withValue(PROGRAMS.kafka, "scaling.replicas", 4);

  beforeAll(async () => {
    d = await open();
  }, 300_000);

  it("makes the pipe with one POST, then has nothing to do", async () => {
    expect(changes(await run("up", PROGRAMS.kafka))).toEqual(["create orders"]);
    expect(JSON.stringify(await pipes())).not.toContain("kafka-password-1");
    // Credentials are secret in the state: never in plain text.
    expect(d.stateText()).toContain("credentials");
    expect(d.stateText()).not.toContain("kafka-password-1");
    expect(d.stateText()).not.toContain("sr-password-1");
    expect(changes(await run("preview", PROGRAMS.kafka))).toEqual([]);
  });

  it("changes replicas in place", async () => {
    d.emu.resetRequestLog();
    const up = await d.run("up", scaled);
    expect(up.ok, up.told).toBe(true);
    expect(changes(up)).toEqual(["update orders"]);
    expect(requestLog(d.emu, isWrite)).toEqual([expect.stringMatching(/\/scaling$/)]);
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
