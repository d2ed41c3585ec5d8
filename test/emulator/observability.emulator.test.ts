// Connection, Source and Dashboard against the emulator's 2026 mode over real HTTP, through the
// dynamic door's methods: the lifecycle as HyperDX's server answers it, the password write-only,
// tile ids kept across moves and renames in place (their alerts kept), the alerts the service deletes
// with a tile named beforehand, and the deletes the service would not refuse refused while objects
// outside the stack depend on them.

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import * as connection from "../../provider/connection/provider";
import * as source from "../../provider/source/provider";
import * as dashboard from "../../provider/dashboard/provider";
import * as webhook from "../../provider/webhook/provider";
import * as alert from "../../provider/alert/provider";
import * as search from "../../provider/savedSearch/provider";
import { StillReferencedError } from "../../provider/errors";
import { claimForThisRun } from "../../provider/creation/runClaims";
import { emulatorPerTest } from "../support/emulatorPerTest";
import { failure } from "../support/failures";

const PASSWORD = "ch-pass-4c1d-very-secret";
const ch = { name: "ch", host: "http://127.0.0.1:8123", username: "default", password: PASSWORD };
const logsOn = (conn: string) => ({
  kind: "log",
  name: "Logs",
  connection: conn,
  from: { databaseName: "default", tableName: "otel_logs" },
  timestampValueExpression: "Timestamp",
  defaultTableSelectExpression: "Timestamp, Body",
  bodyExpression: "Body",
});
const S = SEEDED_SOURCES[0].id;
const chart = (displayType: string) =>
  displayType === "markdown"
    ? { displayType, markdown: "hi" }
    : { displayType, sourceId: S, select: [{ aggFn: "count" }] };
const tile = (name: string, displayType = "line", x = 0) => ({ name, x, y: 0, w: 6, h: 3, config: chart(displayType) });
const ops = {
  name: "Ops",
  tags: ["prod"],
  tiles: [tile("Errors"), tile("Latency", "number", 6), tile("Notes", "markdown", 12)],
};

describe("Connection against the emulator", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "connection test", mode: "2026" });
  const stored = (id: string) => service.emulator.snapshot().connections?.[id];

  it("sends the password, keeps it in the outputs, and never reads it back", async () => {
    const { id, outs } = await connection.create(ch);
    expect(stored(id)).toMatchObject({ password: PASSWORD });
    expect(outs).toMatchObject({ ...ch, createdAt: expect.any(String) });
    const read = await connection.read(id, outs);
    expect(read.props).toMatchObject({ password: PASSWORD, host: ch.host });
    expect(JSON.stringify(read.inputs)).not.toContain(PASSWORD);
    expect(service.requests().filter((r) => r.startsWith("GET"))).toEqual(["GET /api/v2/connections"]);
  });

  it("clears a removed setting prefix with null, and says a removed password stays on the service", async () => {
    const { id, outs } = await connection.create({ ...ch, hyperdxSettingPrefix: "hdx_" });
    const { password: _pw, ...withoutPassword } = ch;
    await connection.update(id, outs, withoutPassword);
    expect(stored(id)).not.toHaveProperty("hyperdxSettingPrefix");
    expect(stored(id)).toMatchObject({ password: PASSWORD });
    expect(service.notices.join("\n")).toContain("keeps the one it holds");
  });

  it("shows a changed password as a change", async () => {
    const { id, outs } = await connection.create(ch);
    expect((await connection.diff(id, outs, { ...ch, password: "other" })).changes).toBe(true);
    expect((await connection.diff(id, outs, ch)).changes).toBe(false);
  });

  it("refuses a delete while a source outside the stack reads through it, naming the source", async () => {
    const { id } = await connection.create(ch);
    const made = await source.create(logsOn(id));
    const err = await failure(connection.delete(id, {}));
    expect(err).toBeInstanceOf(StillReferencedError);
    expect(String(err)).toContain(`"Logs" (${made.id})`);
    expect(stored(id)).toBeDefined();
    await source.delete(made.id, {});
    await connection.delete(id, {});
    expect(stored(id)).toBeUndefined();
  });
});

describe("Source against the emulator", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "source test", mode: "2026" });
  const stored = (id: string) => service.emulator.snapshot().sources?.[id];

  it("creates, reads through the list, and finds nothing to do", async () => {
    const { id: conn } = await connection.create(ch);
    const { id, outs } = await source.create(logsOn(conn));
    service.emulator.resetRequestLog();
    const read = await source.read(id, outs);
    expect(service.requests()).toEqual(["GET /api/v2/sources"]);
    expect((await source.diff(id, read.props, logsOn(conn))).changes).toBe(false);
  });

  it("sends the whole source on update, so a field removed from the program is cleared", async () => {
    const { id: conn } = await connection.create(ch);
    const { id, outs } = await source.create(logsOn(conn));
    const { bodyExpression: _b, ...without } = logsOn(conn);
    await source.update(id, outs, without);
    expect(stored(id)).not.toHaveProperty("bodyExpression");
    expect(stored(id)).toMatchObject({ name: "Logs", timestampValueExpression: "Timestamp" });
  });

  it("refuses a delete while a saved search outside the stack searches it", async () => {
    const { id: conn } = await connection.create(ch);
    const { id } = await source.create(logsOn(conn));
    const saved = await search.create({ name: "errors", sourceId: id });
    const err = await failure(source.delete(id, {}));
    expect(String(err)).toContain(`saved search "errors" (${saved.id})`);
    expect(stored(id)).toBeDefined();
  });

  it("refuses a delete while a dashboard outside the stack charts it", async () => {
    const { id: conn } = await connection.create(ch);
    const { id } = await source.create(logsOn(conn));
    const board = await dashboard.create({
      name: "Mine",
      tiles: [{ ...tile("x"), config: { ...chart("line"), sourceId: id } }],
    });
    expect(String(await failure(source.delete(id, {})))).toContain(`dashboard "Mine" (${board.id})`);
  });
});

describe("Dashboard against the emulator", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "dashboard test", mode: "2026" });
  const live = (id: string) =>
    service.emulator.snapshot().dashboards?.[id] as { tiles: { id: string; name: string }[] };
  const alerts = () => service.emulator.snapshot().alerts;
  const onTile = async (dashboardId: string, tileId: string, name: string) => {
    const hook = await webhook.create({ name: `hook ${name}`, service: "generic", url: "https://hooks.example.com/x" });
    const base = { threshold: 5, thresholdType: "above", interval: "5m", source: "tile" };
    return alert.create({ ...base, name, channel: { type: "webhook", webhookId: hook.id }, dashboardId, tileId });
  };

  it("names only alertable tiles of unique names in tileIds", async () => {
    const { id, outs } = await dashboard.create(ops);
    const ids = Object.fromEntries(live(id).tiles.map((t) => [t.name, t.id]));
    expect(outs.tileIds).toEqual({ Errors: ids.Errors, Latency: ids.Latency });
  });

  it("reads back what it made as no change", async () => {
    const { id, outs } = await dashboard.create(ops);
    const read = await dashboard.read(id, outs);
    expect((await dashboard.diff(id, read.props, ops)).changes).toBe(false);
  });

  it("reads back a saved query without its language and a Raw SQL line tile as no change, as the real server answers them", async () => {
    const sql = {
      displayType: "line",
      configType: "sql",
      connectionId: "65a0000000000000000000c1",
      sqlTemplate: "SELECT 1",
    };
    const args = { ...ops, savedQuery: "level:error", tiles: [...ops.tiles, { ...tile("SQL"), config: sql }] };
    const { id, outs } = await dashboard.create(args);
    expect(outs).toMatchObject({
      savedQueryLanguage: "lucene",
      tiles: expect.arrayContaining([expect.objectContaining({ config: { ...sql, fillNulls: true } })]),
    });
    const read = await dashboard.read(id, outs);
    expect((await dashboard.diff(id, read.props, args)).changes).toBe(false);
  });

  it("keeps the ids of a moved tile and of one renamed in place, and their alerts", async () => {
    const { id, outs } = await dashboard.create(ops);
    const errors = await onTile(id, outs.tileIds.Errors, "errors high");
    const latency = await onTile(id, outs.tileIds.Latency, "latency high");
    // Errors moves to the right; Latency is renamed where it stands.
    const news = {
      ...ops,
      tiles: [tile("Errors", "line", 12), tile("p99 latency", "number", 6), tile("Notes", "markdown")],
    };
    const after = await dashboard.update(id, outs, news);
    expect(after.outs.tileIds).toEqual({ Errors: outs.tileIds.Errors, "p99 latency": outs.tileIds.Latency });
    expect(Object.keys(alerts())).toEqual(expect.arrayContaining([errors.id, latency.id]));
    expect(service.notices.join("\n")).not.toContain("warning");
  });

  it("warns, naming the alert, of an update that drops an alerted tile, which the service then deletes", async () => {
    const { id, outs } = await dashboard.create(ops);
    const errors = await onTile(id, outs.tileIds.Errors, "errors high");
    await dashboard.update(id, outs, { ...ops, tiles: [tile("Latency", "number", 6)] });
    expect(service.notices.join("\n")).toContain(`"errors high" (${errors.id})`);
    expect(alerts()[errors.id]).toBeUndefined();
  });

  it("warns of a tile turned into a chart that takes no alert", async () => {
    const { id, outs } = await dashboard.create(ops);
    const errors = await onTile(id, outs.tileIds.Errors, "errors high");
    await dashboard.update(id, outs, { ...ops, tiles: [tile("Errors", "table"), ...ops.tiles.slice(1)] });
    expect(service.notices.join("\n")).toContain(errors.id);
  });

  it("sends removed tags, filters and the saved query as empty values, so the service drops them", async () => {
    const withAll = { ...ops, savedQuery: "level:error", savedQueryLanguage: "lucene" };
    const { id, outs } = await dashboard.create(withAll);
    await dashboard.update(id, outs, { name: ops.name, tiles: ops.tiles });
    expect(live(id)).toMatchObject({ tags: [], filters: [], savedQuery: null, savedQueryLanguage: null });
  });

  it("adds a filter on update with an empty id, which the service replaces, and keeps the old one's", async () => {
    const filter = (name: string) => ({ type: "QUERY_EXPRESSION", name, expression: name, sourceId: S });
    const { id, outs } = await dashboard.create({ ...ops, filters: [filter("Service")] });
    const kept = outs.filters?.[0]?.id;
    const after = await dashboard.update(id, outs, { ...ops, filters: [filter("Service"), filter("Host")] });
    const ids = (after.outs as { filters?: { id?: string }[] }).filters?.map((f) => f.id);
    expect(ids).toEqual([kept, expect.stringMatching(/^[0-9a-f]{24}$/)]);
  });

  it("sees drift by hand in a refresh", async () => {
    const { id, outs } = await dashboard.create(ops);
    const d = service.emulator.snapshot().dashboards?.[id] as { tiles: unknown[] };
    await fetch(`${service.emulator.url}/api/v2/dashboards/${id}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${service.emulator.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Renamed by hand", tiles: d.tiles }),
    });
    const read = await dashboard.read(id, outs);
    expect(read.props.name).toBe("Renamed by hand");
    expect((await dashboard.diff(id, read.props, ops)).changes).toBe(true);
  });

  it("refuses a delete while an alert outside the stack sits on it, naming it", async () => {
    const { id, outs } = await dashboard.create(ops);
    const outside = await onTile(id, outs.tileIds.Errors, "someone's");
    const err = await failure(dashboard.delete(id, outs));
    expect(err).toBeInstanceOf(StillReferencedError);
    expect(String(err)).toContain(`"someone's" (${outside.id})`);
    expect(live(id)).toBeDefined();
    expect(alerts()[outside.id]).toBeDefined();
  });

  it("does not count an alert this run deleted, so its own stack's destroy goes through", async () => {
    const { id, outs } = await dashboard.create(ops);
    const own = await onTile(id, outs.tileIds.Errors, "own");
    // Claimed as the alert's delete does, before its request lands.
    claimForThisRun("alerts deleted this run", [own.id]);
    await dashboard.delete(id, outs);
    expect(live(id)).toBeUndefined();
  });
});
