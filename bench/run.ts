// `npm run bench`: the provider's performance figures, measured through Pulumi's own
// dynamic-provider host against the local emulator. Prints a table and writes bench/results.json.
// Not part of `npm test`; nothing here asserts, a missed target is reported as FAIL.

import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { repoRoot } from "../scripts/packedPackage";
import { prepareProgram } from "./program";
import { environment, printEnvironment, printTable, writeResults, type ScenarioResult } from "./report";
import { coldStart, memory } from "./footprint";
import { requestsAndState } from "./lifecycle";
import { latencyBoundApply, rateLimitedApply } from "./throughput";

async function main(): Promise<void> {
  const started = performance.now();
  const env = environment();
  printEnvironment(env);
  console.log("installing the packed package into .alertpipe/bench and serializing the providers…");
  const program = prepareProgram();

  // `npm run bench -- memory cold-start` runs just those; results.json is written only for a full run,
  // so it always holds one comparable set.
  const only = process.argv.slice(2);
  const results: ScenarioResult[] = [];
  const step = async (label: string, run: () => Promise<ScenarioResult | ScenarioResult[]>): Promise<void> => {
    if (only.length > 0 && !only.some((name) => label.includes(name))) return;
    const t = performance.now();
    process.stdout.write(`running ${label}… `);
    const out = await run();
    results.push(...(Array.isArray(out) ? out : [out]));
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  await step("rate-limited-apply", () => rateLimitedApply(program));
  await step("latency-bound-apply", () => latencyBoundApply(program));
  await step("requests-per-op and state-weight", () => requestsAndState(program));
  await step("cold-start", () => coldStart(program));
  await step("memory", () => memory(program));

  console.log("");
  printTable(results);
  if (only.length > 0) return;
  const file = join(repoRoot(), "bench", "results.json");
  writeResults(file, env, results);
  console.log(`\nwrote ${file} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
