// docs/performance.md's tables are bench/results.json rendered (bench/resultsDoc.ts): its tables
// never say a figure, target or result the file does not hold, and every row the file holds is
// in them, with the machine and load of the run that took it.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults, renderTables, tablesIn, withTables, type ResultsFile } from "../../bench/resultsDoc";

const root = resolve(__dirname, "..", "..");
const RESULTS = join(root, "bench", "results.json");
const PAGE = join(root, "docs", "performance.md");

/** A results file with the rows given, taken by one full run. */
function fileWith(scenarios: ResultsFile["scenarios"]): ResultsFile {
  return {
    node: "v20.0.0",
    machine: { cpu: "Test CPU", cores: 2, memoryBytes: 2 ** 31, platform: "linux-x64" },
    package: { name: "pulumi-alertpipe", version: "0.0.1", commit: "abc1234", pulumi: "3.0.0" },
    engine: { cli: "v3.0.0", program: "Automation API inline program", parallel: 8 },
    loadAverage: { start: "0.50, 0.40, 0.30", end: "1.50, 1.40, 1.30" },
    scenarios,
  };
}

const row = (name: string, pass: boolean, extra: Record<string, unknown> = {}) => ({
  name,
  measured: 4810.55,
  ideal: 4041.964,
  unit: "ms",
  ratio: 1.19,
  target: "ratio <= 1.10",
  extra: { pass, ...extra },
});

describe("the performance page", () => {
  it("holds exactly the tables bench/results.json renders (npm run bench -- --docs rewrites them)", () => {
    const page = readFileSync(PAGE, "utf8");
    expect(tablesIn(page)).toBe(renderTables(readResults(RESULTS)));
  });
});

describe("the rendered tables", () => {
  it("give every row its figures, target and result", () => {
    const tables = renderTables(fileWith([row("rate-limited-apply", false)]));
    expect(tables).toContain("| rate-limited-apply | 4811 ms | 4042 ms | 1.19 | ratio <= 1.10 | **FAIL** |");
  });

  it("show a row of a scenario they were never told of", () => {
    const tables = renderTables(fileWith([row("refresh-by-list", true)]));
    expect(tables).toContain("| refresh-by-list | 4811 ms | 4042 ms | 1.19 | ratio <= 1.10 | pass |");
  });

  it("name a row by its title when it has one", () => {
    const tables = renderTables(fileWith([{ ...row("memory", true), title: "host peak RSS" }]));
    expect(tables).toContain("| memory: host peak RSS |");
  });

  it("give a row's floor beside its ideal: figure, ratio and reference, or not yet measured", () => {
    const floor = { figure: 1689.2, ratio: 1.34, reference: "the do-nothing plugin" };
    const tables = renderTables(
      fileWith([
        { ...row("thousand-plugin-refresh", true, { floor }), reference: "the list-reading plugin" },
        row("thousand-dynamic-refresh", true, { floor: { figure: null, reference: "the do-nothing host" } }),
      ]),
    );
    expect(tables).toContain("| 4042 ms: the list-reading plugin; floor 1689 ms (ratio 1.34): the do-nothing plugin |");
    expect(tables).toContain("| 4042 ms; floor not yet measured: the do-nothing host |");
  });

  it("say what of a row is not yet measured beside its ideal", () => {
    const tables = renderTables(
      fileWith([row("thousand-dynamic-refresh", false, { notYetMeasured: "new reference" })]),
    );
    expect(tables).toContain("| 4042 ms (new reference) |");
  });

  it("say a row's 429s beside its figure when it counted them", () => {
    const tables = renderTables(fileWith([row("rate-limited-apply", true, { http429: 0 })]));
    expect(tables).toContain("| 4811 ms, 0 × 429 |");
  });

  it("say the machine, Node, versions, commit and load of the run above its table", () => {
    const tables = renderTables(fileWith([row("cold-start", true)]));
    const line = tables.split("\n")[0] ?? "";
    for (const fact of [
      "Test CPU",
      "2 cores",
      "v20.0.0",
      "0.0.1",
      "`abc1234`",
      "3.0.0",
      "0.50, 0.40, 0.30",
      "1.50, 1.40, 1.30",
    ])
      expect(line).toContain(fact);
  });

  it("name the reference beside the ideal when the row states it", () => {
    const tables = renderTables(
      fileWith([{ ...row("latency-bound-apply", true), reference: "a hand-written provider" }]),
    );
    expect(tables).toContain("| 4811 ms | 4042 ms: a hand-written provider | 1.19 |");
  });

  it("say the 1-minute load the row's own step started and ended at", () => {
    const loadAverage = { start: "3.10, 2.00, 1.00", end: "4.25, 2.50, 1.10" };
    const tables = renderTables(fileWith([row("thousand-dynamic-up", true, { loadAverage })]));
    expect(tables).toContain("| thousand-dynamic-up (load 3.10 → 4.25) |");
  });

  it("put a part recorded on its own under its own run's line", () => {
    const { scenarios: _none, ...fullRun } = fileWith([]);
    const run = { ...fullRun, package: { ...fullRun.package, commit: "def5678" }, at: "2026-01-01T00:00:00.000Z" };
    const tables = renderTables(fileWith([row("memory", true), row("native-apply", true, { run })]));
    const [full, part, more] = tables.split(/\n\n(?=Taken on)/);
    expect(more).toBeUndefined();
    expect(full).toContain("`abc1234`");
    expect(full).toContain("| memory |");
    expect(full).not.toContain("native-apply");
    expect(part).toContain("`def5678`");
    expect(part).toContain("| native-apply |");
  });

  it("replace only what lies between the page's markers", () => {
    const page = "before\n<!-- bench:table -->\nold\n<!-- /bench:table -->\nafter\n";
    expect(withTables(page, "new")).toBe("before\n<!-- bench:table -->\nnew\n<!-- /bench:table -->\nafter\n");
  });
});
