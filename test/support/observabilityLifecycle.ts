// The lifecycle of a whole observability program written for HyperDX, through the dynamic door:
// connection → log source → dashboard of three tiles → saved search → webhook → two tile alerts (by
// `tileIds`) and a search alert. up; up again; an alerted tile moved and another renamed in place (the
// dashboard updated, its alerts not); an alert moved to another tile (replaced); destroy. Recorded
// from the real server (test/engine/recordHyperdx.ts), replayed from that recording
// (test/engine/hyperdx.replay.test.ts).

import type { StackConfig } from "../../scripts/exampleStack";
import type { AlertpipePackage } from "../../scripts/exampleStack";
import { engineOutcome, installedPackage, stackWith, stateIds } from "./engine";
import { LOG_SOURCE, TRACE_SOURCE } from "./sources";
import type { LifecycleDoor } from "./hyperdxLifecycle";

export const OBSERVABILITY_SCENARIO = "lifecycle-observability-dynamic";

export type Phase = "base" | "moved" | "alertMoved";

/** The runs, in order: the program's phase for each, and what each changes. */
export const OBSERVABILITY_RUNS = [
  {
    label: "up",
    kind: "up",
    phase: "base",
    changes: ["ch", "errorRate", "errors", "errorsHigh", "hook", "latencyHigh", "logs", "ops"].map(
      (n) => `create ${n}`,
    ),
  },
  { label: "up again", kind: "up", phase: "base", changes: [] },
  { label: "tiles moved and renamed", kind: "up", phase: "moved", changes: ["update ops"] },
  { label: "alert moved to another tile", kind: "up", phase: "alertMoved", changes: ["replace latencyHigh"] },
  {
    label: "destroy",
    kind: "destroy",
    phase: "alertMoved",
    changes: ["ch", "errorRate", "errors", "errorsHigh", "hook", "latencyHigh", "logs", "ops"].map(
      (n) => `delete ${n}`,
    ),
  },
] as const satisfies readonly { label: string; kind: "up" | "destroy"; phase: Phase; changes: readonly string[] }[];

export const ALERT = { threshold: 10, thresholdType: "above", interval: "5m" };

/** The tiles of a phase, the source's id given (a reference or a YAML interpolation). */
export function tiles(phase: Phase, sourceId: unknown) {
  const count = (displayType: string) => ({ displayType, sourceId, select: [{ aggFn: "count" }] });
  const errors = { name: "Errors", x: 0, y: 0, w: 6, h: 3, config: count("line") };
  const latency = { name: "Latency", x: 6, y: 0, w: 6, h: 3, config: count("number") };
  const notes = { name: "Notes", x: 12, y: 0, w: 6, h: 3, config: { displayType: "markdown", markdown: "runbook" } };
  if (phase === "base") return [errors, latency, notes];
  // Errors and Notes swap places; Latency is renamed where it stands.
  return [
    { ...notes, x: 0 },
    { ...latency, name: "p99 latency" },
    { ...errors, x: 12 },
  ];
}

/** Which tile each tile alert names, by tileIds key. */
export const tileOf = (phase: Phase): Record<string, string> => ({
  errorsHigh: "Errors",
  latencyHigh: phase === "base" ? "Latency" : phase === "moved" ? "p99 latency" : "Errors",
});

/** What one program's objects are called, and where its sources' connection comes from. */
export interface ObservabilityProgram {
  /** A Connection "ch" of these properties, or the id of one the platform made. */
  connection: Record<string, unknown> | string;
  logs: string;
  /** A trace source "traces" as well, of this name. */
  traces?: string;
  ops: string;
  tags?: string[];
  /** The dashboard's tiles, given the sources' ids. */
  tiles(logsId: unknown, tracesId: unknown): unknown[];
  /** Each tile alert's name and the tile it names. */
  tileAlerts: Record<string, string>;
  search: string;
  hook: string;
  url: string;
}

/**
 * The program through the dynamic classes: connection → sources → dashboard → saved search → webhook →
 * the tile alerts (by `tileIds`) and a search alert "errorRate".
 */
export function observabilityProgram(pkg: AlertpipePackage, o: ObservabilityProgram): void {
  const connection =
    typeof o.connection === "string" ? o.connection : new pkg.Connection("ch", o.connection as never).id;
  const logs = new pkg.Source("logs", { ...LOG_SOURCE, name: o.logs, connection } as never);
  const traces =
    o.traces === undefined
      ? undefined
      : new pkg.Source("traces", { ...TRACE_SOURCE, name: o.traces, connection } as never);
  const dashboard = {
    name: o.ops,
    ...(o.tags === undefined ? {} : { tags: o.tags }),
    tiles: o.tiles(logs.id, traces?.id),
  };
  const ops = new pkg.Dashboard("ops", dashboard as never);
  const search = new pkg.SavedSearch("errors", { name: o.search, sourceId: logs.id, where: "level:error" });
  const hook = new pkg.Webhook("hook", { name: o.hook, service: "generic", url: o.url } as never);
  const channel = { type: "webhook", webhookId: hook.id };
  for (const [name, tileName] of Object.entries(o.tileAlerts))
    new pkg.Alert(name, {
      ...ALERT,
      name,
      source: "tile",
      channel,
      dashboardId: ops.id,
      tileId: ops.tileIds.apply((ids: Record<string, string> | undefined) => ids?.[tileName]),
    } as never);
  new pkg.Alert("errorRate", {
    ...ALERT,
    name: "errorRate",
    source: "search",
    channel,
    savedSearchId: search.id,
  } as never);
}

/** The stack of the program, its phase set by each run. */
export async function observabilityDoor(config: StackConfig): Promise<LifecycleDoor & { phase(p: Phase): void }> {
  let phase: Phase = "base";
  const stack = await stackWith(config, "hyperdx-observability", {
    program: async () =>
      observabilityProgram(installedPackage(), {
        connection: {
          name: "ch-life",
          host: "http://127.0.0.1:1",
          username: "default",
          password: "life-pass-never-contacted",
        },
        logs: "Logs life",
        ops: "Ops life",
        tags: ["prod"],
        tiles: (logsId) => tiles(phase, logsId),
        tileAlerts: tileOf(phase),
        search: "errors-life",
        hook: "ops-life",
        url: "https://hooks.example.com/life",
      }),
  });
  return {
    phase: (p) => {
      phase = p;
    },
    run: (kind) => engineOutcome(stack, kind),
    ids: () => stateIds(stack),
  };
}
