// One pipe, its settings managed by both its ClickPipe and a PipeSettings, on the real engine through
// both doors against the emulator's Cloud mode: each owns what it names, so a second up and a preview
// have nothing to do and a refresh finds no drift; a setting both name fails preview naming the
// ClickPipe (docs/design/clickpipes.md, "PipeSettings and ClickPipe.settings"). And the YAML program of
// docs/guides/clickpipes-as-code.md as a reader copies it: up, then a preview with nothing to do.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import {
  changes,
  emulator as startEmulator,
  engineOutcome,
  installedPackage,
  stackWith,
  type RunOutcome,
} from "../support/engine";
import { CLOUD_MODE, cloudConfig } from "../support/cloudDoors";
import { PROGRAMS, shortPipeSteps } from "../support/clickPipes";
import { documentedYamlProgram, yamlProgram, yamlStack } from "../support/yamlStack";

shortPipeSteps(50);

type Program = Record<string, unknown>;
type Kind = "up" | "preview" | "refresh";
/** The PipeSettings' own settings; the ClickPipe (PROGRAMS.kafka) sets streamingMaxInsertWaitMs and kafkaReadCommitted. */
const TUNING: Program = { dbMaxInsertThreads: 4, dbMaxThreads: 8 };
const CLASH: Program = { ...TUNING, streamingMaxInsertWaitMs: 2000 };

interface Door {
  run(kind: Kind, tuning: Program): Promise<RunOutcome>;
}

async function dynamicDoor(emu: RunningEmulator): Promise<Door> {
  let tuning = TUNING;
  type Pkg = {
    ClickPipe: new (name: string, args: Program) => { clickPipeId: unknown };
    PipeSettings: new (name: string, args: Program) => unknown;
  };
  const stack = await stackWith(cloudConfig(emu), "clickpipe-settings", {
    program: async () => {
      const pkg = installedPackage() as unknown as Pkg;
      const pipe = new pkg.ClickPipe("orders", PROGRAMS.kafka);
      new pkg.PipeSettings("tuning", {
        organizationId: PROGRAMS.kafka.organizationId,
        serviceId: PROGRAMS.kafka.serviceId,
        pipeId: pipe.clickPipeId,
        ...tuning,
      });
    },
  });
  return {
    run: async (kind, next) => {
      tuning = next;
      return engineOutcome(stack, kind);
    },
  };
}

async function yamlDoor(emu: RunningEmulator): Promise<Door> {
  const text = (tuning: Program) =>
    yamlProgram({
      resources: {
        orders: { type: "alertpipe:index:ClickPipe", properties: PROGRAMS.kafka },
        tuning: {
          type: "alertpipe:index:PipeSettings",
          properties: {
            organizationId: PROGRAMS.kafka.organizationId,
            serviceId: PROGRAMS.kafka.serviceId,
            pipeId: "${orders.clickPipeId}",
            ...tuning,
          },
        },
      },
    });
  const yaml = await yamlStack(undefined, text(TUNING), { config: cloudConfig(emu) });
  const args = { up: ["up", "--yes"], preview: ["preview", "--diff"], refresh: ["refresh", "--yes"] };
  return {
    run: async (kind, tuning) => {
      yaml.write(text(tuning));
      const r = await yaml.stack.runLogged(kind, args[kind]);
      return { ok: r.code === 0, steps: r.steps, told: `${r.output}\n${r.diagnostics.join("\n")}` };
    },
  };
}

describe.each([
  ["the dynamic classes", dynamicDoor],
  ["Pulumi YAML through the plugin", yamlDoor],
])("a pipe's settings from its ClickPipe and a PipeSettings, through %s", (_door, open) => {
  let emu: RunningEmulator;
  let d: Door;
  const ok = async (kind: Kind, tuning: Program) => {
    const r = await d.run(kind, tuning);
    expect(r.ok, r.told).toBe(true);
    return r;
  };

  beforeAll(async () => {
    emu = await startEmulator(CLOUD_MODE);
    d = await open(emu);
  }, 300_000);

  it("two ups, then a preview: nothing to do", async () => {
    expect(changes(await ok("up", TUNING))).toEqual(["create orders", "create tuning"]);
    expect(changes(await ok("up", TUNING))).toEqual([]);
    expect(changes(await ok("preview", TUNING))).toEqual([]);
  });

  it("a refresh finds no drift, and the preview after it has nothing to do", async () => {
    expect(changes(await ok("refresh", TUNING))).toEqual([]);
    expect(changes(await ok("preview", TUNING))).toEqual([]);
  });

  it("a setting both name fails preview, naming the setting and the ClickPipe", async () => {
    const r = await d.run("preview", CLASH);
    expect(r.ok).toBe(false);
    expect(r.told).toMatch(
      /streamingMaxInsertWaitMs is also set by a ClickPipe of this program: the ClickPipe [0-9a-f-]+ sets it/,
    );
  });
});

describe("the YAML program of docs/guides/clickpipes-as-code.md", () => {
  it("comes up as it stands (a Postgres pipe and the CDC capacity), then has nothing to do", async () => {
    const emu = await startEmulator(CLOUD_MODE);
    const program = documentedYamlProgram("docs/guides/clickpipes-as-code.md", "clickpipes-yaml");
    const yaml = await yamlStack(undefined, program, {
      config: { ...cloudConfig(emu), "clickpipes-yaml:pgPassword": { value: "pg-password-1", secret: true } },
    });
    const up = await yaml.stack.runLogged("up", ["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect(changes(up)).toEqual(["create cdc", "create users"]);
    expect(yaml.stack.readStateFile()).not.toContain("pg-password-1");
    const preview = await yaml.stack.runLogged("preview", ["preview", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(changes(preview)).toEqual([]);
  }, 300_000);
});
