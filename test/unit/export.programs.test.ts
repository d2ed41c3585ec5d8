// The programs `alertpipe export --format` writes (provider/export/program.ts and its writers), from
// objects as an export keeps them: references by name wherever the table says an input names
// another object, referents first, values written so each language reads them back as they were.

import { describe, expect, it } from "vitest";
import type { Adopted } from "../../provider/export/export";
import { EXPORT_KINDS, type ExportKind } from "../../provider/export/kinds";
import { programOf, Reference } from "../../provider/export/program";
import { typescriptProgram } from "../../provider/export/typescriptProgram";
import { yamlProgram } from "../../provider/export/yamlProgram";

const kind = (type: string): ExportKind => {
  const found = EXPORT_KINDS.find((k) => k.type === type);
  if (found === undefined) throw new Error(type);
  return found;
};

const adopted = (
  type: string,
  name: string,
  id: string,
  inputs: Record<string, unknown>,
  importId = id,
  outputs?: Record<string, unknown>,
): Adopted => ({
  kind: kind(type),
  name,
  listed: { id, importId, name: undefined },
  inputs,
  ...(outputs === undefined ? {} : { outputs }),
});

const HOOK = adopted("Webhook", "ops", "w1", { name: "ops", service: "generic", url: "https://h.example/x" });
const OTHER = adopted("Webhook", "pager", "w2", { name: "pager", service: "generic", url: "https://h.example/y" });
const SEARCH = adopted("SavedSearch", "errors", "s1", { name: "errors", sourceId: "src", where: "level:error" });
const ALERT = adopted("Alert", "errorRate", "a1", {
  name: "Error rate",
  source: "search",
  threshold: 5,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "w1" },
  channels: [
    { type: "webhook", webhookId: "w1" },
    { type: "webhook", webhookId: "w2" },
  ],
  savedSearchId: "s1",
  message: "rate ${value} over $5",
});

describe("the program an export writes", () => {
  it("makes each input the table names a reference to the object of that id, and counts them", () => {
    const program = programOf([HOOK, OTHER, SEARCH, ALERT]);
    expect(program.references).toBe(4);
    const alert = program.resources.find((r) => r.name === "errorRate");
    expect(alert?.inputs.channel).toEqual({ type: "webhook", webhookId: new Reference("ops") });
    expect(alert?.inputs.channels).toEqual([
      { type: "webhook", webhookId: new Reference("ops") },
      { type: "webhook", webhookId: new Reference("pager") },
    ]);
    expect(alert?.inputs.savedSearchId).toEqual(new Reference("errors"));
  });

  it("leaves an id of an object not exported as it is", () => {
    const program = programOf([SEARCH, ALERT]);
    expect(program.references).toBe(1);
    expect(program.resources.find((r) => r.name === "errorRate")?.inputs.channel).toEqual({
      type: "webhook",
      webhookId: "w1",
    });
  });

  it("refers by id alone: a value equal to another object's name stays text", () => {
    const named = adopted("Alert", "alertOps", "a2", { ...ALERT.inputs, name: "ops", savedSearchId: "errors" });
    const alert = programOf([HOOK, SEARCH, named]).resources.find((r) => r.name === "alertOps");
    expect([alert?.inputs.name, alert?.inputs.savedSearchId]).toEqual(["ops", "errors"]);
  });

  it("puts each resource after those it refers to, whatever order it is given", () => {
    const names = programOf([ALERT, SEARCH, OTHER, HOOK]).resources.map((r) => r.name);
    expect(names.indexOf("errorRate")).toBeGreaterThan(
      Math.max(names.indexOf("ops"), names.indexOf("pager"), names.indexOf("errors")),
    );
  });
});

describe("the Pulumi YAML program", () => {
  const text = yamlProgram(programOf([HOOK, OTHER, SEARCH, ALERT]));

  it("adopts each object with the import option, by its import id", () => {
    expect(text).toContain("  ops:\n    type: alertpipe:index:Webhook\n");
    expect(text.match(/^ {6}import: "(w1|w2|s1|a1)"$/gm)).toHaveLength(4);
  });

  it("writes each reference as ${name.id}, in lists too", () => {
    expect(text).toContain('      channel:\n        type: "webhook"\n        webhookId: "${ops.id}"\n');
    expect(text).toContain(
      '      channels:\n        - type: "webhook"\n          webhookId: "${ops.id}"\n        - type: "webhook"\n          webhookId: "${pager.id}"\n',
    );
    expect(text).toContain('      savedSearchId: "${errors.id}"\n');
  });

  it("doubles every $ of the objects' own text, which Pulumi YAML reads back as one", () => {
    expect(text).toContain('      message: "rate $${value} over $$5"\n');
  });

  it("quotes a key that is not a plain word, and writes an empty list and map", () => {
    const odd = adopted("Webhook", "odd", "w3", { name: "odd", headersLike: { "X-Token": "t" }, tags: [], m: {} });
    const written = yamlProgram(programOf([odd]));
    expect(written).toContain('        "X-Token": "t"\n');
    expect(written).toContain("      tags: []\n      m: {}\n");
  });

  it("says above each webhook what is left out and that supplying it is an update", () => {
    expect(text).toMatch(/ {2}# headers and queryParams .*\n {2}# .*\n {2}# .*\n {2}ops:/);
  });
});

describe("the TypeScript program", () => {
  const key = adopted("ApiKey", "ci", "k1", { organizationId: "org", name: "ci", roles: ["admin"] }, "org/k1");
  const settings = adopted(
    "PipeSettings",
    "pipe",
    "p1",
    { organizationId: "o", serviceId: "s", pipeId: "p1", dbMaxThreads: 8 },
    "o/s/p1",
  );
  const text = typescriptProgram(programOf([HOOK, OTHER, SEARCH, ALERT, key, settings]));

  it("imports only the classes it uses", () => {
    expect(text).toContain('import { Alert, ApiKey, PipeSettings, SavedSearch, Webhook } from "pulumi-alertpipe";');
    expect(typescriptProgram(programOf([SEARCH]))).toContain('import { SavedSearch } from "pulumi-alertpipe";');
  });

  it("takes each object over by the class's importId: a key by its uuid, the pipe's settings by none", () => {
    expect(text).toContain('const ci = new ApiKey("ci", {\n  importId: "k1",\n  organizationId: "org",');
    expect(text).toContain('const pipe = new PipeSettings("pipe", {\n  organizationId: "o",');
    expect(text).toMatch(/PipeSettings has no importId: the first up sends one PUT/);
  });

  it("writes each reference as a variable's id and keeps text as it is", () => {
    expect(text).toContain("    webhookId: ops.id,\n");
    expect(text).toContain("      webhookId: pager.id,\n");
    expect(text).toContain("  savedSearchId: errors.id,\n");
    expect(text).toContain('  message: "rate ${value} over $5",\n');
  });

  it("says above each key that its secret stays unknown to the stack", () => {
    expect(text).toMatch(/\/\/ Adopted without its keyId and keySecret[^]*keySecret stays unknown[^]*\nconst ci =/);
  });
});

describe("a dashboard, its sources and connections, and the alerts on its tiles", () => {
  const line = (name: string) => ({ name, x: 0, y: 0, w: 6, h: 3, config: { displayType: "line", sourceId: "src1" } });
  const CONNECTION = adopted("Connection", "clickhouse", "c1", { name: "ch", host: "https://ch", username: "u" });
  const SOURCE = adopted("Source", "logs", "src1", { kind: "log", name: "Logs", connection: "c1" });
  const BOARD = adopted(
    "Dashboard",
    "ops",
    "d1",
    {
      name: "Ops",
      tiles: [
        line('Ingest "lag" $5'),
        { ...line("sql"), config: { displayType: "line", configType: "sql", connectionId: "c1" } },
        { ...line("table"), config: { displayType: "table", sourceId: "src1" } },
      ],
      filters: [{ type: "QUERY_EXPRESSION", name: "service", expression: "ServiceName", sourceId: "src1" }],
    },
    "d1",
    { tileIds: { 'Ingest "lag" $5': "t1", sql: "t2" } },
  );
  const onTile = (name: string, tileId: string) =>
    adopted("Alert", name, `a-${tileId}`, {
      source: "tile",
      threshold: 1,
      thresholdType: "above",
      interval: "5m",
      dashboardId: "d1",
      tileId,
    });
  const LAG = onTile("lagHigh", "t1");
  const TABLE = onTile("tableHigh", "t3");
  const program = programOf([LAG, TABLE, BOARD, SOURCE, CONNECTION]);
  const inputsOf = (name: string) => program.resources.find((r) => r.name === name)?.inputs;
  const notesOf = (name: string) => program.resources.find((r) => r.name === name)?.notes ?? [];

  it("wires a tile alert's dashboardId to the dashboard and its tileId to the dashboard's tileIds at the tile's name", () => {
    expect(inputsOf("lagHigh")).toMatchObject({
      dashboardId: new Reference("ops"),
      tileId: new Reference("ops", ["tileIds", 'Ingest "lag" $5']),
    });
  });

  it("leaves a tileId that is not among tileIds (a table tile) an id, saying why", () => {
    expect(inputsOf("tableHigh")).toMatchObject({ dashboardId: new Reference("ops"), tileId: "t3" });
    expect(notesOf("tableHigh").join(" ")).toMatch(/tileId stays the id t3: it is not among ops's tileIds/);
    expect(notesOf("lagHigh")).toEqual([]);
  });

  it("wires tiles and filters to their source and connection, and a source to its connection", () => {
    const board = inputsOf("ops") as { tiles: Array<{ config: Record<string, unknown> }>; filters: unknown[] };
    expect(board.tiles.map((t) => t.config.sourceId ?? t.config.connectionId)).toEqual([
      new Reference("logs"),
      new Reference("clickhouse"),
      new Reference("logs"),
    ]);
    expect(board.filters).toEqual([expect.objectContaining({ sourceId: new Reference("logs") })]);
    expect(inputsOf("logs")?.connection).toEqual(new Reference("clickhouse"));
    // 2 alerts' dashboardId, 1 tileId, 3 tiles, 1 filter, 1 source.
    expect(program.references).toBe(8);
  });

  it("puts the connection, then the source, then the dashboard before the alerts on it", () => {
    const names = program.resources.map((r) => r.name);
    expect(names.slice(0, 3)).toEqual(["clickhouse", "logs", "ops"]);
  });

  it("writes the YAML reference as the dashboard's tileIds at the name, a quote escaped and no $ doubled", () => {
    const text = yamlProgram(program);
    expect(text).toContain('      tileId: "${ops.tileIds[\\"Ingest \\\\\\"lag\\\\\\" $5\\"]}"\n');
    expect(text).toContain('      dashboardId: "${ops.id}"\n');
    expect(text).toContain('      tileId: "t3"\n');
  });

  it("writes the TypeScript reference as the dashboard's tile(name), with no helper of its own", () => {
    const text = typescriptProgram(program);
    expect(text).toContain('  tileId: ops.tile("Ingest \\"lag\\" $5"),\n');
    expect(text).not.toContain("valueAt");
    expect(text).not.toContain("@pulumi/pulumi");
  });

  it("says above each connection that its password is left out and how to supply it", () => {
    for (const text of [yamlProgram(program), typescriptProgram(program)].map((t) => t.replace(/\n *(#|\/\/) /g, " ")))
      expect(text).toMatch(/password is left out: the service never returns it, and adopting without it sends nothing/);
  });
});
