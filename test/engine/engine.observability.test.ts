// A whole observability stack on the real engine through both doors, against the emulator's HyperDX
// (2026) mode: connection → source → dashboard with three tiles → saved search → webhook → two tile
// alerts and a search alert, wired by reference (tile alerts by `tileIds`). up; a no-op preview; an
// alerted tile moved and another renamed in place (their alerts unchanged, every id kept); an alert
// moved to another tile (replaced, nothing left behind); drift of the dashboard seen by refresh; a
// destroy refused while an alert made outside the stack sits on the dashboard, then leaving nothing.
// Then the same program on the emulator's ClickHouse Cloud mode (managed ClickStack), without the
// connection, which the platform makes there: sources on its id → dashboard → saved search → webhook
// → a tile alert and a search alert; up, a no-op preview, destroy leaving nothing.

import { beforeAll, describe, expect, it } from "vitest";
import { SEEDED_CONNECTION, SEEDED_SOURCES, type RunningEmulator } from "../../emulator";
import type { StackConfig } from "../../scripts/exampleStack";
import type { Step } from "../../scripts/engine/stack";
import {
  byHand,
  changes,
  emulator as startEmulator,
  installedPackage,
  newStack,
  requestLog,
  stackWith,
  told,
} from "../support/engine";
import { PIPE_IDS } from "../support/fixtures";
import { LOG_SOURCE, TRACE_SOURCE } from "../support/sources";
import { yamlProgram, yamlStack } from "../support/yamlStack";

type Phase = "base" | "moved" | "alertMoved";
const MODE = { mode: "2026", rateLimits: { cloud: false, alerting: false } } as const;
const PASSWORD = "ch-CANARY-5e2a-never-in-plain-text";
const CH = { name: "ch", host: "http://127.0.0.1:8123", username: "default", password: PASSWORD };
const ALERT = { threshold: 10, thresholdType: "above", interval: "5m" };

/** The tiles of a phase, the source's id given (a reference or a YAML interpolation). */
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
/** Which tile each tile alert names, by tileIds key. */
const tileOf = (phase: Phase) => ({
  errorsHigh: "Errors",
  latencyHigh: phase === "base" ? "Latency" : phase === "moved" ? "p99 latency" : "Errors",
});

interface Door {
  emu: RunningEmulator;
  phase(p: Phase): void;
  run(kind: "up" | "refresh" | "destroy" | "preview"): Promise<{ ok: boolean; steps: Step[]; told: string }>;
  exportText(): Promise<string>;
}

async function dynamicDoor(): Promise<Door> {
  let phase: Phase = "base";
  const { emu, stack } = await newStack(
    "observability",
    async (pkg) => {
      const ch = new pkg.Connection("ch", CH);
      const logs = new pkg.Source("logs", { ...LOG_SOURCE, connection: ch.id } as never);
      const ops = new pkg.Dashboard("ops", { name: "Ops", tags: ["prod"], tiles: tiles(phase, logs.id) } as never);
      const search = new pkg.SavedSearch("errors", { name: "errors", sourceId: logs.id, where: "level:error" });
      const hook = new pkg.Webhook("hook", { name: "ops", service: "generic", url: "https://hooks.example.com/ops" });
      const channel = { type: "webhook", webhookId: hook.id };
      for (const [name, tileName] of Object.entries(tileOf(phase)))
        new pkg.Alert(name, {
          ...ALERT,
          name,
          source: "tile",
          channel,
          dashboardId: ops.id,
          tileId: ops.tileIds.apply((ids) => ids?.[tileName]),
        } as never);
      new pkg.Alert("errorRate", {
        ...ALERT,
        name: "errorRate",
        source: "search",
        channel,
        savedSearchId: search.id,
      } as never);
    },
    { emulator: MODE },
  );
  return {
    emu,
    phase: (p) => {
      phase = p;
    },
    run: async (kind) => {
      const r = await stack[kind]();
      return { ok: r.ok, steps: r.steps, told: told(r) };
    },
    exportText: () => stack.exportText(),
  };
}

function yamlResources(phase: Phase): Record<string, unknown> {
  const channel = { type: "webhook", webhookId: "${hook.id}" };
  const alerts = Object.fromEntries(
    Object.entries(tileOf(phase)).map(([name, tileName]) => [
      name,
      {
        type: "alertpipe:index:Alert",
        properties: {
          ...ALERT,
          name,
          source: "tile",
          channel,
          dashboardId: "${ops.id}",
          tileId: `\${ops.tileIds["${tileName}"]}`,
        },
      },
    ]),
  );
  return {
    ch: { type: "alertpipe:index:Connection", properties: CH },
    logs: { type: "alertpipe:index:Source", properties: { ...LOG_SOURCE, connection: "${ch.id}" } },
    ops: {
      type: "alertpipe:index:Dashboard",
      properties: { name: "Ops", tags: ["prod"], tiles: tiles(phase, "${logs.id}") },
    },
    errors: {
      type: "alertpipe:index:SavedSearch",
      properties: { name: "errors", sourceId: "${logs.id}", where: "level:error" },
    },
    hook: {
      type: "alertpipe:index:Webhook",
      properties: { name: "ops", service: "generic", url: "https://hooks.example.com/ops" },
    },
    ...alerts,
    errorRate: {
      type: "alertpipe:index:Alert",
      properties: { ...ALERT, name: "errorRate", source: "search", channel, savedSearchId: "${errors.id}" },
    },
  };
}

async function yamlDoor(): Promise<Door> {
  const emu = await startEmulator(MODE);
  const yaml = await yamlStack(emu, yamlProgram({ resources: yamlResources("base") }));
  const args = {
    up: ["up", "--yes"],
    refresh: ["refresh", "--yes"],
    destroy: ["destroy", "--yes"],
    preview: ["preview"],
  };
  return {
    emu,
    phase: (p) => yaml.write(yamlProgram({ resources: yamlResources(p) })),
    run: async (kind) => {
      const r = await yaml.stack.runLogged(kind, args[kind]);
      return { ok: r.code === 0, steps: r.steps, told: `${r.output}\n${r.diagnostics.join("\n")}` };
    },
    exportText: () => yaml.stack.exportText(),
  };
}

describe.each([
  ["the dynamic classes", dynamicDoor],
  ["Pulumi YAML through the plugin", yamlDoor],
])("a whole observability stack, through %s", (doorName, open) => {
  let door: Door;
  const snap = () => door.emu.snapshot();
  const alertIdOf = (name: string) => Object.values(snap().alerts).find((a) => a.name === name)?.id;
  const dashboardId = () => Object.keys(snap().dashboards ?? {})[0] ?? "";
  const run = async (kind: Parameters<Door["run"]>[0], ok = true) => {
    const t0 = Date.now();
    const r = await door.run(kind);
    console.log(`${doorName}: ${kind} ${Date.now() - t0} ms`);
    if (ok) expect(r.ok, r.told).toBe(true);
    return r;
  };
  let ids: Record<string, string | undefined> = {};

  beforeAll(async () => {
    door = await open();
  }, 300_000);

  it("makes the whole stack in one up, each tile alert on its tile", async () => {
    const up = await run("up");
    expect(changes(up)).toEqual(
      ["ch", "errorRate", "errors", "errorsHigh", "hook", "latencyHigh", "logs", "ops"].map((n) => `create ${n}`),
    );
    const board = snap().dashboards?.[dashboardId()] as { tiles: { id: string; name: string }[] };
    const tile = (name: string) => board.tiles.find((t) => t.name === name)?.id;
    expect(snap().alerts[alertIdOf("errorsHigh") ?? ""]).toMatchObject({ tileId: tile("Errors") });
    expect(snap().alerts[alertIdOf("latencyHigh") ?? ""]).toMatchObject({ tileId: tile("Latency") });
    ids = {
      errorsHigh: alertIdOf("errorsHigh"),
      latencyHigh: alertIdOf("latencyHigh"),
      errorRate: alertIdOf("errorRate"),
    };
    expect(await door.exportText()).not.toContain(PASSWORD);
  });

  it("previews no change", async () => {
    const preview = await run("preview");
    expect(changes(preview)).toEqual([]);
  });

  it("moves one alerted tile and renames another in place, the alerts and every id unchanged", async () => {
    const before = snap().dashboards?.[dashboardId()] as { tiles: { id: string }[] };
    door.phase("moved");
    const up = await run("up");
    expect(changes(up)).toEqual(["update ops"]);
    const after = snap().dashboards?.[dashboardId()] as { tiles: { id: string; name: string }[] };
    expect(after.tiles.map((t) => t.id).sort()).toEqual(before.tiles.map((t) => t.id).sort());
    expect({ errorsHigh: alertIdOf("errorsHigh"), latencyHigh: alertIdOf("latencyHigh") }).toEqual({
      errorsHigh: ids.errorsHigh,
      latencyHigh: ids.latencyHigh,
    });
    expect(Object.keys(snap().alerts)).toHaveLength(3);
  });

  it("replaces an alert moved to another tile, leaving nothing behind", async () => {
    door.phase("alertMoved");
    door.emu.resetRequestLog();
    const up = await run("up");
    expect(changes(up)).toEqual(["replace latencyHigh"]);
    // Made on its new tile before the old one's delete.
    const writes = requestLog(door.emu, (m) => m !== "GET");
    expect(writes.indexOf("POST /api/v2/alerts")).toBeGreaterThanOrEqual(0);
    expect(writes.indexOf(`DELETE /api/v2/alerts/${ids.latencyHigh}`)).toBeGreaterThan(
      writes.indexOf("POST /api/v2/alerts"),
    );
    const board = snap().dashboards?.[dashboardId()] as { tiles: { id: string; name: string }[] };
    const errorsTile = board.tiles.find((t) => t.name === "Errors")?.id;
    expect(Object.keys(snap().alerts)).toHaveLength(3);
    expect(snap().alerts[ids.latencyHigh ?? ""]).toBeUndefined();
    expect(snap().alerts[alertIdOf("latencyHigh") ?? ""]).toMatchObject({ tileId: errorsTile });
  });

  it("sees the dashboard renamed by hand on refresh, and puts it back on up", async () => {
    const board = snap().dashboards?.[dashboardId()] as { tiles: unknown[] };
    await byHand(door.emu, "PUT", `/api/v2/dashboards/${dashboardId()}`, {
      name: "Renamed by hand",
      tiles: board.tiles,
    });
    const refresh = await run("refresh");
    expect(changes(refresh)).toContain("refresh-update ops");
    await run("up");
    expect(snap().dashboards?.[dashboardId()]).toMatchObject({ name: "Ops" });
  });

  it("refuses to destroy the dashboard while an alert made outside the stack sits on it, then leaves nothing", async () => {
    const board = snap().dashboards?.[dashboardId()] as { tiles: { id: string; name: string }[] };
    const hookId = Object.keys(snap().webhooks ?? {})[0];
    const outside = (await byHand(door.emu, "POST", "/api/v2/alerts", {
      ...ALERT,
      name: "someone else's",
      source: "tile",
      channel: { type: "webhook", webhookId: hookId },
      dashboardId: dashboardId(),
      tileId: board.tiles.find((t) => t.name === "Errors")?.id,
    })) as { data: { id: string } };
    const refused = await run("destroy", false);
    expect(refused.ok).toBe(false);
    expect(refused.told).toContain(`"someone else's" (${outside.data.id})`);
    expect(snap().dashboards?.[dashboardId()]).toBeDefined();
    await byHand(door.emu, "DELETE", `/api/v2/alerts/${outside.data.id}`);
    await run("destroy");
    const s = snap();
    expect([s.alerts, s.dashboards, s.savedSearches, s.webhooks]).toEqual([{}, {}, {}, {}]);
    expect(Object.keys(s.sources ?? {}).sort()).toEqual(SEEDED_SOURCES.map((x) => x.id).sort());
    expect(Object.values(s.connections ?? {}).map((c) => c.name)).not.toContain("ch");
  });
});

// ---- managed ClickStack: the Cloud mode, no Connection

const CLOUD_MODE = { cloudDialect: "clickhouse", rateLimits: { cloud: false, alerting: false } } as const;
const ORG = PIPE_IDS.organizationId;
const SVC = PIPE_IDS.serviceId;
const BASE = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;

/** What the guide names for managed ClickStack behind a host of its own; pacing off for speed. */
function cloudConfig(emu: RunningEmulator): StackConfig {
  return {
    "alertpipe:cloudUrl": { value: emu.url },
    "alertpipe:cloudKeyId": { value: emu.keyId },
    "alertpipe:cloudKeySecret": { value: emu.keySecret, secret: true },
    "alertpipe:cloudDialect": { value: "clickhouse" },
    "alertpipe:clickstackOrganizationId": { value: ORG },
    "alertpipe:clickstackServiceId": { value: SVC },
    "alertpipe:cloudRateLimit": { value: "off" },
  };
}

/** Three tiles: one on each source, and a note. */
function cloudTiles(logsId: unknown, tracesId: unknown) {
  const count = (displayType: string, sourceId: unknown) => ({ displayType, sourceId, select: [{ aggFn: "count" }] });
  return [
    { name: "Errors", x: 0, y: 0, w: 6, h: 3, config: count("line", logsId) },
    { name: "Spans", x: 6, y: 0, w: 6, h: 3, config: count("number", tracesId) },
    { name: "Notes", x: 12, y: 0, w: 6, h: 3, config: { displayType: "markdown", markdown: "runbook" } },
  ];
}

async function cloudDynamicDoor(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  const stack = await stackWith(cloudConfig(emu), "observability-cloud", {
    program: async () => {
      const pkg = installedPackage();
      const connection = SEEDED_CONNECTION.id;
      const logs = new pkg.Source("logs", { ...LOG_SOURCE, connection } as never);
      const traces = new pkg.Source("traces", { ...TRACE_SOURCE, connection } as never);
      const ops = new pkg.Dashboard("ops", { name: "Ops", tiles: cloudTiles(logs.id, traces.id) } as never);
      const search = new pkg.SavedSearch("errors", { name: "errors", sourceId: logs.id, where: "level:error" });
      const hook = new pkg.Webhook("hook", { name: "ops", service: "generic", url: "https://hooks.example.com/ops" });
      const channel = { type: "webhook", webhookId: hook.id };
      new pkg.Alert("errorsHigh", {
        ...ALERT,
        name: "errorsHigh",
        source: "tile",
        channel,
        dashboardId: ops.id,
        tileId: ops.tileIds.apply((ids) => ids?.["Errors"]),
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
    emu,
    phase: () => undefined,
    run: async (kind) => {
      const r = await stack[kind]();
      return { ok: r.ok, steps: r.steps, told: told(r) };
    },
    exportText: () => stack.exportText(),
  };
}

async function cloudYamlDoor(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  const channel = { type: "webhook", webhookId: "${hook.id}" };
  const connection = SEEDED_CONNECTION.id;
  const resources = {
    logs: { type: "alertpipe:index:Source", properties: { ...LOG_SOURCE, connection } },
    traces: { type: "alertpipe:index:Source", properties: { ...TRACE_SOURCE, connection } },
    ops: {
      type: "alertpipe:index:Dashboard",
      properties: { name: "Ops", tiles: cloudTiles("${logs.id}", "${traces.id}") },
    },
    errors: {
      type: "alertpipe:index:SavedSearch",
      properties: { name: "errors", sourceId: "${logs.id}", where: "level:error" },
    },
    hook: {
      type: "alertpipe:index:Webhook",
      properties: { name: "ops", service: "generic", url: "https://hooks.example.com/ops" },
    },
    errorsHigh: {
      type: "alertpipe:index:Alert",
      properties: {
        ...ALERT,
        name: "errorsHigh",
        source: "tile",
        channel,
        dashboardId: "${ops.id}",
        tileId: '${ops.tileIds["Errors"]}',
      },
    },
    errorRate: {
      type: "alertpipe:index:Alert",
      properties: { ...ALERT, name: "errorRate", source: "search", channel, savedSearchId: "${errors.id}" },
    },
  };
  const { stack } = await yamlStack(undefined, yamlProgram({ resources }), { config: cloudConfig(emu) });
  const args = {
    up: ["up", "--yes"],
    refresh: ["refresh", "--yes"],
    destroy: ["destroy", "--yes"],
    preview: ["preview"],
  };
  return {
    emu,
    phase: () => undefined,
    run: async (kind) => {
      const r = await stack.runLogged(kind, args[kind]);
      return { ok: r.code === 0, steps: r.steps, told: `${r.output}\n${r.diagnostics.join("\n")}` };
    },
    exportText: () => stack.exportText(),
  };
}

describe.each([
  ["the dynamic classes", cloudDynamicDoor],
  ["Pulumi YAML through the plugin", cloudYamlDoor],
])("the same stack on managed ClickStack, without the connection, through %s", (doorName, open) => {
  let door: Door;
  const snap = () => door.emu.snapshot();
  const isWrite = (method: string) => method !== "GET";
  const run = async (kind: Parameters<Door["run"]>[0]) => {
    const t0 = Date.now();
    const r = await door.run(kind);
    console.log(`${doorName} (managed ClickStack): ${kind} ${Date.now() - t0} ms`);
    expect(r.ok, r.told).toBe(true);
    return r;
  };

  beforeAll(async () => {
    door = await open();
  }, 300_000);

  it("makes it in one up under the service's /clickstack, the sources on the platform's connection", async () => {
    const up = await run("up");
    expect(changes(up)).toEqual(
      ["errorRate", "errors", "errorsHigh", "hook", "logs", "ops", "traces"].map((n) => `create ${n}`),
    );
    expect(requestLog(door.emu, isWrite).sort()).toEqual(
      [
        ...["alerts", "alerts", "dashboards", "saved-searches", "sources", "sources", "webhooks"].map(
          (c) => `POST ${BASE}/${c}`,
        ),
      ].sort(),
    );
    expect(door.emu.requests.filter((r) => r.status !== 200 || r.area !== "cloud")).toEqual([]);
    const s = snap();
    const made = Object.values(s.sources ?? {}).filter((x) => !SEEDED_SOURCES.some((seeded) => seeded.id === x.id));
    expect(made.map((x) => [x.name, x.connection]).sort()).toEqual([
      ["Logs", SEEDED_CONNECTION.id],
      ["Traces", SEEDED_CONNECTION.id],
    ]);
    const board = Object.values(s.dashboards ?? {})[0] as { id: string; tiles: { id: string; name: string }[] };
    const tile = board.tiles.find((t) => t.name === "Errors")?.id;
    expect(Object.values(s.alerts).find((a) => a.name === "errorsHigh")).toMatchObject({
      dashboard: board.id,
      tileId: tile,
    });
  });

  it("previews no change, and writes nothing", async () => {
    door.emu.resetRequestLog();
    const preview = await run("preview");
    expect(changes(preview)).toEqual([]);
    expect(requestLog(door.emu, isWrite)).toEqual([]);
  });

  it("destroys it all and leaves nothing but what the platform made", async () => {
    await run("destroy");
    const s = snap();
    expect([s.alerts, s.dashboards, s.savedSearches, s.webhooks]).toEqual([{}, {}, {}, {}]);
    expect(Object.keys(s.sources ?? {}).sort()).toEqual(SEEDED_SOURCES.map((x) => x.id).sort());
    expect(Object.keys(s.connections ?? {})).toEqual([SEEDED_CONNECTION.id]);
  });
});
