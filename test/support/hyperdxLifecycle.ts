// The lifecycle of a program written for HyperDX, through either door (the dynamic classes by the
// Automation API, Pulumi YAML through the plugin): a webhook, a saved search, a search alert on it
// notifying two webhooks and a tile alert; up, a second up, a threshold changed by hand, refresh, up,
// destroy. Recorded from the real server (test/engine/recordHyperdx.ts) and replayed from that
// recording (test/engine/hyperdx.replay.test.ts).

import type { StackConfig } from "../../scripts/exampleStack";
import { engineOutcome, installedPackage, stackWith, stateIds, type RunOutcome } from "./engine";
import { cliOutcome, yamlProgram, yamlStack } from "./yamlStack";

export const DOORS = ["dynamic", "yaml"] as const;
export type Door = (typeof DOORS)[number];

/** What the program refers to that it does not make: made by hand before it runs. */
export interface ProgramRefs {
  readonly webhookId: string;
  readonly sourceId: string;
  readonly dashboardId: string;
  readonly tileId: string;
}

/** The runs of a lifecycle, in order; the change by hand comes before `refresh`. */
export const RUNS = [
  { label: "up", kind: "up" },
  { label: "up again", kind: "up" },
  { label: "refresh", kind: "refresh" },
  { label: "up after refresh", kind: "up" },
  { label: "destroy", kind: "destroy" },
] as const;

export type RunKind = (typeof RUNS)[number]["kind"];

export interface LifecycleDoor {
  run(kind: RunKind): Promise<RunOutcome>;
  /** The ids the stack's state holds, by resource name. */
  ids(): Record<string, string>;
}

const webhook = (webhookId: unknown) => ({ type: "webhook", webhookId });

/** The program's four resources, its references as `ref` spells them (an Output, or YAML's `${name.id}`). */
export function resources(door: Door, r: ProgramRefs, ref: (name: string) => unknown) {
  return {
    hook: { name: `${door}-ops`, service: "generic", url: `https://hooks.example.com/${door}` },
    errors: { name: `${door}-errors`, sourceId: r.sourceId, where: "level:error" },
    onSearch: {
      name: `${door} errors`,
      source: "search",
      savedSearchId: ref("errors"),
      threshold: 10,
      thresholdType: "above",
      interval: "5m",
      channels: [webhook(ref("hook")), webhook(r.webhookId)],
    },
    onTile: {
      name: `${door} tile`,
      source: "tile",
      dashboardId: r.dashboardId,
      tileId: r.tileId,
      threshold: 5,
      thresholdType: "above",
      interval: "5m",
      channel: webhook(ref("hook")),
    },
  };
}

/** The stack config that points the provider at a HyperDX server: the alerting area alone. */
export function alertingConfig(url: string, key: string): StackConfig {
  return {
    "alertpipe:alertingUrl": { value: url },
    "alertpipe:alertingToken": { value: key, secret: true },
  };
}

async function dynamicDoor(config: StackConfig, refs: ProgramRefs, name: string): Promise<LifecycleDoor> {
  const stack = await stackWith(config, name, {
    program: async () => {
      const pkg = installedPackage();
      const made: Record<string, { id: unknown }> = {};
      const args = resources("dynamic", refs, (n) => made[n]?.id);
      made.hook = new pkg.Webhook("hook", args.hook as never);
      made.errors = new pkg.SavedSearch("errors", args.errors);
      // Built again now that hook and errors exist: their ids are Outputs.
      const withIds = resources("dynamic", refs, (n) => made[n]?.id);
      new pkg.Alert("onSearch", withIds.onSearch as never);
      new pkg.Alert("onTile", withIds.onTile as never);
    },
  });
  return { run: (kind) => engineOutcome(stack, kind), ids: () => stateIds(stack) };
}

async function yamlDoor(config: StackConfig, refs: ProgramRefs): Promise<LifecycleDoor> {
  const parts = resources("yaml", refs, (n) => `\${${n}.id}`);
  const types = { hook: "Webhook", errors: "SavedSearch", onSearch: "Alert", onTile: "Alert" } as const;
  const program = Object.fromEntries(
    Object.entries(parts).map(([n, properties]) => [
      n,
      { type: `alertpipe:index:${types[n as keyof typeof types]}`, properties },
    ]),
  );
  const yaml = await yamlStack(undefined, yamlProgram({ resources: program }), { config });
  return { run: (kind) => cliOutcome(yaml.stack, kind), ids: () => stateIds(yaml.stack) };
}

/** A stack of the program through `door`, its provider pointed by `config`. */
export function openDoor(door: Door, config: StackConfig, refs: ProgramRefs): Promise<LifecycleDoor> {
  return door === "dynamic" ? dynamicDoor(config, refs, "hyperdx") : yamlDoor(config, refs);
}

/** The recording's name of a door's lifecycle. */
export const lifecycleScenario = (door: Door): string => `lifecycle-${door}`;
