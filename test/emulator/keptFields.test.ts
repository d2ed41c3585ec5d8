// Fields the service holds and the definitions do not name survive an update of another property
// (docs/design/fields-kept.md): each set by hand through the service's API, then the program's update
// through the dynamic door's methods, in each dialect that serves the resource; a refresh after it
// shows no difference. Source's materialized views first, then dashboard tiles' members.

import { describe, expect, it } from "vitest";
import { SEEDED_CONNECTION, SEEDED_SOURCES } from "../../emulator";
import * as source from "../../provider/source/provider";
import * as dashboard from "../../provider/dashboard/provider";
import { emulatorPerTest, type PerTestOptions } from "../support/emulatorPerTest";
import { CLICKSTACK_BASE, asPutBody, objectByHand } from "../support/byHand";
import { BACKGROUND, COLOR_RULES, SOURCE_BY_HAND, onClick } from "../support/keptFieldValues";
import { logSource } from "../support/sources";

type Obj = Record<string, unknown>;

const DIALECTS: readonly { readonly name: string; readonly options: PerTestOptions; readonly prefix: string }[] = [
  {
    name: "HyperDX (2026)",
    options: { service: "alerting", mode: "2026", helper: "kept fields test" },
    prefix: "/api/v2",
  },
  { name: "the contract's mode", options: { service: "alerting", helper: "kept fields test" }, prefix: "/api/v2" },
  {
    name: "managed ClickStack",
    options: { service: "clickstack", helper: "kept fields test" },
    prefix: CLICKSTACK_BASE,
  },
];

const CONN = SEEDED_CONNECTION.id;
const S = SEEDED_SOURCES[0].id;
const logs = logSource(CONN);
const metrics = {
  kind: "metric",
  name: "Metrics",
  connection: CONN,
  from: { databaseName: "default" },
  timestampValueExpression: "TimeUnix",
  resourceAttributesExpression: "ResourceAttributes",
  metricTables: { gauge: "otel_metrics_gauge", sum: "otel_metrics_sum" },
};

/** What a user sets on a log source in the UI (HyperDX's document's MaterializedView and its siblings). */
const SET_IN_THE_UI = SOURCE_BY_HAND;
/** Managed ClickStack's sources also hold filterSettings (ClickStackSourceFilterSettings). */
const FILTER_SETTINGS: Obj = {
  filterSettings: {
    databaseName: "default",
    tableName: "otel_logs",
    columns: [{ name: "ServiceName", label: "Service" }],
  },
};

const numberTile = {
  name: "Count",
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config: { displayType: "number", sourceId: S, select: [{ aggFn: "count" }] },
};
const tableTile = {
  name: "Top",
  x: 6,
  y: 0,
  w: 6,
  h: 3,
  config: { displayType: "table", sourceId: S, select: [{ aggFn: "count" }], groupBy: "ServiceName" },
};
const filter = { type: "QUERY_EXPRESSION", name: "Service", expression: "ServiceName", sourceId: S };
const board = { name: "Ops", tiles: [numberTile, tableTile], filters: [filter] };
const ON_CLICK = onClick(S);

/** The members a user sets in the UI on the dashboard's tiles and filter. */
function setByHandOn(dashboardHeld: Obj): Obj {
  const tiles = (dashboardHeld.tiles as Obj[]).map((t) => {
    const config = t.config as Obj;
    if (config.displayType === "number")
      return { ...t, config: { ...config, colorRules: COLOR_RULES, backgroundChart: BACKGROUND } };
    if (config.displayType === "table") return { ...t, config: { ...config, onClick: ON_CLICK } };
    return t;
  });
  const filters = (dashboardHeld.filters as Obj[]).map((f) => ({ ...f, appliesToSourceIds: [S] }));
  return { ...asPutBody(dashboardHeld), tiles, filters };
}

const configOf = (held: Obj, name: string) => ((held.tiles as Obj[]).find((t) => t.name === name)?.config ?? {}) as Obj;

describe.each(DIALECTS)("kept fields in $name", ({ name, options, prefix }) => {
  const service = emulatorPerTest(options);
  const where = options.service === "clickstack" ? "clickstack" : "alerting";
  const hand = (method: string, path: string, body?: unknown) =>
    objectByHand(service.emulator, where, method, path, body);
  const managed = where === "clickstack";

  it("keeps a source's materialized views, set by hand, through an update of another property (one GET, one PUT)", async () => {
    const made = await source.create(logs);
    const setHere = { ...SET_IN_THE_UI, ...(managed ? FILTER_SETTINGS : {}) };
    await hand("PUT", `/sources/${made.id}`, { ...asPutBody(await hand("GET", `/sources/${made.id}`)), ...setHere });
    service.emulator.resetRequestLog();

    const changed = { ...logs, bodyExpression: "Body" };
    const updated = await source.update(made.id, made.outs, changed);

    expect(service.requests()).toEqual([`GET ${prefix}/sources/${made.id}`, `PUT ${prefix}/sources/${made.id}`]);
    expect(await hand("GET", `/sources/${made.id}`)).toMatchObject({ bodyExpression: "Body", ...setHere });
    const read = await source.read(made.id, updated.outs);
    expect(read.props).not.toHaveProperty("materializedViews");
    expect((await source.diff(made.id, read.props, changed)).changes).toBe(false);
  });

  it("keeps a metric source's exponential histogram table, set by hand, through a rename", async () => {
    const made = await source.create(metrics);
    const held = await hand("GET", `/sources/${made.id}`);
    const tables = { ...(held.metricTables as Obj), "exponential histogram": "otel_metrics_exponential_histogram" };
    await hand("PUT", `/sources/${made.id}`, { ...asPutBody(held), metricTables: tables });

    const renamed = { ...metrics, name: "Metrics (prod)" };
    const updated = await source.update(made.id, made.outs, renamed);

    expect((await hand("GET", `/sources/${made.id}`)).metricTables).toEqual(tables);
    const read = await source.read(made.id, updated.outs);
    expect((await source.diff(made.id, read.props, renamed)).changes).toBe(false);
  });

  it(`keeps tiles' colorRules, backgroundChart and onClick, and a filter's appliesToSourceIds, set by hand, through a rename and a move (${name})`, async () => {
    const made = await dashboard.create(board);
    await hand("PUT", `/dashboards/${made.id}`, setByHandOn(await hand("GET", `/dashboards/${made.id}`)));
    service.emulator.resetRequestLog();

    // Renamed, the tiles swapped: each keeps its own members, matched by the id it keeps.
    const changed = {
      ...board,
      name: "Ops (prod)",
      tiles: [
        { ...tableTile, x: 0 },
        { ...numberTile, x: 6 },
      ],
    };
    const updated = await dashboard.update(made.id, made.outs, changed);

    const sent = service.requests();
    expect(sent.indexOf(`GET ${prefix}/dashboards/${made.id}`)).toBeGreaterThanOrEqual(0);
    expect(sent.indexOf(`GET ${prefix}/dashboards/${made.id}`)).toBeLessThan(
      sent.indexOf(`PUT ${prefix}/dashboards/${made.id}`),
    );
    const after = await hand("GET", `/dashboards/${made.id}`);
    expect(configOf(after, "Count")).toMatchObject({ colorRules: COLOR_RULES, backgroundChart: BACKGROUND });
    expect(configOf(after, "Top")).toMatchObject({ onClick: ON_CLICK });
    expect((after.filters as Obj[])[0]).toMatchObject({ name: "Service", appliesToSourceIds: [S] });
    const read = await dashboard.read(made.id, updated.outs);
    expect((await dashboard.diff(made.id, read.props, changed)).changes).toBe(false);
  });
});

describe("what an update still clears (HyperDX 2026)", () => {
  const service = emulatorPerTest({ service: "alerting", mode: "2026", helper: "kept fields test" });
  const hand = (method: string, path: string, body?: unknown) =>
    objectByHand(service.emulator, "alerting", method, path, body);

  it("clears a property the program removed, while keeping the materialized views beside it", async () => {
    const made = await source.create({ ...logs, bodyExpression: "Body" });
    await hand("PUT", `/sources/${made.id}`, {
      ...asPutBody(await hand("GET", `/sources/${made.id}`)),
      ...SET_IN_THE_UI,
    });
    await source.update(made.id, made.outs, logs);
    const after = await hand("GET", `/sources/${made.id}`);
    expect(after).not.toHaveProperty("bodyExpression");
    expect(after).toMatchObject(SET_IN_THE_UI);
  });

  it("sends a tile turned into another chart without the old chart's members", async () => {
    const made = await dashboard.create(board);
    await hand("PUT", `/dashboards/${made.id}`, setByHandOn(await hand("GET", `/dashboards/${made.id}`)));
    const line = { ...numberTile, config: { ...numberTile.config, displayType: "line" } };
    await dashboard.update(made.id, made.outs, { ...board, tiles: [line, tableTile] });
    const after = await hand("GET", `/dashboards/${made.id}`);
    expect(configOf(after, "Count")).not.toHaveProperty("colorRules");
    expect(configOf(after, "Top")).toMatchObject({ onClick: ON_CLICK });
  });
});
