// Connection, Source and Dashboard checks: what HyperDX's server refuses fails preview naming the
// property, before any request (check sends none); what it takes, preview takes.

import { describe, expect, it } from "vitest";
import * as connection from "../../provider/connection/provider";
import * as source from "../../provider/source/provider";
import * as dashboard from "../../provider/dashboard/provider";
import { UNKNOWN } from "../../provider/protocol/properties";
import { checkFailures, where } from "../support/failures";
import { connectionEnvPerFile } from "../support/mockApi";
import { TRACE_EXPRESSIONS } from "../../scripts/record/scenarios/observability";
import { logSource } from "../support/sources";

connectionEnvPerFile();

const C = "65a0000000000000000000c1";
const S = "65a000000000000000000001";
const ch = { name: "ch", host: "http://127.0.0.1:8123", username: "default" };
const logs = logSource(C);
const line = { displayType: "line", sourceId: S, select: [{ aggFn: "count" }] };
const tile = (config: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  name: "t",
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config,
  ...more,
});
const board = (tiles: unknown[]) => ({ name: "Ops", tiles });
const paths = async (failures: Promise<{ property: string; reason: string }[]>) => (await failures).map(where);
const connFailures = checkFailures(connection.check);
const sourceFailures = checkFailures(source.check);
const boardFailures = checkFailures(dashboard.check);

describe("Connection check", () => {
  it("accepts name, host and username alone, and a password with a prefix", async () => {
    expect(await connFailures(ch)).toEqual([]);
    expect(
      await connFailures({ ...ch, password: "pw", hyperdxSettingPrefix: "hdx_", isPrometheusEndpoint: false }),
    ).toEqual([]);
  });

  it.each([["name"], ["host"], ["username"]])("requires %s", async (property) => {
    const { [property as keyof typeof ch]: _gone, ...rest } = ch;
    expect(await paths(connFailures(rest))).toEqual([property]);
  });

  it("refuses a setting prefix of other characters than letters, digits and underscores", async () => {
    expect(await paths(connFailures({ ...ch, hyperdxSettingPrefix: "a-b" }))).toEqual(["hyperdxSettingPrefix"]);
  });

  it("never shows the password in a failure", async () => {
    const failures = await connFailures({ ...ch, password: 12345678 });
    expect(failures).toHaveLength(1);
    expect(JSON.stringify(failures)).not.toContain("12345678");
  });
});

describe("Source check", () => {
  it("accepts the smallest source of each kind the server takes", async () => {
    expect(await sourceFailures(logs)).toEqual([]);
    const trace = { ...logs, kind: "trace", ...TRACE_EXPRESSIONS };
    // durationPrecision is not required, though the document says so.
    expect(await sourceFailures(trace)).toEqual([]);
    const base = {
      name: "x",
      connection: C,
      from: { databaseName: "default", tableName: "t" },
      timestampValueExpression: "T",
    };
    expect(await sourceFailures({ ...base, kind: "promql" })).toEqual([]);
    expect(await sourceFailures({ ...base, kind: "session", traceSourceId: S })).toEqual([]);
    expect(
      await sourceFailures({
        ...base,
        kind: "metric",
        from: { databaseName: "default" },
        metricTables: { gauge: "otel_metrics_gauge" },
        resourceAttributesExpression: "ResourceAttributes",
      }),
    ).toEqual([]);
  });

  it("requires a session source's timestampValueExpression, which the document leaves out", async () => {
    const { timestampValueExpression: _t, defaultTableSelectExpression: _d, ...rest } = logs;
    expect(await paths(sourceFailures({ ...rest, kind: "session", traceSourceId: S }))).toEqual([
      "timestampValueExpression",
    ]);
  });

  it("requires a trace source's span fields, each by name", async () => {
    expect((await paths(sourceFailures({ ...logs, kind: "trace" }))).sort()).toEqual(
      [
        "durationExpression",
        "parentSpanIdExpression",
        "spanIdExpression",
        "spanKindExpression",
        "spanNameExpression",
        "traceIdExpression",
      ].sort(),
    );
  });

  it("refuses a field of another kind, naming the kind's fields", async () => {
    const failures = await sourceFailures({ ...logs, durationExpression: "Duration" });
    expect(failures.map(where)).toEqual(["durationExpression"]);
    expect(failures[0]?.reason).toContain("not a field of a log source; its fields are name, kind, connection");
  });

  it("refuses null, which the server refuses though the document says nullable", async () => {
    expect(await paths(sourceFailures({ ...logs, serviceNameExpression: null }))).toEqual(["serviceNameExpression"]);
  });

  it("refuses an unknown kind and a connection that is no id", async () => {
    expect(await paths(sourceFailures({ ...logs, kind: "events" }))).toEqual(["kind"]);
    expect(await paths(sourceFailures({ ...logs, connection: "abc" }))).toEqual(["connection"]);
  });

  it("leaves a connection unknown in preview alone", async () => {
    expect(await sourceFailures({ ...logs, connection: UNKNOWN })).toEqual([]);
  });
});

describe("Dashboard check", () => {
  it("accepts what the server takes: x + w past 24, empty and repeated tile names, an empty name", async () => {
    const tiles = [
      tile(line, { x: 20, w: 12 }),
      tile(line, { name: "" }),
      tile(line, { name: "a" }),
      tile(line, { name: "a" }),
    ];
    expect(await boardFailures({ ...board(tiles), name: "" })).toEqual([]);
  });

  it("accepts each chart the server took on a log source", async () => {
    const tiles = [
      tile({
        displayType: "line",
        sourceId: S,
        select: [{ aggFn: "quantile", level: 0.99, valueExpression: "Duration" }],
      }),
      tile({ displayType: "number", sourceId: S, select: [{ aggFn: "count" }] }),
      tile({ displayType: "stacked_bar", sourceId: S, select: [{ aggFn: "count" }], groupBy: "ServiceName" }),
      tile({ displayType: "table", sourceId: S, select: [{ aggFn: "count" }] }),
      tile({ displayType: "markdown", markdown: "hi" }),
      tile({ displayType: "search", sourceId: S, searchSelect: "Body", where: "", whereLanguage: "lucene" }),
      tile({ displayType: "line", configType: "sql", connectionId: C, sqlTemplate: "SELECT 1" }),
    ];
    expect(await boardFailures(board(tiles))).toEqual([]);
  });

  it("refuses x past 23 naming the tile", async () => {
    expect(await paths(boardFailures(board([tile(line, { x: 24 })])))).toEqual(["tiles[0].x"]);
  });

  it("refuses a tile without a config", async () => {
    const { config: _c, ...bare } = tile(line);
    expect(await paths(boardFailures(board([bare])))).toEqual(["tiles[0].config"]);
  });

  it("refuses a number tile of two selects without formulas", async () => {
    const number = {
      displayType: "number",
      sourceId: S,
      select: [{ aggFn: "count" }, { aggFn: "sum", valueExpression: "x" }],
    };
    expect(await paths(boardFailures(board([tile(number)])))).toEqual(["tiles[0].config.select"]);
  });

  it("refuses count with a valueExpression", async () => {
    const config = { ...line, select: [{ aggFn: "count", valueExpression: "Duration" }] };
    expect(await paths(boardFailures(board([tile(config)])))).toEqual(["tiles[0].config.select[0].valueExpression"]);
  });

  it("refuses a field of another chart, naming the chart's fields", async () => {
    const failures = await boardFailures(board([tile({ ...line, markdown: "x" })]));
    expect(failures.map(where)).toEqual(["tiles[0].config.markdown"]);
    expect(failures[0]?.reason).toContain("not a field of a line tile; its fields are displayType, sourceId, select");
  });

  it("requires a builder tile's sourceId and a Raw SQL tile's connectionId and sqlTemplate", async () => {
    expect(await paths(boardFailures(board([tile({ displayType: "line", select: [{ aggFn: "count" }] })])))).toEqual([
      "tiles[0].config.sourceId",
    ]);
    expect((await paths(boardFailures(board([tile({ displayType: "number", configType: "sql" })])))).sort()).toEqual([
      "tiles[0].config.connectionId",
      "tiles[0].config.sqlTemplate",
    ]);
  });

  it("refuses a Raw SQL variant of a chart that has none", async () => {
    const config = { displayType: "markdown", configType: "sql", connectionId: C, sqlTemplate: "SELECT 1" };
    expect(await paths(boardFailures(board([tile(config)])))).toContain("tiles[0].config.configType");
  });

  it("refuses a tile id written in the program: it is the service's", async () => {
    expect(await paths(boardFailures(board([tile(line, { id: "abc" })])))).toEqual(["tiles[0].id"]);
  });

  it("refuses a tile in a container or tab the dashboard does not have, as the server does", async () => {
    const containers = [{ id: "main", title: "Main", collapsed: false, tabs: [{ id: "first", title: "First" }] }];
    const inside = (more: Record<string, unknown>) => ({ ...board([tile(line, more)]), containers });
    expect(await boardFailures(inside({ containerId: "main", tabId: "first" }))).toEqual([]);
    expect(await paths(boardFailures(inside({ containerId: "nope" })))).toEqual(["tiles[0].containerId"]);
    expect(await paths(boardFailures(inside({ containerId: "main", tabId: "nope" })))).toEqual(["tiles[0].tabId"]);
    expect(await paths(boardFailures(board([tile(line, { containerId: "main" })])))).toEqual(["tiles[0].containerId"]);
  });

  it("refuses a saved filter value of another type than sql, as the server does", async () => {
    const values = (type?: string) => ({ ...board([tile(line)]), savedFilterValues: [{ type, condition: "a = 1" }] });
    expect(await boardFailures(values("sql"))).toEqual([]);
    expect(await paths(boardFailures(values("lucene")))).toEqual(["savedFilterValues[0].type"]);
  });

  it("leaves a sourceId unknown in preview alone", async () => {
    expect(await boardFailures(board([tile({ ...line, sourceId: UNKNOWN })]))).toEqual([]);
  });
});
