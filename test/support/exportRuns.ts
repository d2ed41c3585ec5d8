// Test support for `alertpipe export`: its environment for an emulator, and runs of it, in-process
// (the emulator tier: runCli with its output collected) or as the installed package's bin (the
// engine tier: the file npm links as `alertpipe`, run by node as the link would), and an estate to export.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SEEDED_SOURCES, type RunningEmulator } from "../../emulator";
import { SEEDED_CONNECTION } from "../../emulator/observability";
import { runCli } from "../../provider/export/cli";
import { resetRuntime } from "../../provider/runtime/runtime";
import { examplesDir } from "../../scripts/exampleStack";
import { envFor, setEnv } from "./emulatorPerTest";
import { byHand } from "./engine";
import { ALERTS_PATH, KEYS_PATH, ORG_ID, PIPE_IDS, SETTINGS_PATH } from "./fixtures";

/** Both areas of the emulator, as ALERTPIPE_* variables; pacing off unless `pacing` gives both limits. */
export function exportEnv(emu: RunningEmulator, pacing?: { alerting: string; cloud: string }): Record<string, string> {
  return {
    ...envFor("alerting", emu),
    ...envFor("cloud", emu),
    ...(pacing === undefined
      ? {}
      : { ALERTPIPE_ALERTING_RATE_LIMIT: pacing.alerting, ALERTPIPE_CLOUD_RATE_LIMIT: pacing.cloud }),
  };
}

export interface ExportRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `alertpipe <args>` in this process, with `env` set for it alone and a fresh runtime (as a new process has). */
export async function exportInProcess(args: readonly string[], env: Record<string, string>): Promise<ExportRun> {
  let stdout = "";
  let stderr = "";
  const restore = setEnv(env);
  resetRuntime();
  try {
    const code = await runCli(args, { out: (t) => (stdout += t), err: (t) => (stderr += t) });
    return { code, stdout, stderr };
  } finally {
    resetRuntime();
    restore();
  }
}

/** The `alertpipe` bin of the package installed in examples/: the file its package.json's `bin` names, which npm links. */
export function installedCommand(programDir: string = examplesDir()): string {
  const installed = join(programDir, "node_modules", "pulumi-alertpipe");
  const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { bin?: Record<string, string> };
  const bin = pkg.bin?.alertpipe;
  if (bin === undefined) throw new Error("the installed package's package.json names no `alertpipe` bin");
  return join(installed, bin);
}

/** What `seedEstate` made, by the ids `pulumi import` is given. */
export interface Estate {
  readonly alerts: string[];
  /** `<organizationId>/<id>` of each key. */
  readonly keys: string[];
  /** The pipe with settings set, and one with none (which an export leaves out, saying why). */
  readonly pipe: string;
  readonly emptyPipe: string;
  /** The connection and two sources every emulator holds, as a team's HyperDX holds its own: exported too. */
  readonly seeded: string[];
}

/**
 * An estate made by hand, as a team's would be: alerts of both sources (two sharing a name, one
 * without any, one whose name starts with a digit), keys of several roles and states (two sharing a
 * name), and one pipe's settings. A few dozen objects at most: the thousands are the bench's.
 */
export async function seedEstate(emu: RunningEmulator): Promise<Estate> {
  const channel = { type: "webhook", webhookId: "ops-oncall" };
  const search = { source: "search", thresholdType: "above", interval: "5m", channel };
  const tile = { source: "tile", thresholdType: "below", interval: "1h", channel, dashboardId: "dash-1" };
  const alertBodies = [
    { ...search, name: "Ingest lag", threshold: 300, message: "lag above 5 min" },
    { ...search, name: "High CPU", threshold: 90 },
    { ...tile, name: "High CPU", threshold: 95, tileId: "cpu" },
    { ...search, threshold: 1 },
    { ...tile, name: "5xx errors", threshold: 10, tileId: "errors" },
    { ...tile, name: "Café latency", threshold: 250, tileId: "latency" },
  ];
  const alerts: string[] = [];
  for (const body of alertBodies) {
    const made = (await byHand(emu, "POST", ALERTS_PATH, body)) as { data: { id: string } };
    alerts.push(made.data.id);
  }
  const keyBodies = [
    { name: "deployer", roles: ["developer"] },
    { name: "ci", roles: ["admin"] },
    { name: "ci", roles: ["query_endpoints"], state: "disabled" },
    {
      name: "dashboards read-only",
      roles: ["query_endpoints"],
      expireAt: "2030-01-01T00:00:00.000Z",
      ipAccessList: [{ source: "10.0.0.0/8", description: "office" }],
    },
  ];
  const keys: string[] = [];
  for (const body of keyBodies) {
    const made = (await byHand(emu, "POST", KEYS_PATH, body)) as { result: { key: { id: string } } };
    keys.push(`${ORG_ID}/${made.result.key.id}`);
  }
  await byHand(emu, "PUT", SETTINGS_PATH, { db_max_threads: 12, object_storage_use_cluster_function: true });
  const pipe = `${PIPE_IDS.organizationId}/${PIPE_IDS.serviceId}/${PIPE_IDS.pipeId}`;
  const emptyPipe = `${PIPE_IDS.organizationId}/${PIPE_IDS.serviceId}/2c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bee`;
  const seeded = [SEEDED_CONNECTION.id, ...SEEDED_SOURCES.map((s) => s.id)];
  return { alerts, keys, pipe, emptyPipe, seeded };
}

/** The value of every header and parameter `seedTeamObjects` sets: it must never come back. */
export const TEAM_SECRET = "team-hdr-CANARY-3e9b";

/** What `seedTeamObjects` made, by id. */
export interface TeamObjects {
  /** A generic webhook "ops" with secret headers and parameters and a body template. */
  readonly ops: string;
  /** An incidentio webhook "pager", whose body the service never returns either. */
  readonly pager: string;
  /** A saved search "errors". */
  readonly errors: string;
  /** A search alert "Error rate" notifying `ops` and watching `errors`. */
  readonly errorRate: string;
}

/** An alert's channel and saved search made by hand, and the alert wired to both, as a team would have them. */
export async function seedTeamObjects(emu: RunningEmulator): Promise<TeamObjects> {
  const made = async (path: string, body: unknown) =>
    ((await byHand(emu, "POST", path, body)) as { data: { id: string } }).data.id;
  const secrets = { headers: { "X-Token": TEAM_SECRET }, queryParams: { token: TEAM_SECRET } };
  const ops = await made("/api/v2/webhooks", {
    name: "ops",
    service: "generic",
    url: "https://hooks.example.com/ops",
    body: '{"text": "{{title}}"}',
    ...secrets,
  });
  const pager = await made("/api/v2/webhooks", {
    name: "pager",
    service: "incidentio",
    url: "https://api.incident.io/v2/alert_events/http/x",
    body: `{"token": "${TEAM_SECRET}"}`,
    ...secrets,
  });
  const errors = await made("/api/v2/saved-searches", {
    name: "errors",
    sourceId: SEEDED_SOURCES[0].id,
    where: "level:error",
  });
  const errorRate = await made(ALERTS_PATH, {
    name: "Error rate",
    source: "search",
    threshold: 10,
    thresholdType: "above",
    interval: "5m",
    channel: { type: "webhook", webhookId: ops },
    savedSearchId: errors,
  });
  return { ops, pager, errors, errorRate };
}

/** What `seedDuplicateEstate` made, by id, and how many references its alerts make to its other objects. */
export interface DuplicateEstate {
  /** The emulator's seeded connection, and one made by hand with a password. */
  readonly connections: string[];
  /** The emulator's two seeded sources, and one made by hand. */
  readonly sources: string[];
  readonly dashboard: string;
  /** The password of the connection made by hand: never in an export. */
  readonly password: string;
  readonly webhooks: string[];
  readonly savedSearches: string[];
  readonly alerts: string[];
  /** `<organizationId>/<id>` of each key. */
  readonly keys: string[];
  readonly pipe: string;
  /** Every input naming another object of the estate: each is wired. */
  readonly references: number;
  /** Tile alerts on a tile that is not in its dashboard's tileIds (a table): their tileId stays an id. */
  readonly literalTileIds: number;
  /** How many objects: what an export of every type keeps. */
  readonly objects: number;
}

/**
 * An estate of 37 objects in which names meet, as they do in a team's (issue 38): two alerts "High
 * CPU" and a dashboard "High CPU", a webhook, a saved search, a key and a connection all named
 * "errors", two keys "ci", a webhook, a key and a source "ops"; the emulator's seeded connection and
 * two sources, which a team's HyperDX holds as well. Every alert notifies a webhook of the estate,
 * every search alert watches one of its saved searches, every tile alert sits on the dashboard (eight
 * on tiles in its tileIds, one on a table tile, which is not), the dashboard's tiles chart the source
 * made by hand or query its connection, and the sources read through a connection of the estate:
 * 63 references, each with a referent to be wired to.
 */
export async function seedDuplicateEstate(emu: RunningEmulator): Promise<DuplicateEstate> {
  const made = async (path: string, body: unknown) =>
    ((await byHand(emu, "POST", path, body)) as { data: { id: string } }).data.id;
  const secrets = { headers: { "X-Token": TEAM_SECRET }, queryParams: { token: TEAM_SECRET } };
  const webhooks = [
    await made("/api/v2/webhooks", {
      name: "ops",
      service: "generic",
      url: "https://hooks.example.com/ops",
      ...secrets,
    }),
    await made("/api/v2/webhooks", { name: "errors", service: "slack", url: "https://hooks.slack.com/services/T/B/x" }),
    await made("/api/v2/webhooks", {
      name: "pager",
      service: "incidentio",
      url: "https://api.incident.io/v2/alert_events/http/x",
      ...secrets,
    }),
  ];
  const password = "clickhouse-CANARY-5d1e";
  const connections = [
    SEEDED_CONNECTION.id,
    await made("/api/v2/connections", { name: "errors", host: "https://ch.example.com:8443", username: "u", password }),
  ];
  const ownSource = await made("/api/v2/sources", {
    kind: "log",
    name: "ops",
    connection: connections[1],
    from: { databaseName: "default", tableName: "otel_logs" },
    timestampValueExpression: "Timestamp",
    defaultTableSelectExpression: "Timestamp, Body",
  });
  const sources = [...SEEDED_SOURCES.map((s) => s.id), ownSource];
  const at = (i: number) => ({ x: (i % 4) * 6, y: Math.floor(i / 4) * 3, w: 6, h: 3 });
  const line = (name: string, i: number) => ({
    name,
    ...at(i),
    config: { displayType: "line", sourceId: ownSource, select: [{ aggFn: "count" }] },
  });
  const tiles = [
    ...["cpu", 'cpu "p99" $5', "tile [2] p99-latency/😀", "errors", "High CPU", "5xx", "ingest"].map(line),
    {
      name: "sql errors",
      ...at(7),
      config: { displayType: "line", configType: "sql", connectionId: connections[1], sqlTemplate: "SELECT 1" },
    },
    { name: "table", ...at(8), config: { displayType: "table", sourceId: ownSource, select: [{ aggFn: "count" }] } },
  ];
  const board = (await byHand(emu, "POST", "/api/v2/dashboards", { name: "High CPU", tiles })) as {
    data: { id: string; tiles: Array<{ id: string }> };
  };
  const dashboard = board.data.id;
  const tileIds = board.data.tiles.map((t) => t.id);
  const source = SEEDED_SOURCES[0].id;
  const savedSearches = [
    await made("/api/v2/saved-searches", { name: "errors", sourceId: source, where: "level:error" }),
    await made("/api/v2/saved-searches", { name: "High CPU", sourceId: source, where: "cpu > 90" }),
    await made("/api/v2/saved-searches", { name: "slow $queries", sourceId: source, where: "duration:>1000" }),
  ];
  const hook = (i: number) => ({ type: "webhook", webhookId: webhooks[i % webhooks.length] ?? "" });
  const alertBodies: Record<string, unknown>[] = [];
  for (let i = 0; i < 11; i += 1)
    alertBodies.push({
      name: i < 2 ? "High CPU" : `search ${i}: $\{value} over`,
      source: "search",
      threshold: 10 + i,
      thresholdType: "above",
      interval: "5m",
      channel: hook(i),
      savedSearchId: savedSearches[i % savedSearches.length],
    });
  for (let i = 0; i < 9; i += 1)
    alertBodies.push({
      ...(i === 0 ? {} : { name: i === 1 ? "errors" : `tile [${i}] p99-latency/😀` }),
      source: "tile",
      threshold: 100 + i,
      thresholdType: "below",
      interval: "1h",
      dashboardId: dashboard,
      tileId: tileIds[i],
      channel: hook(i + 1),
    });
  const alerts: string[] = [];
  for (const body of alertBodies) alerts.push(await made(ALERTS_PATH, body));
  const keys: string[] = [];
  for (const body of [
    { name: "ci", roles: ["admin"] },
    { name: "ci", roles: ["query_endpoints"], state: "disabled" },
    { name: "ops", roles: ["developer"] },
    { name: "errors", roles: ["query_endpoints"] },
  ]) {
    const key = (await byHand(emu, "POST", KEYS_PATH, body)) as { result: { key: { id: string } } };
    keys.push(`${ORG_ID}/${key.result.key.id}`);
  }
  await byHand(emu, "PUT", SETTINGS_PATH, { db_max_threads: 12, object_storage_use_cluster_function: true });
  const pipe = `${PIPE_IDS.organizationId}/${PIPE_IDS.serviceId}/${PIPE_IDS.pipeId}`;
  const objects =
    connections.length + sources.length + 1 + webhooks.length + savedSearches.length + alerts.length + keys.length + 1;
  // Alerts' webhooks and saved searches; sources' connections; saved searches' source; the tiles'
  // sources and connection; tile alerts' dashboardId, and tileId where it is in tileIds.
  const references = 11 * 2 + 9 + 3 + 3 + tiles.length + 9 + 8;
  return {
    connections,
    sources,
    dashboard,
    password,
    webhooks,
    savedSearches,
    alerts,
    keys,
    pipe,
    references,
    literalTileIds: 1,
    objects,
  };
}
