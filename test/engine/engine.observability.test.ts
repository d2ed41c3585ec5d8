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
import { SEEDED_CONNECTION, SEEDED_SOURCES } from "../../emulator";
import { emulatorConfig } from "../../scripts/exampleStack";
import { byHand, changes, emulator as startEmulator, installedPackage, requestLog } from "../support/engine";
import {
  CLOUD_MODE,
  dynamicDoor,
  guideConfig,
  timedRun,
  yamlDoor,
  type Door as CloudDoor,
} from "../support/cloudDoors";
import { PIPE_IDS } from "../support/fixtures";
import { ALERT, observabilityProgram, tileOf, tiles, type Phase } from "../support/observabilityLifecycle";
import { LOG_SOURCE, TRACE_SOURCE } from "../support/sources";

const MODE = { mode: "2026", rateLimits: { cloud: false, alerting: false } } as const;
const PASSWORD = "ch-CANARY-5e2a-never-in-plain-text";
const CH = { name: "ch", host: "http://127.0.0.1:8123", username: "default", password: PASSWORD };
/** What the dashboard, the search and the webhook are called on both modes. */
const NAMED = { ops: "Ops", search: "errors", hook: "ops", url: "https://hooks.example.com/ops" };

type Door = CloudDoor & { phase(p: Phase): void };

/** The program as Pulumi YAML's resources: the Connection "ch" unless `connection` names one. */
function yamlResources(o: {
  connection?: string;
  traces?: true;
  tags?: string[];
  tiles(logsId: unknown, tracesId: unknown): unknown[];
  tileAlerts: Record<string, string>;
}): Record<string, unknown> {
  const connection = o.connection ?? "${ch.id}";
  const channel = { type: "webhook", webhookId: "${hook.id}" };
  const alert = (name: string, properties: Record<string, unknown>): [string, unknown] => [
    name,
    { type: "alertpipe:index:Alert", properties: { ...ALERT, name, channel, ...properties } },
  ];
  const tileAlerts = Object.entries(o.tileAlerts).map(([name, tileName]) =>
    alert(name, { source: "tile", dashboardId: "${ops.id}", tileId: `\${ops.tileIds["${tileName}"]}` }),
  );
  const source = (properties: object) => ({
    type: "alertpipe:index:Source",
    properties: { ...properties, connection },
  });
  return {
    ...(o.connection === undefined ? { ch: { type: "alertpipe:index:Connection", properties: CH } } : {}),
    logs: source(LOG_SOURCE),
    ...(o.traces === true ? { traces: source(TRACE_SOURCE) } : {}),
    ops: {
      type: "alertpipe:index:Dashboard",
      properties: {
        name: NAMED.ops,
        ...(o.tags === undefined ? {} : { tags: o.tags }),
        tiles: o.tiles("${logs.id}", "${traces.id}"),
      },
    },
    errors: {
      type: "alertpipe:index:SavedSearch",
      properties: { name: NAMED.search, sourceId: "${logs.id}", where: "level:error" },
    },
    hook: { type: "alertpipe:index:Webhook", properties: { name: NAMED.hook, service: "generic", url: NAMED.url } },
    ...Object.fromEntries([...tileAlerts, alert("errorRate", { source: "search", savedSearchId: "${errors.id}" })]),
  };
}

/** The HyperDX (2026) program of a phase: its tiles and which tile each tile alert names. */
const hyperdx = (phase: Phase) => ({
  tags: ["prod"],
  tiles: (logsId: unknown) => tiles(phase, logsId),
  tileAlerts: tileOf(phase),
});

async function dynamic(): Promise<Door> {
  const emu = await startEmulator(MODE);
  let phase: Phase = "base";
  const door = await dynamicDoor(emu, emulatorConfig(emu), "observability", async () =>
    observabilityProgram(installedPackage(), { connection: CH, logs: "Logs", ...NAMED, ...hyperdx(phase) }),
  );
  return {
    ...door,
    phase: (p) => {
      phase = p;
    },
  };
}

async function yaml(): Promise<Door> {
  const emu = await startEmulator(MODE);
  const door = await yamlDoor(emu, emulatorConfig(emu), yamlResources(hyperdx("base")));
  return { ...door, phase: (p) => door.write(yamlResources(hyperdx(p))) };
}

describe.each([
  ["the dynamic classes", dynamic],
  ["Pulumi YAML through the plugin", yaml],
])("a whole observability stack, through %s", (doorName, open) => {
  let door: Door;
  const snap = () => door.emu.snapshot();
  const alertIdOf = (name: string) => Object.values(snap().alerts).find((a) => a.name === name)?.id;
  const dashboardId = () => Object.keys(snap().dashboards ?? {})[0] ?? "";
  const run = timedRun(doorName, () => door);
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

const ORG = PIPE_IDS.organizationId;
const SVC = PIPE_IDS.serviceId;
const BASE = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;

/** Three tiles: one on each source, and a note. */
function cloudTiles(logsId: unknown, tracesId: unknown) {
  const count = (displayType: string, sourceId: unknown) => ({ displayType, sourceId, select: [{ aggFn: "count" }] });
  return [
    { name: "Errors", x: 0, y: 0, w: 6, h: 3, config: count("line", logsId) },
    { name: "Spans", x: 6, y: 0, w: 6, h: 3, config: count("number", tracesId) },
    { name: "Notes", x: 12, y: 0, w: 6, h: 3, config: { displayType: "markdown", markdown: "runbook" } },
  ];
}

/** The managed ClickStack program: sources on the platform's connection, one tile alert. */
const CLOUD = { connection: SEEDED_CONNECTION.id, tiles: cloudTiles, tileAlerts: { errorsHigh: "Errors" } };

async function cloudDynamic(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  const door = await dynamicDoor(emu, guideConfig(emu), "observability-cloud", async () =>
    observabilityProgram(installedPackage(), { ...CLOUD, logs: "Logs", traces: "Traces", ...NAMED }),
  );
  return { ...door, phase: () => undefined };
}

async function cloudYaml(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  const door = await yamlDoor(emu, guideConfig(emu), yamlResources({ ...CLOUD, traces: true }));
  return { ...door, phase: () => undefined };
}

describe.each([
  ["the dynamic classes", cloudDynamic],
  ["Pulumi YAML through the plugin", cloudYaml],
])("the same stack on managed ClickStack, without the connection, through %s", (doorName, open) => {
  let door: Door;
  const snap = () => door.emu.snapshot();
  const isWrite = (method: string) => method !== "GET";
  const run = timedRun(`${doorName} (managed ClickStack)`, () => door);

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
