// `npm run bench`: the provider's performance figures. The applies and the memory figure run on the
// real Pulumi engine (the pulumi CLI through the Automation API) against the local emulator; the
// figures of the provider host itself are taken by driving Pulumi's host directly. Prints a table
// and writes bench/results.json. Not part of `npm test`; a missed target is reported as FAIL.

import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pulumiCli } from "../scripts/engine/pulumiCli";
import { repoRoot } from "../scripts/packedPackage";
import { prepareBenchFolder } from "./benchFolder";
import { engineDefaultParallel, engineName } from "./engineRun";
import { hostScenarios } from "./hostScenarios";
import { memory } from "./memory";
import { nativeApply, nativeMemory, nativeRateLimitedApply } from "./native";
import { environment, mergeResults, printEnvironment, printTable, writeResults, type ScenarioResult } from "./report";
import { refreshByList } from "./refresh";
import { adoptAtScale } from "./adopt";
import { alertingSoakSweep, clickPipeSoakSweep, soakSweep } from "./soak";
import { latencyBoundApply, rateLimitedApply } from "./throughput";
import { writeTables } from "./resultsDoc";
import { atAThousand, THOUSAND_RUNS_ENV, thousandRows } from "./thousand";
import { ONE_BUDGET_ROWS, oneBudgetApply } from "./budget";
import { CLICK_PIPE_APPLY_ROWS, clickPipeApply } from "./clickPipeApply";

function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
}

/** docs/performance.md's tables, rendered again from bench/results.json (bench/resultsDoc.ts). */
function writeDocs(file: string): void {
  const page = join(repoRoot(), "docs", "performance.md");
  writeTables(file, page);
  console.log(`rewrote the tables of ${page} from ${file}`);
}

async function main(): Promise<void> {
  const started = performance.now();
  const file = join(repoRoot(), "bench", "results.json");
  // `npm run bench -- --docs`: only the docs' tables, from the results as they are.
  if (process.argv.includes("--docs")) return writeDocs(file);
  const env = environment();
  printEnvironment(env);
  const cli = await pulumiCli();
  console.log(
    `engine: ${engineName(cli)}, Automation API inline programs, default --parallel (${engineDefaultParallel()} here)`,
  );
  const startLoad = load();
  console.log(`load average (1, 5, 15 min) at start: ${startLoad}`);
  console.log("installing the packed package and the do-nothing reference into .alertpipe/bench…");
  const folder = prepareBenchFolder();

  // `npm run bench -- memory cold-start` runs just those; results.json is written in whole only by a
  // full run, so it always holds one comparable set. With `--record`, a part's rows replace their
  // own in it (or are added), each carrying the facts of the run that took it.
  const args = process.argv.slice(2);
  const record = args.includes("--record");
  const only = args.filter((a) => a !== "--record");
  const wanted = (name: string): boolean => only.length === 0 || only.some((word) => name.includes(word));
  const results: ScenarioResult[] = [];
  const step = async (
    names: readonly string[],
    run: () => Promise<ScenarioResult | ScenarioResult[]>,
  ): Promise<void> => {
    if (!names.some(wanted)) return;
    const t = performance.now();
    process.stdout.write(`running ${names.filter(wanted).join(", ")}… `);
    const loadAtStart = load();
    const out = await run();
    // Each row carries the load it was taken under: a part recorded alone, or a row of a full run.
    const loadAverage = { start: loadAtStart, end: load() };
    results.push(...(Array.isArray(out) ? out : [out]).map((r) => ({ ...r, extra: { ...r.extra, loadAverage } })));
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  await step(["rate-limited-apply"], () => rateLimitedApply(folder));
  await step(["latency-bound-apply", "latency-bound-apply-sleep-only"], () => latencyBoundApply(folder));
  await step(["requests-per-op", "state-weight", "cold-start", "native-cold-start"], () =>
    hostScenarios(folder, wanted),
  );
  await step(["memory"], () => memory(folder));
  await step(["native-apply", "native-apply-do-nothing"], () => nativeApply(folder));
  await step(["native-memory"], () => nativeMemory(folder));
  await step(["native-rate-limited-apply"], () => nativeRateLimitedApply(folder));
  await step(["refresh-by-list", "refresh-one-get-each", "refresh-by-list-plugin"], () =>
    refreshByList(folder, 3, wanted("refresh-by-list-plugin")),
  );
  await step(["adopt-export", "adopt-import"], () => adoptAtScale(folder));
  const doors = (["dynamic", "plugin"] as const).filter((door) => thousandRows(door).some(wanted));
  // ALERTPIPE_BENCH_THOUSAND_RUNS=1: one run of each operation, to check the rows end to end (not for figures).
  const thousandRuns = Number(process.env[THOUSAND_RUNS_ENV] ?? 3);
  await step([...thousandRows("dynamic"), ...thousandRows("plugin")], () => atAThousand(doors, thousandRuns));
  // Opt-in: the fault soak's sweep takes several minutes and measures correctness, not speed, so
  // a full run (no names) leaves it out; `npm run bench -- soak` runs it.
  if (only.includes("soak")) await step(["soak"], () => soakSweep(folder));
  if (only.includes("soak-alerting")) await step(["soak-alerting"], () => alertingSoakSweep(folder));
  if (only.includes("soak-clickpipe")) await step(["soak-clickpipe"], () => clickPipeSoakSweep(folder));
  // Opt-in too: the published limit makes each of its twelve ups wait three 10 s windows (some 11
  // minutes), which would take a full run past 20; `npm run bench -- one-budget` runs both doors.
  const budgetDoors = (["dynamic", "plugin"] as const).filter(
    (door) => only.length > 0 && only.some((word) => ONE_BUDGET_ROWS[door].includes(word)),
  );
  if (budgetDoors.length > 0) await step(Object.values(ONE_BUDGET_ROWS), () => oneBudgetApply(folder, budgetDoors));
  // Opt-in: three ups of 20 ClickPipes under the published limit take some minutes a door;
  // `npm run bench -- clickpipe-apply` runs both doors.
  const pipeDoors = (["dynamic", "native"] as const).filter(
    (door) => only.length > 0 && only.some((word) => CLICK_PIPE_APPLY_ROWS[door].includes(word)),
  );
  if (pipeDoors.length > 0) await step(Object.values(CLICK_PIPE_APPLY_ROWS), () => clickPipeApply(folder, pipeDoors));

  console.log("");
  printTable(results);
  if (results.some((r) => r.name.startsWith("native-"))) {
    console.log(
      "native-apply: the plugin against a minimal plugin of our gRPC shell making the same POST (native-apply-do-nothing: against the shell doing nothing); native-memory: the plugin's figure, ideal the dynamic host's on the same work in the same run; native-rate-limited-apply: the plugin against the limit's ideal, the host's figures beside it in results.json",
    );
  }
  const endLoad = load();
  console.log(`\nload average (1, 5, 15 min) at start: ${startLoad}; at end: ${endLoad}`);
  const engine = {
    cli: cli.version,
    source: cli.source,
    program: "Automation API inline program",
    parallel: engineDefaultParallel(),
  };
  if (only.length > 0) {
    if (!record) return;
    mergeResults(
      file,
      env,
      { engine, loadAverage: { start: startLoad, end: endLoad }, at: new Date().toISOString() },
      results,
    );
    console.log(`recorded ${results.map((r) => r.name).join(", ")} in ${file}`);
    writeDocs(file);
    return;
  }
  const optIn = (name: string): boolean =>
    [...Object.values<string>(ONE_BUDGET_ROWS), ...Object.values<string>(CLICK_PIPE_APPLY_ROWS)].includes(name);
  writeResults(file, env, { engine, loadAverage: { start: startLoad, end: endLoad } }, results, optIn);
  console.log(`wrote ${file} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  writeDocs(file);
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
