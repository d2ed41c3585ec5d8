// `node dist/bench/profileSummary.js <dir> [functions]`: what bench/profileHook.ts wrote, one block per
// provider process: its life, busy and idle time, garbage collection, the heaviest functions of
// pulumi-alertpipe by inclusive time, and its memory at the peak RSS.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { MemorySample } from "./shellFacts";

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const ms = (us: number): string => (us / 1000).toFixed(0);
const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
const OURS = /pulumi-alertpipe\/dist\//;

function where(frame: CallFrame): string {
  const file = frame.url.replace(/.*pulumi-alertpipe\/dist\//, "");
  return `${frame.functionName === "" ? "(anonymous)" : frame.functionName} ${file}:${frame.lineNumber + 1}`;
}

function summarize(profile: CpuProfile, top: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let idle = 0;
  let gc = 0;
  let sampled = 0;
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    sampled += us;
    const name = byId.get(id)?.callFrame.functionName;
    if (name === "(idle)") idle += us;
    if (name === "(garbage collector)") gc += us;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame === undefined || !OURS.test(frame.url)) continue;
      const key = where(frame);
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      seen.add(key);
    }
  });
  return [
    `life ${ms(profile.endTime - profile.startTime)} ms, busy ${ms(sampled - idle)} ms, idle ${ms(idle)} ms, garbage collection ${ms(gc)} ms`,
    ...[...inclusive]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => `  ${ms(us).padStart(6)} ms  ${key}`),
  ];
}

function memoryAtPeak(samples: readonly MemorySample[]): string {
  const peak = samples.reduce<MemorySample | undefined>((a, s) => (a === undefined || s[1] > a[1] ? s : a), undefined);
  if (peak === undefined) return "no memory samples";
  const heapUsed = Math.max(...samples.map((s) => s[3]));
  return `peak RSS ${mb(peak[1])} MB at ${peak[0]} ms (heapTotal ${mb(peak[2])}, heapUsed ${mb(peak[3])}, external ${mb(peak[4])}); highest heapUsed ${mb(heapUsed)} MB`;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const [dir, top = "15"] = process.argv.slice(2);
if (dir === undefined) {
  console.error("usage: node dist/bench/profileSummary.js <dir> [functions]");
  process.exit(2);
}
for (const file of filesUnder(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort()) {
  console.log(file);
  for (const line of summarize(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, Number(top)))
    console.log(`  ${line}`);
  const memory = file.replace(/\.cpuprofile$/, ".memory.json");
  try {
    console.log(`  ${memoryAtPeak(JSON.parse(readFileSync(memory, "utf8")) as MemorySample[])}`);
  } catch {
    console.log("  (no memory file)");
  }
}
