// The emulator's dashboards, sources and connections as HyperDX's server (b52a6fa) behaves, point by
// point of docs/design/dashboards-sources-connections.md.

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../../emulator";
import { alerting, deliberately, makeReferents, onTile, start, validAlert } from "./helpers";

const S = SEEDED_SOURCES[0].id;
const line = { displayType: "line", sourceId: S, select: [{ aggFn: "count" }] };
const tile = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config: line,
  ...more,
});
type Board = { id: string; tiles: { id: string; name: string; config: Record<string, unknown> }[]; tags: string[] };
const boardOf = (answer: { json: Record<string, unknown> }) => answer.json.data as Board;
const MISSING = "0123456789abcdef01234567";

describe("emulator dashboards", () => {
  it("gives every tile a new id on POST, ignoring one sent, and writes out the defaults", async () => {
    const emu = await start({ mode: "2026" });
    const made = boardOf(
      await alerting(emu, "POST", "/api/v2/dashboards", { name: "d", tiles: [tile("a", { id: "my-tile" })] }),
    );
    expect(made.tiles[0]?.id).toMatch(/^[0-9a-f]{24}$/);
    expect(made).toMatchObject({
      tags: [],
      filters: [],
      savedQuery: null,
      savedQueryLanguage: null,
      savedFilterValues: [],
    });
    expect(made).not.toHaveProperty("containers");
    expect(made.tiles[0]?.config).toMatchObject({
      asRatio: false,
      fillNulls: true,
      select: [{ aggFn: "count", valueExpression: "", where: "", whereLanguage: "lucene" }],
    });
  });

  it("validates a body by the create's rules, answering 200 {valid, errors, normalized}, and keeps nothing", async () => {
    const emu = await start({ mode: "2026" });
    const good = await alerting(emu, "POST", "/api/v2/dashboards/validate", { name: "d", tiles: [tile("a")] });
    expect([good.status, good.json]).toEqual([
      200,
      { valid: true, errors: [], normalized: expect.objectContaining({ name: "d" }) },
    ]);
    expect(emu.snapshot().dashboards ?? {}).toEqual({});
  });

  it(
    "answers an invalid body's validation 200 too, with the create's words and no normalized body",
    deliberately(async () => {
      const emu = await start({ mode: "2026" });
      const bad = await alerting(emu, "POST", "/api/v2/dashboards/validate", {
        name: "d",
        tiles: [tile("a", { x: 30 })],
      });
      expect([bad.status, bad.json]).toEqual([
        200,
        {
          valid: false,
          errors: [{ path: "tiles.0.x", message: "Number must be less than or equal to 23" }],
          normalized: null,
        },
      ]);
    }),
  );

  it("keeps on PUT a tile id sent with the tile, wherever it moves and whatever its name, and keeps unsent tags", async () => {
    const emu = await start({ mode: "2026" });
    const made = boardOf(
      await alerting(emu, "POST", "/api/v2/dashboards", { name: "d", tags: ["bars"], tiles: [tile("a"), tile("b")] }),
    );
    const [a, b] = made.tiles;
    const put = boardOf(
      await alerting(emu, "PUT", `/api/v2/dashboards/${made.id}`, {
        name: "d",
        tiles: [tile("renamed", { id: b?.id, x: 6 }), tile("a", { id: a?.id }), tile("new")],
      }),
    );
    expect(put.tiles.map((t) => t.id).slice(0, 2)).toEqual([b?.id, a?.id]);
    expect(put.tiles[2]?.id).not.toBe(a?.id);
    expect(put.tags).toEqual(["bars"]);
  });

  it("deletes silently on PUT the alerts of a tile it drops or makes unalertable", async () => {
    const emu = await start({ mode: "2026" });
    const refs = await makeReferents(emu);
    const alert = await alerting(emu, "POST", "/api/v2/alerts", {
      ...validAlert,
      ...onTile(refs),
      channel: { type: "webhook", webhookId: refs.hooks[0] },
    });
    const id = (alert.json.data as { id: string }).id;
    const put = await alerting(emu, "PUT", `/api/v2/dashboards/${refs.dashboardId}`, {
      name: "ops",
      tiles: [tile("errors", { id: refs.tileId, config: { ...line, displayType: "table" } })],
    });
    expect(put.status).toBe(200);
    expect(emu.snapshot().alerts[id]).toBeUndefined();
  });

  it("deletes a dashboard's alerts with it, and answers 200 for a missing one", async () => {
    const emu = await start({ mode: "2026" });
    const refs = await makeReferents(emu);
    await alerting(emu, "POST", "/api/v2/alerts", {
      ...validAlert,
      ...onTile(refs),
      channel: { type: "webhook", webhookId: refs.hooks[0] },
    });
    expect((await alerting(emu, "DELETE", `/api/v2/dashboards/${refs.dashboardId}`)).status).toBe(200);
    expect(Object.keys(emu.snapshot().alerts)).toEqual([]);
    expect((await alerting(emu, "DELETE", `/api/v2/dashboards/${MISSING}`)).status).toBe(200);
    const res = await fetch(`${emu.url}/api/v2/dashboards/${MISSING}`, {
      headers: { authorization: `Bearer ${emu.token}` },
    });
    expect([res.status, await res.text()]).toEqual([404, "Not Found"]);
  });

  it.each([
    [{ tiles: [tile("a", { x: 24 })] }, "tiles.0.x: Number must be less than or equal to 23"],
    [{ tiles: [tile("a", { config: undefined })] }, "Tile must have either series or config"],
    [
      { tiles: [tile("a", { config: { ...line, sourceId: MISSING } })] },
      `Could not find the following source IDs: ${MISSING}`,
    ],
    [
      {
        tiles: [
          tile("a", { config: { ...line, displayType: "number", select: [{ aggFn: "count" }, { aggFn: "count" }] } }),
        ],
      },
      "Number tiles support a single select item unless formulas are used",
    ],
    [
      { tiles: [tile("a", { config: { ...line, select: [{ aggFn: "count", valueExpression: "x" }] } })] },
      "Value expression cannot be used with count aggregation function",
    ],
  ])(
    "refuses %j with 400",
    deliberately(async (body: Record<string, unknown>, words: string) => {
      const emu = await start({ mode: "2026" });
      const answer = await alerting(emu, "POST", "/api/v2/dashboards", { name: "d", ...body });
      expect(answer.status).toBe(400);
      expect(String(answer.json.message)).toContain(words);
    }),
  );

  it("takes x + w past 24, empty and repeated names", async () => {
    const emu = await start({ mode: "2026" });
    const tiles = [tile("a", { x: 20, w: 12 }), tile("a"), tile("")];
    expect((await alerting(emu, "POST", "/api/v2/dashboards", { name: "", tiles })).status).toBe(200);
  });
});

describe("emulator sources and connections", () => {
  const logs = (connection: string) => ({
    kind: "log",
    name: "Logs",
    connection,
    from: { databaseName: "default", tableName: "otel_logs" },
    timestampValueExpression: "Timestamp",
    defaultTableSelectExpression: "Timestamp,Body",
    bodyExpression: "Body",
  });

  it("never answers a connection's password, keeps it on a PUT without one, and clears a prefix with null", async () => {
    const emu = await start({ mode: "2026" });
    const body = {
      name: "ch",
      host: "http://127.0.0.1:1",
      username: "default",
      password: "s3cret-pw-77",
      hyperdxSettingPrefix: "hdx_",
    };
    const made = await alerting(emu, "POST", "/api/v2/connections", body);
    const id = (made.json.data as { id: string }).id;
    expect(JSON.stringify(made.json)).not.toContain("s3cret");
    expect(JSON.stringify((await alerting(emu, "GET", "/api/v2/connections")).json)).not.toContain("s3cret");
    await alerting(emu, "PUT", `/api/v2/connections/${id}`, {
      name: "ch",
      host: "x",
      username: "u",
      password: "",
      hyperdxSettingPrefix: null,
    });
    expect(emu.snapshot().connections?.[id]).toMatchObject({ password: "s3cret-pw-77", host: "x" });
    expect(emu.snapshot().connections?.[id]).not.toHaveProperty("hyperdxSettingPrefix");
  });

  it(
    "replaces a whole source on PUT, refuses null, and deletes one in use without a word",
    deliberately(async () => {
      const emu = await start({ mode: "2026" });
      const conn = (await alerting(emu, "POST", "/api/v2/connections", { name: "ch", host: "h", username: "u" })).json
        .data as { id: string };
      const made = (await alerting(emu, "POST", "/api/v2/sources", { ...logs(conn.id), bogusField: 1 })).json
        .data as Record<string, unknown>;
      expect(made).not.toHaveProperty("bogusField");
      const { bodyExpression: _b, ...rest } = logs(conn.id);
      const put = (await alerting(emu, "PUT", `/api/v2/sources/${String(made.id)}`, rest)).json.data;
      expect(put).not.toHaveProperty("bodyExpression");
      const nulled = await alerting(emu, "PUT", `/api/v2/sources/${String(made.id)}`, {
        ...rest,
        serviceNameExpression: null,
      });
      expect([nulled.status, nulled.json.message]).toEqual([
        400,
        "Body validation failed: serviceNameExpression: Expected string, received null",
      ]);
      expect((await alerting(emu, "DELETE", `/api/v2/connections/${conn.id}`)).status).toBe(200);
    }),
  );

  it("refuses a source on a connection that does not exist", async () => {
    const emu = await start({ mode: "2026" });
    const answer = await alerting(emu, "POST", "/api/v2/sources", logs(MISSING));
    expect([answer.status, answer.json.message]).toEqual([400, "connection must be an existing connection id"]);
  });
});
