// Preloaded (NODE_OPTIONS=--require) into the provider process by `bench/hostHeap.ts` only, never by
// the bench's measured runs: it writes the process's memoryUsage() every 25 ms, and a heap snapshot
// on SIGUSR2, into the folder PROBE_DIR_ENV names. Every node the engine starts inherits
// NODE_OPTIONS, so it acts only in the provider process (the dynamic host or our plugin).

import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";

export const PROBE_DIR_ENV = "ALERTPIPE_BENCH_PROBE_DIR";

const dir = process.env[PROBE_DIR_ENV];
const isProvider = process.argv.some(
  (a) => a.includes("cmd/dynamic-provider") || a.endsWith("pulumi-resource-alertpipe") || a.endsWith("native/main.js"),
);
if (dir !== undefined && dir !== "" && isProvider) {
  const usage = join(dir, `usage-${process.pid}.jsonl`);
  setInterval(
    () => appendFileSync(usage, `${JSON.stringify({ at: Date.now(), ...process.memoryUsage() })}\n`),
    25,
  ).unref();
  let taken = 0;
  process.on("SIGUSR2", () => {
    writeHeapSnapshot(join(dir, `heap-${process.pid}-${++taken}.heapsnapshot`));
  });
}
