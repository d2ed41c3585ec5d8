// One program through both front doors on the real engine, each with the same verbs: the dynamic
// classes (Automation API, inline program) and Pulumi YAML through the plugin.

import { expect } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { StackConfig } from "../../scripts/exampleStack";
import { engineOutcome, ourState, stackWith, type RunOutcome, type StateResource } from "./engine";
import { PIPE_IDS } from "./fixtures";
import { cliOutcome, yamlProgram, yamlStack } from "./yamlStack";

/** The emulator's ClickHouse Cloud mode (managed ClickStack), pacing off for speed. */
export const CLOUD_MODE = { cloudDialect: "clickhouse", rateLimits: { cloud: false, alerting: false } } as const;

/**
 * What the guide (docs/guides/real-accounts.md) names for ClickHouse Cloud and managed ClickStack
 * behind a host of its own, for the service of PIPE_IDS; pacing off for speed.
 */
/** A stack's config for the emulator's ClickHouse Cloud API: its key, the Cloud's dialect, no pacing. */
export function cloudConfig(emu: RunningEmulator): StackConfig {
  return {
    "alertpipe:cloudUrl": { value: emu.url },
    "alertpipe:cloudKeyId": { value: emu.keyId },
    "alertpipe:cloudKeySecret": { value: emu.keySecret, secret: true },
    "alertpipe:cloudDialect": { value: "clickhouse" },
    "alertpipe:cloudRateLimit": { value: "off" },
  };
}

/** The real-accounts guide's config: the Cloud's, and managed ClickStack's organization and service. */
export function guideConfig(emu: RunningEmulator): StackConfig {
  return {
    ...cloudConfig(emu),
    "alertpipe:clickstackOrganizationId": { value: PIPE_IDS.organizationId },
    "alertpipe:clickstackServiceId": { value: PIPE_IDS.serviceId },
  };
}

export type DoorRun = "up" | "refresh" | "destroy" | "preview";

export interface Door {
  readonly emu: RunningEmulator;
  setConfig(config: StackConfig): Promise<void>;
  run(kind: DoorRun): Promise<RunOutcome>;
  state(): Map<string, StateResource>;
  exportText(): Promise<string>;
}

/** Pulumi YAML's door, whose program can be rewritten between runs. */
export interface YamlDoor extends Door {
  /** Replaces the program's resources: the next run is of these. */
  write(resources: Record<string, unknown>): void;
}

/** The dynamic classes: `program` runs inline, with the installed package. */
export async function dynamicDoor(
  emu: RunningEmulator,
  config: StackConfig,
  name: string,
  program: () => Promise<void>,
): Promise<Door> {
  const stack = await stackWith(config, name, { program });
  return {
    emu,
    setConfig: (more) => stack.setConfig(more),
    run: (kind) => engineOutcome(stack, kind),
    state: () => ourState(stack),
    exportText: () => stack.exportText(),
  };
}

/** Pulumi YAML through the plugin: `resources` as a Pulumi.yaml's. */
export async function yamlDoor(
  emu: RunningEmulator,
  config: StackConfig,
  resources: Record<string, unknown>,
): Promise<YamlDoor> {
  const yaml = await yamlStack(undefined, yamlProgram({ resources }), { config });
  const stack = yaml.stack;
  return {
    emu,
    setConfig: (more) => stack.setConfig(more),
    run: (kind) => cliOutcome(stack, kind),
    state: () => ourState(stack),
    exportText: () => stack.exportText(),
    write: (more) => yaml.write(yamlProgram({ resources: more })),
  };
}

/** The door's `run`, timed in the log under `label`; it must succeed unless `ok` is false. */
export function timedRun(label: string, door: () => Pick<Door, "run">) {
  return async (kind: DoorRun, ok = true) => {
    const t0 = Date.now();
    const r = await door().run(kind);
    console.log(`${label}: ${kind} ${Date.now() - t0} ms`);
    if (ok) expect(r.ok, r.told).toBe(true);
    return r;
  };
}
