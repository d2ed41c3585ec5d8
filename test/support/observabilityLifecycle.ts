// The lifecycle of a whole observability program written for HyperDX, through the dynamic door:
// connection → log source → dashboard of three tiles → saved search → webhook → two tile alerts (by
// `tileIds`) and a search alert. up; up again; an alerted tile moved and another renamed in place (the
// dashboard updated, its alerts not); an alert moved to another tile (replaced); destroy. Recorded
// from the real server (test/engine/recordHyperdx.ts), replayed from that recording
// (test/engine/hyperdx.replay.test.ts).

import type { StackConfig } from "../../scripts/exampleStack";
import { installedPackage, ourState, stackWith, told } from "./engine";
import type { LifecycleDoor } from "./hyperdxLifecycle";

export const OBSERVABILITY_SCENARIO = "lifecycle-observability-dynamic";

type Phase = "base" | "moved" | "alertMoved";

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

const ALERT = { threshold: 10, thresholdType: "above", interval: "5m" };

function tiles(phase: Phase, sourceId: unknown) {
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

const tileOf = (phase: Phase) => ({
  errorsHigh: "Errors",
  latencyHigh: phase === "base" ? "Latency" : phase === "moved" ? "p99 latency" : "Errors",
});

/** The stack of the program, its phase set by each run. */
export async function observabilityDoor(config: StackConfig): Promise<LifecycleDoor & { phase(p: Phase): void }> {
  let phase: Phase = "base";
  const stack = await stackWith(config, "hyperdx-observability", {
    program: async () => {
      const pkg = installedPackage();
      const ch = new pkg.Connection("ch", {
        name: "ch-life",
        host: "http://127.0.0.1:1",
        username: "default",
        password: "life-pass-never-contacted",
      });
      const logs = new pkg.Source("logs", {
        kind: "log",
        name: "Logs life",
        connection: ch.id,
        from: { databaseName: "default", tableName: "otel_logs" },
        timestampValueExpression: "Timestamp",
        defaultTableSelectExpression: "Timestamp, Body",
      } as never);
      const ops = new pkg.Dashboard("ops", { name: "Ops life", tags: ["prod"], tiles: tiles(phase, logs.id) } as never);
      const search = new pkg.SavedSearch("errors", { name: "errors-life", sourceId: logs.id, where: "level:error" });
      const hook = new pkg.Webhook("hook", {
        name: "ops-life",
        service: "generic",
        url: "https://hooks.example.com/life",
      } as never);
      const channel = { type: "webhook", webhookId: hook.id };
      for (const [name, tileName] of Object.entries(tileOf(phase)))
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
    },
  });
  return {
    phase: (p) => {
      phase = p;
    },
    run: async (kind) => {
      const r = await stack[kind]();
      return { ok: r.ok, steps: r.steps, told: told(r) };
    },
    ids: () => Object.fromEntries([...ourState(stack)].map(([n, r]) => [n, r.id ?? ""])),
  };
}
