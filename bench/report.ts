// How the benchmark reports: one table row per scenario, the machine and versions it ran on, and
// the same as JSON in bench/results.json.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../scripts/packedPackage";
import { formatFigure as fmt, http429Words } from "./resultsDoc";

export interface ScenarioResult {
  readonly name: string;
  /** What the row measures, in a few words, for the docs' table (bench/resultsDoc.ts). */
  readonly title?: string;
  /** What the ideal is, in a few words: the reference the row holds the measured figure to. */
  readonly reference?: string;
  readonly measured: number;
  readonly ideal: number;
  readonly unit: string;
  /** measured / ideal; null when the ideal is 0. */
  readonly ratio: number | null;
  /** The pass condition in words, e.g. "ratio <= 1.10 and no HTTP 429". */
  readonly target: string;
  readonly pass: boolean;
  readonly extra: Record<string, unknown>;
}

export interface Environment {
  readonly node: string;
  readonly machine: { cpu: string; cores: number; memoryBytes: number; platform: string };
  readonly package: { name: string; version: string; commit: string; pulumi: string };
}

export function ratioOf(measured: number, ideal: number): number | null {
  return ideal === 0 ? null : measured / ideal;
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: repoRoot(), encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "unknown";
  }
}

/** The commit the run started from; "-dirty" when the measured code had uncommitted changes. */
function commit(): string {
  const head = git(["rev-parse", "--short", "HEAD"]);
  const changed = git(["status", "--porcelain", "--", "provider", "emulator", "bench", ":!bench/results.json"]);
  return changed === "" || changed === "unknown" ? head : `${head}-dirty`;
}

export function environment(): Environment {
  const root = repoRoot();
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
  const pulumi = JSON.parse(readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")) as {
    version: string;
  };
  const cpuList = cpus();
  return {
    node: process.version,
    machine: {
      cpu: cpuList[0]?.model.trim() ?? "unknown",
      cores: cpuList.length,
      memoryBytes: totalmem(),
      platform: `${process.platform}-${process.arch}`,
    },
    package: { name: pkg.name, version: pkg.version, commit: commit(), pulumi: pulumi.version },
  };
}

export function printEnvironment(env: Environment): void {
  const gib = (env.machine.memoryBytes / 2 ** 30).toFixed(1);
  console.log(`machine: ${env.machine.cpu}, ${env.machine.cores} cores, ${gib} GiB, ${env.machine.platform}`);
  console.log(
    `node ${env.node}; ${env.package.name} ${env.package.version} (${env.package.commit}); @pulumi/pulumi ${env.package.pulumi}`,
  );
}

export function printTable(results: readonly ScenarioResult[]): void {
  const header = ["scenario", "measured", "ideal", "unit", "ratio", "target", "result"];
  const rows = results.map((r) => [
    r.name,
    `${fmt(r.measured)}${http429Words(r.extra)}`,
    fmt(r.ideal),
    r.unit,
    fmt(r.ratio),
    r.target,
    r.pass ? "pass" : "FAIL",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(row));
}

function rounded(value: unknown): unknown {
  if (typeof value === "number" && !Number.isInteger(value)) return Math.round(value * 1000) / 1000;
  if (Array.isArray(value)) return value.map(rounded);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}

function entry(r: ScenarioResult, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: r.name,
    ...(r.title === undefined ? {} : { title: r.title }),
    ...(r.reference === undefined ? {} : { reference: r.reference }),
    measured: r.measured,
    ideal: r.ideal,
    unit: r.unit,
    ratio: r.ratio,
    target: r.target,
    extra: { pass: r.pass, ...extra, ...r.extra },
  };
}

/**
 * `run`: facts of this run beside the environment (the engine, the machine's load). Rows a full run
 * does not take (opt-in parts, named by `kept`) stay as the file had them, with their own run's facts.
 */
export function writeResults(
  file: string,
  env: Environment,
  run: Record<string, unknown>,
  results: readonly ScenarioResult[],
  kept: (name: string) => boolean = () => false,
): void {
  const before = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { scenarios: Array<{ name: string }> }).scenarios
    : [];
  const doc = {
    node: env.node,
    machine: env.machine,
    package: env.package,
    ...run,
    scenarios: [...results.map((r) => entry(r)), ...before.filter((row) => kept(row.name))],
  };
  writeFileSync(file, `${JSON.stringify(rounded(doc), null, 2)}\n`);
}

/**
 * A part of the bench into the file a full run wrote: each row replaces the one of its name, or is
 * added at the end, with the facts of the run that took it under `extra.run`, since the file's own
 * (commit, load) are the full run's.
 */
export function mergeResults(
  file: string,
  env: Environment,
  run: Record<string, unknown>,
  results: readonly ScenarioResult[],
): void {
  const doc = JSON.parse(readFileSync(file, "utf8")) as { scenarios: Array<{ name: string }> };
  const facts = { run: { node: env.node, machine: env.machine, package: env.package, ...run } };
  for (const r of results) {
    const row = entry(r, facts) as { name: string };
    const at = doc.scenarios.findIndex((s) => s.name === r.name);
    if (at >= 0) doc.scenarios[at] = row;
    else doc.scenarios.push(row);
  }
  writeFileSync(file, `${JSON.stringify(rounded(doc), null, 2)}\n`);
}
