// Where the provider process's memory goes during the memory row's 500 creates: not a figure of the
// bench but the evidence behind it (docs/performance.md, "Where the memory goes"). Runs the memory
// row's program on the real engine three times, through our dynamic classes, the do-nothing
// provider and our native plugin, with bench/hostProbe.ts preloaded into the provider process:
// its memoryUsage() every 25 ms, and heap snapshots (SIGUSR2) as the creates come back. Prints, for
// each, the usage at the peak RSS and the live heap by constructor, and what ours holds beyond the
// do-nothing provider's. Snapshots pause the process and allocate, so these runs' peaks are not
// the row's; its figure comes from the plain runs. `npm run build && node --max-old-space-size=4096
// dist/bench/hostHeap.js` (the snapshots stay in .alertpipe/heap).

import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { prepareBenchFolder, type BenchFolder } from "./benchFolder";
import { withEmulator } from "./emulatorProcess";
import { NO_PACING, emulatorStackConfig, engineUp, type Build } from "./engineRun";
import { hostPids, type ProviderProcess } from "./hostMemory";
import { PROBE_DIR_ENV } from "./hostProbe";
import { mixedKind } from "./inputs";
import { nativeBuild, oursBuild, referenceBuild } from "./programs";
import { workDir } from "../scripts/packedPackage";

const MB = 1_000_000;
const N = 500;
/** After how many creates answered a snapshot is taken. */
const SNAPSHOT_AT = [250, 490];

interface Usage {
  at: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Run {
  name: string;
  usageAtPeak: Usage;
  maxima: Omit<Usage, "at">;
  /** Per snapshot: self size by group ("object Foo", "closure", "string", "code", …), bytes. */
  heaps: Map<string, number>[];
}

/** Live heap by group from one V8 heap snapshot. */
export function heapByGroup(file: string): Map<string, number> {
  const snap = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const groups = new Map<string, number>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt] ?? 0] ?? "?";
    const name = snap.strings[snap.nodes[i + nameAt] ?? 0] ?? "?";
    // Objects and native objects by constructor; code, strings, closures and the rest by kind.
    const group =
      type === "object" || type === "native" || type === "hidden" || type === "array"
        ? `${type} ${name.length > 60 ? `${name.slice(0, 57)}...` : name}`
        : type;
    groups.set(group, (groups.get(group) ?? 0) + (snap.nodes[i + sizeAt] ?? 0));
  }
  return groups;
}

function usageOf(dir: string, pid: number): Usage[] {
  return readFileSync(join(dir, `usage-${pid}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Usage);
}

async function probed(
  folder: BenchFolder,
  name: string,
  build: Build,
  provider: ProviderProcess = "dynamic-host",
): Promise<Run> {
  const dir = workDir("heap", name);
  for (const f of readdirSync(dir)) rmSync(join(dir, f));
  const signalled = new Set<number>();
  await withEmulator({ rateLimits: { cloud: false, alerting: false } }, async (emulator) => {
    await engineUp(folder, {
      stack: `heap-${name}`,
      config: emulatorStackConfig(emulator, NO_PACING),
      build,
      provider,
      env: { NODE_OPTIONS: `--require ${join(__dirname, "hostProbe.js")}`, [PROBE_DIR_ENV]: dir },
      onResolved: (count) => {
        if (!SNAPSHOT_AT.includes(count) || signalled.has(count)) return;
        signalled.add(count);
        for (const pid of hostPids(provider)) process.kill(pid, "SIGUSR2");
      },
    });
  });
  const files = readdirSync(dir);
  const usageFile = files.find((f) => f.startsWith("usage-"));
  if (usageFile === undefined) throw new Error(`no usage was written for ${name}: was the probe preloaded?`);
  const pid = Number(usageFile.slice("usage-".length, -".jsonl".length));
  const usage = usageOf(dir, pid);
  const peak = usage.reduce((a, b) => (b.rss > a.rss ? b : a));
  const max = (k: keyof Omit<Usage, "at">) => Math.max(...usage.map((u) => u[k]));
  const heaps = files
    .filter((f) => f.startsWith(`heap-${pid}-`))
    .sort()
    .map((f) => heapByGroup(join(dir, f)));
  return {
    name,
    usageAtPeak: peak,
    maxima: {
      rss: max("rss"),
      heapTotal: max("heapTotal"),
      heapUsed: max("heapUsed"),
      external: max("external"),
      arrayBuffers: max("arrayBuffers"),
    },
    heaps,
  };
}

const mb = (b: number): string => (b / MB).toFixed(1);

function printUsage(run: Run): void {
  const u = run.usageAtPeak;
  const m = run.maxima;
  console.log(
    `${run.name}: at peak RSS ${mb(u.rss)} MB: heapTotal ${mb(u.heapTotal)}, heapUsed ${mb(u.heapUsed)}, external ${mb(u.external)} (arrayBuffers ${mb(u.arrayBuffers)}), outside V8's heap ${mb(u.rss - u.heapTotal)}; maxima: heapTotal ${mb(m.heapTotal)}, heapUsed ${mb(m.heapUsed)}, external ${mb(m.external)}`,
  );
  run.heaps.forEach((h, i) => {
    const total = [...h.values()].reduce((a, b) => a + b, 0);
    console.log(`  live heap at snapshot ${i + 1} (after ${SNAPSHOT_AT[i]} creates): ${mb(total)} MB`);
  });
}

function printDelta(ours: Run, reference: Run, top = 25): void {
  const a = ours.heaps[ours.heaps.length - 1];
  const b = reference.heaps[reference.heaps.length - 1];
  if (a === undefined || b === undefined) return;
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys]
    .map((k) => ({ k, ours: a.get(k) ?? 0, ref: b.get(k) ?? 0 }))
    .sort((x, y) => Math.abs(y.ours - y.ref) - Math.abs(x.ours - x.ref))
    .slice(0, top);
  console.log(`\n${ours.name} minus ${reference.name}, live heap at the last snapshot, by group (MB):`);
  for (const r of rows) console.log(`  ${mb(r.ours - r.ref).padStart(6)}  ${r.k}  (${mb(r.ours)} vs ${mb(r.ref)})`);
}

async function main(): Promise<void> {
  const folder = prepareBenchFolder();
  const only = process.argv.slice(2);
  const runs: Run[] = [];
  const want = (n: string) => only.length === 0 || only.includes(n);
  if (want("reference")) runs.push(await probed(folder, "reference", referenceBuild(N, mixedKind, "reference")));
  if (want("dynamic")) runs.push(await probed(folder, "dynamic", oursBuild(N, mixedKind, "mixed")));
  if (want("plugin")) runs.push(await probed(folder, "plugin", nativeBuild(N, mixedKind, "native"), "plugin"));
  for (const r of runs) printUsage(r);
  const reference = runs.find((r) => r.name === "reference");
  if (reference !== undefined) for (const r of runs) if (r !== reference) printDelta(r, reference);
  mkdirSync(workDir("heap"), { recursive: true });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
