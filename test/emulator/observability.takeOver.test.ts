// Dashboard, Source and Connection take an existing object over by importId (the dynamic door's
// adoption, which `alertpipe export --format typescript` writes): one read, no write when the program
// holds what the service holds, one PUT when it differs (tile ids kept), and a connection's password,
// never read back, sent only when the program sets one.

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import { byHand } from "../support/engine";
import * as connection from "../../provider/connection/provider";
import * as source from "../../provider/source/provider";
import * as dashboard from "../../provider/dashboard/provider";
import { emulatorPerTest } from "../support/emulatorPerTest";

const S = SEEDED_SOURCES[0].id;
const tile = (name: string, x = 0) => ({
  name,
  x,
  y: 0,
  w: 6,
  h: 3,
  config: { displayType: "line", sourceId: S, select: [{ aggFn: "count" }] },
});
const ch = { name: "ch", host: "http://127.0.0.1:8123", username: "default" };
const logs = (conn: string) => ({
  kind: "log",
  name: "Mine",
  connection: conn,
  from: { databaseName: "default", tableName: "t" },
  timestampValueExpression: "Timestamp",
  defaultTableSelectExpression: "Timestamp",
});
const idOf = (made: unknown) => (made as { data: { id: string } }).data.id;
const writes = (requests: string[]) => requests.filter((r) => !r.startsWith("GET"));

describe("taking over by importId", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "take-over test", mode: "2026" });

  it("takes a dashboard over with no write when the program holds what it holds, its tileIds read", async () => {
    const made = (await byHand(service.emulator, "POST", "/api/v2/dashboards", {
      name: "Ops",
      tiles: [tile("Errors"), tile("Latency", 6)],
    })) as { data: { id: string; tiles: Array<{ id: string }> } };
    service.emulator.resetRequestLog();
    const { id, outs } = await dashboard.create({
      importId: made.data.id,
      name: "Ops",
      tiles: [tile("Errors"), tile("Latency", 6)],
    });
    expect(id).toBe(made.data.id);
    expect(outs.tileIds).toEqual({ Errors: made.data.tiles[0]?.id, Latency: made.data.tiles[1]?.id });
    expect(writes(service.requests())).toEqual([]);
  });

  it("takes a dashboard over with one PUT when the program differs, its tiles keeping their ids", async () => {
    const made = (await byHand(service.emulator, "POST", "/api/v2/dashboards", {
      name: "Ops",
      tiles: [tile("Errors"), tile("Latency", 6)],
    })) as { data: { id: string; tiles: Array<{ id: string }> } };
    service.emulator.resetRequestLog();
    const { outs } = await dashboard.create({
      importId: made.data.id,
      name: "Ops",
      tiles: [tile("Latency"), tile("Errors", 6)],
    });
    expect(writes(service.requests())).toEqual([`PUT /api/v2/dashboards/${made.data.id}`]);
    expect(outs.tileIds).toEqual({ Errors: made.data.tiles[0]?.id, Latency: made.data.tiles[1]?.id });
  });

  it("takes a source over with no write when the program holds what it holds", async () => {
    const made = idOf(await byHand(service.emulator, "POST", "/api/v2/sources", logs(SEEDED_SOURCES[0].connection)));
    service.emulator.resetRequestLog();
    const { id } = await source.create({ ...logs(SEEDED_SOURCES[0].connection), importId: made });
    expect(id).toBe(made);
    expect(writes(service.requests())).toEqual([]);
  });

  it("fails a source's take-over, creating nothing, when there is no such source", async () => {
    const missing = "65a0000000000000000000ff";
    service.emulator.resetRequestLog();
    await expect(source.create({ ...logs(SEEDED_SOURCES[0].connection), importId: missing })).rejects.toThrow(missing);
    expect(writes(service.requests())).toEqual([]);
  });

  it("takes a connection over without its password, sending nothing; the service keeps its own", async () => {
    const made = idOf(await byHand(service.emulator, "POST", "/api/v2/connections", { ...ch, password: "kept-pw" }));
    service.emulator.resetRequestLog();
    await connection.create({ ...ch, importId: made });
    expect(writes(service.requests())).toEqual([]);
    expect(service.emulator.snapshot().connections?.[made]).toMatchObject({ password: "kept-pw" });
  });

  it("sends a password the program sets when taking a connection over: it is never read back", async () => {
    const made = idOf(await byHand(service.emulator, "POST", "/api/v2/connections", { ...ch, password: "old-pw" }));
    service.emulator.resetRequestLog();
    await connection.create({ ...ch, password: "new-pw", importId: made });
    expect(writes(service.requests())).toEqual([`PUT /api/v2/connections/${made}`]);
    expect(service.emulator.snapshot().connections?.[made]).toMatchObject({ password: "new-pw" });
  });
});
