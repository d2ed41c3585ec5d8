// Where a thousand's time goes, per provider process: with ALERTPIPE_BENCH_PROFILE=<dir>, one extra
// run of each operation starts every node process below the CLI with this module (NODE_OPTIONS
// `--require`: Node refuses `--cpu-prof` there). In a provider process (the dynamic host, a plugin)
// it takes a V8 CPU profile (200 µs samples) and process.memoryUsage() every 20 ms, and writes both
// to PROFILE_TO_ENV as the process exits; `node dist/bench/profileSummary.js <dir>` reads them.

import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { basename, join } from "node:path";
import { PROFILE_TO_ENV, type MemorySample } from "./shellFacts";

const isProvider = (arg: string): boolean => /pulumi-resource-[a-z]+$|cmd\/dynamic-provider/.test(arg);

function start(dir: string, name: string): void {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  session.post("Profiler.start");
  const memory: MemorySample[] = [];
  setInterval(() => {
    const m = process.memoryUsage();
    memory.push([Math.round(performance.now()), m.rss, m.heapTotal, m.heapUsed, m.external]);
  }, 20).unref();
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    // An in-process session answers at once, so this runs within the exit handler.
    session.post("Profiler.stop", (err, answer) => {
      if (err !== null) return;
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${name}-${process.pid}`);
      writeFileSync(`${file}.cpuprofile`, JSON.stringify(answer.profile));
      writeFileSync(`${file}.memory.json`, JSON.stringify(memory));
    });
  };
  process.on("exit", write);
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.on(signal, () => {
      write();
      process.exit(0);
    });
}

const dir = process.env[PROFILE_TO_ENV];
const provider = process.argv.slice(1).find(isProvider);
if (dir !== undefined && dir !== "" && provider !== undefined)
  start(dir, provider.includes("cmd/dynamic-provider") ? "dynamic-host" : basename(provider));
