// A source's materialized views, set by hand in the service (as in its UI), survive `pulumi up` of a
// rename on the real engine (issue 44, docs/design/fields-kept.md): through both doors (the dynamic
// class, Pulumi YAML through the plugin), against the emulator's HyperDX mode and its managed
// ClickStack. The refresh after it changes nothing.

import { describe, expect, it } from "vitest";
import { SEEDED_CONNECTION } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { emulatorConfig, type StackConfig } from "../../scripts/exampleStack";
import { changes, emulator, engineOutcome, installedPackage, stackWith, type RunOutcome } from "../support/engine";
import { CLICKSTACK_IDS } from "../support/emulatorPerTest";
import { asPutBody, objectByHand } from "../support/byHand";
import { cliOutcome, yamlProgram, yamlStack } from "../support/yamlStack";

type Where = "alerting" | "clickstack";
type Obj = Record<string, unknown>;

const logs = (name: string) => ({
  kind: "log",
  name,
  connection: SEEDED_CONNECTION.id,
  from: { databaseName: "default", tableName: "otel_logs" },
  timestampValueExpression: "Timestamp",
  defaultTableSelectExpression: "Timestamp, Body",
});
const VIEWS = {
  materializedViews: [
    {
      databaseName: "default",
      tableName: "otel_logs_mv_5m",
      dimensionColumns: "ServiceName",
      minGranularity: "5m",
      timestampColumn: "Timestamp",
      aggregatedColumns: [{ aggFn: "count", mvColumn: "count" }],
    },
  ],
};

/** HyperDX's own server, or managed ClickStack with the settings the guide names for it. */
async function service(where: Where): Promise<{ emu: RunningEmulator; config: StackConfig }> {
  const rateLimits = { cloud: false, alerting: false } as const;
  if (where === "alerting") {
    const emu = await emulator({ mode: "2026", rateLimits });
    return { emu, config: { ...emulatorConfig(emu), "alertpipe:alertingRateLimit": { value: "off" } } };
  }
  const emu = await emulator({ cloudDialect: "clickhouse", rateLimits });
  const { "alertpipe:alertingUrl": _u, "alertpipe:alertingToken": _t, ...cloud } = emulatorConfig(emu);
  return {
    emu,
    config: {
      ...cloud,
      "alertpipe:cloudDialect": { value: "clickhouse" },
      "alertpipe:clickstackOrganizationId": { value: CLICKSTACK_IDS.organizationId },
      "alertpipe:clickstackServiceId": { value: CLICKSTACK_IDS.serviceId },
      "alertpipe:cloudRateLimit": { value: "off" },
    },
  };
}

interface Door {
  /** `up` of the source named `name`, or a refresh. */
  run(kind: "up" | "refresh", name: string): Promise<RunOutcome>;
}

async function dynamicDoor(config: StackConfig, stackName: string): Promise<Door> {
  let name = "";
  const stack = await stackWith(config, stackName, {
    program: async () => {
      new (installedPackage().Source)("logs", logs(name) as never);
    },
  });
  return {
    run: async (kind, next) => {
      name = next;
      return engineOutcome(stack, kind);
    },
  };
}

async function yamlDoor(config: StackConfig): Promise<Door> {
  const program = (name: string) =>
    yamlProgram({ resources: { logs: { type: "alertpipe:index:Source", properties: logs(name) } } });
  const yaml = await yamlStack(undefined, program(""), { config });
  return {
    run: async (kind, name) => {
      yaml.write(program(name));
      return cliOutcome(yaml.stack, kind);
    },
  };
}

describe.each([
  ["HyperDX", "alerting", "the dynamic class"],
  ["HyperDX", "alerting", "Pulumi YAML through the plugin"],
  ["managed ClickStack", "clickstack", "the dynamic class"],
  ["managed ClickStack", "clickstack", "Pulumi YAML through the plugin"],
] as const)("a source's materialized views on %s (%s), through %s", (_on, where, door) => {
  it("survive an up that renames the source, and the refresh after it changes nothing", async () => {
    const { emu, config } = await service(where);
    const d = door === "the dynamic class" ? await dynamicDoor(config, `kept-${where}`) : await yamlDoor(config);
    const run = async (kind: "up" | "refresh", name: string) => {
      const r = await d.run(kind, name);
      expect(r.ok, r.told).toBe(true);
      return r;
    };
    expect(changes(await run("up", "Kept logs"))).toEqual(["create logs"]);
    const id = Object.keys(emu.snapshot().sources ?? {}).find((k) => emu.snapshot().sources?.[k]?.name === "Kept logs");
    expect(id, "the source made").toBeDefined();
    const hand = (method: string, body?: unknown) => objectByHand(emu, where, method, `/sources/${id ?? ""}`, body);
    await hand("PUT", { ...asPutBody(await hand("GET")), ...VIEWS });

    expect(changes(await run("up", "Kept logs renamed"))).toEqual(["update logs"]);
    const held: Obj = await hand("GET");
    expect(held).toMatchObject({ name: "Kept logs renamed", ...VIEWS });
    expect(changes(await run("refresh", "Kept logs renamed"))).toEqual([]);
  }, 300_000);
});
