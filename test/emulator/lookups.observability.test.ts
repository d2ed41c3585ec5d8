// getDashboard(s), getSource(s) and getConnection(s) against the emulator's 2026 mode, through the
// TypeScript functions and the plugin's Invoke: what the service holds, in the program's spelling,
// a dashboard with its tileIds, never a connection's password; nothing but GETs sent.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as lookups from "../../provider/dynamic/lookups";
import { resetRuntime } from "../../provider/runtime/runtime";
import { envFor, setEnv } from "../support/emulatorPerTest";
import { lineTile } from "../../scripts/record/scenarios/observability";
import { byHand } from "../support/engine";
import { nativeCalls, nativeProviderPerFile, pluginConfig } from "../support/nativeProvider";

const PASSWORD = "lookup-pw-CANARY-9f1";
let emu: RunningEmulator;
let restoreEnv = (): void => {};
const made = { connection: "", source: "", dashboard: "", tile: "" };
const native = nativeCalls(nativeProviderPerFile());
const idOf = (answer: unknown) => (answer as { data: { id: string } }).data.id;

beforeAll(async () => {
  emu = await startEmulator({ mode: "2026", rateLimits: { cloud: false, alerting: false } });
  made.connection = idOf(
    await byHand(emu, "POST", "/api/v2/connections", { name: "ch", host: "h", username: "u", password: PASSWORD }),
  );
  made.source = idOf(
    await byHand(emu, "POST", "/api/v2/sources", {
      kind: "log",
      name: "Mine",
      connection: made.connection,
      from: { databaseName: "default", tableName: "t" },
      timestampValueExpression: "Timestamp",
      defaultTableSelectExpression: "Timestamp",
    }),
  );
  const board = (await byHand(emu, "POST", "/api/v2/dashboards", {
    name: "Ops",
    tiles: [
      lineTile("Errors", made.source, 0, 0, [{ aggFn: "count" }]),
      {
        name: "Search",
        x: 6,
        y: 0,
        w: 6,
        h: 3,
        config: { displayType: "search", sourceId: made.source, select: "Body", whereLanguage: "lucene" },
      },
    ],
  })) as { data: { id: string; tiles: { id: string }[] } };
  made.dashboard = board.data.id;
  made.tile = board.data.tiles[0]?.id ?? "";
  restoreEnv = setEnv(envFor("alerting", emu));
  emu.resetRequestLog();
});
afterAll(async () => {
  restoreEnv();
  resetRuntime();
  await emu.close();
});

describe("the TypeScript lookups", () => {
  it("find a dashboard by name, with its tileIds and a search tile's searchSelect", async () => {
    const found = await lookups.getDashboard({ name: "Ops" });
    expect(found).toMatchObject({ id: made.dashboard, name: "Ops", tileIds: { Errors: made.tile } });
    expect(found.tiles?.[1]?.config).toMatchObject({ displayType: "search", searchSelect: "Body" });
  });

  it("list the sources, the seeded ones too, and find one by id", async () => {
    const { sources } = await lookups.getSources();
    expect(sources.map((s) => s.name)).toEqual(expect.arrayContaining(["Logs", "Mine"]));
    expect(await lookups.getSource({ id: made.source })).toMatchObject({ kind: "log", connection: made.connection });
  });

  it("never give a connection's password", async () => {
    const { connections } = await lookups.getConnections({ name: "ch" });
    expect(connections).toEqual([expect.objectContaining({ id: made.connection, host: "h" })]);
    expect(JSON.stringify(connections)).not.toContain(PASSWORD);
    expect(emu.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("the plugin's Invoke", () => {
  it("finds a dashboard by id and the caller's connections", async () => {
    await native.configure(pluginConfig(emu));
    expect(await native.invoke("alertpipe:index:getDashboard", { id: made.dashboard })).toMatchObject({
      tileIds: { Errors: made.tile },
    });
    const found = JSON.stringify(await native.invoke("alertpipe:index:getConnections", {}));
    expect(found).toContain(made.connection);
    expect(found).not.toContain(PASSWORD);
  });
});
