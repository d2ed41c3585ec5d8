// The performance tables of docs/performance.md, rendered from bench/results.json alone, so that
// the page says what the file holds and nothing else: one table per run that took rows (the full
// run's, then each part recorded on its own with `--record`), each under a line saying the
// machine, Node, versions, commit and load it was taken on. Any row the file holds is rendered,
// whatever its scenario: a new scenario needs no code here.

import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";

export const TABLE_START = "<!-- bench:table -->";
export const TABLE_END = "<!-- /bench:table -->";

const Machine = z.object({ cpu: z.string(), cores: z.number(), memoryBytes: z.number(), platform: z.string() });
const Package = z.object({ name: z.string(), version: z.string(), commit: z.string(), pulumi: z.string() });
const Engine = z.object({ cli: z.string(), program: z.string(), parallel: z.number() }).partial();
const Load = z.object({ start: z.string(), end: z.string() });

/** The facts of the run that took a row: the file's own for a full run, `extra.run` for a part recorded alone. */
const RunFacts = z.object({
  node: z.string(),
  machine: Machine,
  package: Package,
  engine: Engine.optional(),
  loadAverage: Load.optional(),
  at: z.string().optional(),
});
type RunFacts = z.infer<typeof RunFacts>;

const Floor = z.object({
  /** Null: not yet measured. */
  figure: z.number().nullable(),
  reference: z.string(),
  ratio: z.number().nullable().optional(),
});
type Floor = z.infer<typeof Floor>;

/** The floor as the ideal's cell ends: "; floor 1689 ms (ratio 1.34): the do-nothing plugin". */
export function floorWords(floor: Floor | undefined, unit: string): string {
  if (floor === undefined) return "";
  const figure = floor.figure === null ? "not yet measured" : `${formatFigure(floor.figure)} ${unit}`;
  const ratio = floor.ratio === undefined || floor.ratio === null ? "" : ` (ratio ${formatFigure(floor.ratio)})`;
  return `; floor ${figure}${ratio}: ${floor.reference}`;
}

const Row = z.object({
  name: z.string(),
  /** What the row measures, in a few words (rows written before titles existed have none). */
  title: z.string().optional(),
  /** What the ideal is: the reference the row holds its figure to (rows before issue 40 have none). */
  reference: z.string().optional(),
  measured: z.number(),
  ideal: z.number(),
  unit: z.string(),
  ratio: z.number().nullable(),
  target: z.string(),
  extra: z.looseObject({
    pass: z.boolean(),
    run: RunFacts.optional(),
    http429: z.number().optional(),
    /** The load while the row itself ran (its step of the bench), beside the run's. */
    loadAverage: Load.optional(),
    /** A second reference kept beside the ideal as a floor (issue 47: the do-nothing provider of the refresh rows). */
    floor: Floor.optional(),
    /** What of the row is not yet measured (a reference the recorded figures predate), in words. */
    notYetMeasured: z.string().optional(),
  }),
});
type Row = z.infer<typeof Row>;

const ResultsFile = z.looseObject({ ...RunFacts.shape, scenarios: z.array(Row) });
export type ResultsFile = z.infer<typeof ResultsFile>;

export function readResults(file: string): ResultsFile {
  return ResultsFile.parse(JSON.parse(readFileSync(file, "utf8")));
}

/** A figure as the tables print it: whole numbers as they are, others to 2 places, or none from 100 up. */
export function formatFigure(n: number | null): string {
  if (n === null) return "–";
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}

/** A row's 429s, for rows that count them, as they follow its figure: ", 0 × 429". */
export function http429Words(extra: Record<string, unknown>): string {
  return typeof extra.http429 === "number" ? `, ${extra.http429} × 429` : "";
}

function runLine(facts: RunFacts): string {
  const gib = (facts.machine.memoryBytes / 2 ** 30).toFixed(1);
  const engine = facts.engine;
  const cli = engine?.cli === undefined ? "" : `, pulumi CLI ${engine.cli}`;
  const parallel = engine?.parallel === undefined ? "" : `, engine parallelism ${engine.parallel}`;
  const load =
    facts.loadAverage === undefined
      ? "load average not recorded"
      : `load average (1, 5, 15 min) ${facts.loadAverage.start} at start, ${facts.loadAverage.end} at end`;
  const at = facts.at === undefined ? "" : `, recorded ${facts.at}`;
  return (
    `Taken on ${facts.machine.cpu}, ${facts.machine.cores} cores, ${gib} GiB, ${facts.machine.platform}; ` +
    `Node ${facts.node}; ${facts.package.name} ${facts.package.version} at commit \`${facts.package.commit}\`; ` +
    `@pulumi/pulumi ${facts.package.pulumi}${cli}${parallel}; ${load}${at}.`
  );
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** The 1-minute load average the row's step started and ended at: "load 3.10 → 4.20". */
export function rowLoadWords(load: { start: string; end: string } | undefined): string {
  if (load === undefined) return "";
  const oneMinute = (text: string) => text.split(",")[0]?.trim() ?? text;
  return `load ${oneMinute(load.start)} → ${oneMinute(load.end)}`;
}

function tableRow(row: Row): string {
  const named = row.title === undefined ? row.name : `${row.name}: ${row.title}`;
  const load = rowLoadWords(row.extra.loadAverage);
  const scenario = load === "" ? named : `${named} (${load})`;
  const noIdeal = row.ideal === 0 && row.ratio === null;
  const ideal = `${formatFigure(row.ideal)} ${row.unit}`;
  const pending = row.extra.notYetMeasured === undefined ? "" : ` (${row.extra.notYetMeasured})`;
  const idealCell = noIdeal ? "–" : row.reference === undefined ? ideal : `${ideal}: ${row.reference}`;
  const cells = [
    scenario,
    `${formatFigure(row.measured)} ${row.unit}${http429Words(row.extra)}`,
    `${idealCell}${pending}${floorWords(row.extra.floor, row.unit)}`,
    formatFigure(row.ratio),
    row.target,
    row.extra.pass ? "pass" : "**FAIL**",
  ];
  return `| ${cells.map(cell).join(" | ")} |`;
}

/** The markdown between the markers: for each run that took rows, its line and its table. */
export function renderTables(results: ResultsFile): string {
  const { scenarios, ...own } = results;
  const fileFacts = RunFacts.parse(own);
  const groups = new Map<string, { facts: RunFacts; rows: Row[] }>();
  for (const row of scenarios) {
    const facts = row.extra.run ?? fileFacts;
    const key = JSON.stringify(facts);
    const group = groups.get(key) ?? { facts, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  const blocks = [...groups.values()].map(({ facts, rows }) =>
    [
      runLine(facts),
      "",
      "| scenario | measured | ideal | ratio | target | result |",
      "| --- | --- | --- | --- | --- | --- |",
      ...rows.map(tableRow),
    ].join("\n"),
  );
  return blocks.join("\n\n");
}

/** `page` with the text between its markers replaced by `tables`; throws when the markers are missing. */
export function withTables(page: string, tables: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the page has no ${TABLE_START} … ${TABLE_END} block`);
  return `${page.slice(0, start + TABLE_START.length)}\n${tables}\n${page.slice(end)}`;
}

/** The tables as the page holds them now (between the markers), or undefined when it has none. */
export function tablesIn(page: string): string | undefined {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return page.slice(start + TABLE_START.length, end).trim();
}

/** Rewrites the page's tables from the results file. */
export function writeTables(resultsFile: string, pageFile: string): void {
  const page = readFileSync(pageFile, "utf8");
  writeFileSync(pageFile, withTables(page, renderTables(readResults(resultsFile))));
}
