// The soak sweep (opt-in: `npm run bench -- soak`): the engine test's fault soak (scripts/engine/soak.ts)
// over more seeds and rates than CI has time for, printing per seed how many runs `up` and `destroy`
// took and what the service held against state. A seed replays the emulator's fault decisions, not
// the engine's parallel order, so the sweep is a sample, not a replay. SOAK_SEEDS ("1,2,3") and
// SOAK_RATES ("0.3,0.5") choose; by default 8 seeds at 30% and 4 at 50%. SOAK_DOOR=native runs it
// through the native plugin instead of the dynamic classes. `npm run bench -- soak-alerting` sweeps
// issue 44's alerting chain (scripts/engine/soakObservability.ts) instead: seeds 1 to 5 at 15% and
// 30%, through both doors, against HyperDX and managed ClickStack (SOAK_DOOR and SOAK_DIALECT pick one).
// `npm run bench -- soak-clickpipe` sweeps issue 46's ClickPipes (scripts/engine/soakClickPipe.ts):
// seeds 1 to 5 at 30% of lost answers on create, scaling and state, through both doors.

import { KEYS_SOAK, Soak, type SoakDoor, type SoakRun, type SoakScenario } from "../scripts/engine/soak";
import { observabilitySoak, SOAK_DIALECTS, soakDialect } from "../scripts/engine/soakObservability";
import { clickPipeSoak } from "../scripts/engine/soakClickPipe";
import type { BenchFolder } from "./benchFolder";
import type { ScenarioResult } from "./report";

/** Re-runs of `up` after the interrupted first one, and `destroy` runs, a seed may take. */
const MAX_RUNS = 3;

interface SeedFigures {
  scenario: string;
  door: SoakDoor;
  seed: number;
  rate: number;
  /** Re-runs of `up` after the interrupted one until one succeeded; MAX_RUNS + 1 when none did. */
  upReruns: number;
  /** Runs of `up` the changed program took (scenarios with one; else 0); MAX_RUNS + 1 when none succeeded. */
  changeRuns: number;
  destroyRuns: number;
  duplicates: number;
  orphans: number;
  missing: number;
  settingsOff: number;
  cleanUpWrites: number;
  drift: number;
  failedLogins: number;
  left: number;
  writes: number;
  faulted: number;
  seconds: number;
  /** What made the clean up not clean (uncleanCleanUp), in words; empty when it was. */
  uncleanCleanUp: string[];
  /** Each run in order: its kind, whether it succeeded, its writes, what the program registered, the engine's steps. */
  phases: Array<Pick<SoakRun, "kind" | "ok" | "writes" | "registered" | "changes">>;
  clean: boolean;
}

function list(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  return raw === undefined || raw.trim() === "" ? fallback : raw.split(",").map(Number);
}

/** The front doors SOAK_DOOR names (`fallback` when unset); a misspelt one fails rather than running the other. */
function doors(fallback: SoakDoor[]): SoakDoor[] {
  const named = process.env.SOAK_DOOR;
  if (named === undefined || named === "") return fallback;
  if (named === "dynamic" || named === "native") return [named];
  throw new Error(`SOAK_DOOR must be "dynamic" or "native", not ${JSON.stringify(named)}`);
}

async function oneSeed(
  folder: BenchFolder,
  scenario: SoakScenario,
  door: SoakDoor,
  seed: number,
  rate: number,
): Promise<SeedFigures> {
  const started = Date.now();
  const soak = await Soak.open({ scenario, seed, rate, programDir: folder.dir, door, pluginDir: folder.pluginDir });
  try {
    const { interrupted } = await soak.interruptedUp();
    const ups = await soak.upUntilOk(MAX_RUNS);
    const upReruns = ups.at(-1)?.ok === true ? ups.length : MAX_RUNS + 1;
    const changes = scenario.changed === undefined ? [] : await soak.changeUntilOk(MAX_RUNS);
    const changeRuns = changes.length === 0 || changes.at(-1)?.ok === true ? changes.length : MAX_RUNS + 1;
    soak.faultsOff();
    const census = soak.census();
    const clean = await soak.cleanUp();
    const refreshed = await soak.refresh();
    const logins = await soak.logins();
    const destroys = await soak.destroyUntilOk(MAX_RUNS);
    const destroyRuns = destroys.at(-1)?.ok === true ? destroys.length : MAX_RUNS + 1;
    soak.faultsOff();
    const left = soak.leftovers();
    const faults = soak.faultCounts();
    const figures: SeedFigures = {
      scenario: scenario.name,
      door: soak.door,
      seed,
      rate,
      upReruns,
      changeRuns,
      destroyRuns,
      duplicates: census.duplicates,
      orphans: census.orphans,
      missing: census.missing,
      settingsOff: census.settingsOff,
      cleanUpWrites: clean.writes.length,
      drift: refreshed.drift.length,
      failedLogins: Object.values(logins).filter((status) => status !== 200).length,
      left: Object.values(left).reduce((sum, n) => sum + n, 0),
      writes: faults.writes,
      faulted: faults.failBeforeCommit + faults.cutAfterCommit + faults.failAfterCommit + faults.delayAfterCommit,
      seconds: (Date.now() - started) / 1000,
      uncleanCleanUp: soak.uncleanCleanUp(clean),
      phases: soak.runs.map(({ kind, ok, writes, registered, changes }) => ({ kind, ok, writes, registered, changes })),
      clean: false,
    };
    figures.clean =
      upReruns <= MAX_RUNS &&
      changeRuns <= MAX_RUNS &&
      destroyRuns <= MAX_RUNS &&
      interrupted &&
      census.recorded === scenario.declared &&
      census.duplicates + census.orphans + census.missing + census.settingsOff + census.pending === 0 &&
      figures.uncleanCleanUp.length === 0 &&
      figures.cleanUpWrites + figures.drift + figures.failedLogins + figures.left === 0;
    console.log(`\n  ${soak.summary()}`);
    for (const run of soak.runs.filter((r) => !r.ok)) for (const e of run.errors) console.log(`    ${run.kind}: ${e}`);
    for (const d of soak.duplicated()) console.log(`    duplicate after up: ${d}`);
    if (!interrupted) console.log("    the first up ended before its SIGINT");
    if (census.recorded !== scenario.declared)
      console.log(`    state recorded ${census.recorded} of the ${scenario.declared} resources after up`);
    // What a clean up should not have done, named, so a seed that is not clean says why.
    for (const reason of figures.uncleanCleanUp) console.log(`    UNCLEAN CLEAN UP: ${reason}`);
    for (const c of clean.changes) console.log(`    clean up: ${c}`);
    for (const w of clean.writes) console.log(`    clean up wrote: ${w}`);
    return figures;
  } finally {
    await soak.close();
  }
}

/** Issue 18's sweep: the 36 resources through SOAK_DOOR (dynamic by default). */
export async function soakSweep(folder: BenchFolder): Promise<ScenarioResult> {
  const seeds = list("SOAK_SEEDS", []);
  const rates = list("SOAK_RATES", [0.3, 0.5]);
  const through = doors(["dynamic"]);
  const perSeed: SeedFigures[] = [];
  for (const rate of rates) {
    const ofRate = seeds.length > 0 ? seeds : rate <= 0.3 ? [1, 2, 3, 4, 5, 6, 7, 8] : [1, 2, 3, 4];
    for (const door of through)
      for (const seed of ofRate) perSeed.push(await oneSeed(folder, KEYS_SOAK, door, seed, rate));
  }
  return sweepResult(
    "soak",
    `the fault soak through the ${through.includes("native") ? "native plugin" : "dynamic classes"}, seeds clean`,
    perSeed,
  );
}

/** Issue 44's sweep: the alerting chain, each seed through each door against each dialect. */
export async function alertingSoakSweep(folder: BenchFolder): Promise<ScenarioResult> {
  const seeds = list("SOAK_SEEDS", [1, 2, 3, 4, 5]);
  const rates = list("SOAK_RATES", [0.15, 0.3]);
  const named = process.env.SOAK_DIALECT;
  const dialects = named === undefined || named === "" ? SOAK_DIALECTS : [soakDialect(named)];
  const perSeed: SeedFigures[] = [];
  for (const dialect of dialects)
    for (const door of doors(["dynamic", "native"]))
      for (const rate of rates)
        for (const seed of seeds) perSeed.push(await oneSeed(folder, observabilitySoak(dialect), door, seed, rate));
  return sweepResult("soak-alerting", "the alerting chain's fault soak, both doors and dialects, seeds clean", perSeed);
}

/** The clean up's writes and registrations, as "0w 12 reg"; UNCLEAN when it was not. */
function cleanUpCell(f: SeedFigures): string {
  const run = f.phases.find((p) => p.kind === "clean up");
  const cell = run === undefined ? "none" : `${run.writes}w ${run.registered} reg`;
  return f.uncleanCleanUp.length > 0 ? `UNCLEAN ${cell}` : cell;
}

/** Issue 46's sweep: the ClickPipes, lost answers on create, scaling and state, each seed through each door. */
export async function clickPipeSoakSweep(folder: BenchFolder): Promise<ScenarioResult> {
  const seeds = list("SOAK_SEEDS", [1, 2, 3, 4, 5]);
  const rates = list("SOAK_RATES", [0.3]);
  const perSeed: SeedFigures[] = [];
  for (const door of doors(["dynamic", "native"]))
    for (const rate of rates)
      for (const seed of seeds) perSeed.push(await oneSeed(folder, clickPipeSoak(), door, seed, rate));
  return sweepResult(
    "soak-clickpipe",
    "the ClickPipes' fault soak (lost answers on create, scaling and state), both doors, seeds clean",
    perSeed,
  );
}

function sweepResult(name: string, title: string, perSeed: SeedFigures[]): ScenarioResult {
  const header = [
    "scenario",
    "door",
    "seed",
    "rate",
    "up re-runs",
    "change runs",
    "destroy runs",
    "duplicates",
    "orphans",
    "missing",
    "left",
    "clean up (writes, registered)",
    "writes",
    "faulted",
    "s",
  ];
  console.log(`\n  ${header.join("  ")}`);
  for (const f of perSeed) {
    const cells = [
      f.scenario,
      f.door,
      f.seed,
      f.rate,
      f.upReruns,
      f.changeRuns,
      f.destroyRuns,
      f.duplicates,
      f.orphans,
      f.missing,
      f.left,
      cleanUpCell(f),
      f.writes,
      f.faulted,
    ];
    const row = [...cells.map(String), f.seconds.toFixed(0)].map((c, i) => c.padStart(header[i]?.length ?? 0));
    console.log(`  ${row.join("  ")}${f.clean ? "" : "  NOT CLEAN"}`);
  }
  const clean = perSeed.filter((f) => f.clean).length;
  const unclean = perSeed.filter((f) => f.uncleanCleanUp.length > 0);
  if (unclean.length > 0) {
    // Loud: a clean up that deletes or does not run the program is a lost stack, not a slow seed.
    console.error(
      `\n  ${unclean.length} UNCLEAN CLEAN UP(S): ${unclean.map((f) => `${f.scenario} ${f.door} seed ${f.seed} rate ${f.rate}: ${f.uncleanCleanUp.join("; ")}`).join(" | ")}`,
    );
    process.exitCode = 1;
  }
  return {
    name,
    title,
    measured: clean,
    ideal: perSeed.length,
    unit: "seeds clean",
    ratio: perSeed.length === 0 ? null : clean / perSeed.length,
    target: `every seed: up, the change (if any) and destroy within ${MAX_RUNS} runs, 0 duplicates, 0 orphans, clean up succeeds registering every resource and writes, deletes or replaces nothing, no drift, every key logs in, nothing left`,
    pass: clean === perSeed.length,
    extra: { perSeed },
  };
}
