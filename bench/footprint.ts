// Scenarios 5 and 6: what our code costs a provider host in start-up time and in memory, against
// a provider that does nothing.

import { performance } from "node:perf_hooks";
import { HostDriver } from "./hostDriver";
import { KINDS, type BenchProgram, type Kind, type Reference } from "./program";
import { ratioOf, type ScenarioResult } from "./report";
import { ENGINE_DEFAULT_PARALLEL, apply, plan, type PlannedResource } from "./resources";
import { NO_LIMITS, NO_PACING, median, range, stackConfig, withHost } from "./setup";

const MB = 1_000_000;

// 5 ----------------------------------------------------------------------------------------------

interface ColdStart {
  /** Spawn to the first Check answered (Configure included). */
  totalMs: number;
  /** The first Check alone: the only call that runs provider code (loading it, configure, check). */
  firstCheckMs: number;
}

async function coldStartOnce(program: BenchProgram, kind: Kind | Reference): Promise<ColdStart> {
  const host = await HostDriver.start(program.dir);
  try {
    await host.configure({
      "alertpipe:alertingUrl": "http://127.0.0.1:9",
      "alertpipe:alertingToken": "unused-token",
      "alertpipe:cloudUrl": "http://127.0.0.1:9",
      "alertpipe:cloudKeyId": "unused-key-id",
      "alertpipe:cloudKeySecret": "unused-key-secret",
    });
    const r = plan(program, kind, 0, "cold");
    const checkSent = performance.now();
    await host.check(r.urn, {}, r.news);
    const answered = performance.now();
    return { totalMs: answered - host.spawnedAt, firstCheckMs: answered - checkSent };
  } finally {
    await host.close();
  }
}

export async function coldStart(program: BenchProgram): Promise<ScenarioResult> {
  const runs = 9;
  const variants: Array<Kind | Reference> = ["Noop", ...KINDS];
  // One throw-away start so the first measured one does not pay for a cold file cache.
  await coldStartOnce(program, "Noop");
  const samples = new Map<Kind | Reference, ColdStart[]>(variants.map((v) => [v, []]));
  for (let round = 0; round < runs; round++) {
    // Rotated so no variant always runs right after another.
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(round + i) % variants.length] as Kind | Reference;
      samples.get(v)?.push(await coldStartOnce(program, v));
    }
  }
  const medianOf = (v: Kind | Reference, field: keyof ColdStart): number => median((samples.get(v) ?? []).map((s) => s[field]));
  // Until the first Check the host runs none of our code (Configure only stores the config), so
  // our part is the first Check's extra time; the difference of whole spawn-to-answer medians is
  // the same quantity plus the noise of loading Pulumi's host, and is reported as a cross-check.
  const added = Object.fromEntries(KINDS.map((k) => [k, medianOf(k, "firstCheckMs") - medianOf("Noop", "firstCheckMs")]));
  const addedTotal = Object.fromEntries(KINDS.map((k) => [k, medianOf(k, "totalMs") - medianOf("Noop", "totalMs")]));
  const worst = Math.max(...Object.values(added));
  return {
    name: "cold-start",
    measured: worst,
    ideal: 0,
    unit: "ms",
    ratio: null,
    target: "our part <= 150 ms",
    pass: worst <= 150,
    extra: {
      measuredIs: "worst kind: median first-Check time minus the same for a do-nothing provider, each in a freshly spawned host",
      runsPerVariant: runs,
      spawnToFirstCheckMedianMs: Object.fromEntries(variants.map((v) => [v, medianOf(v, "totalMs")])),
      firstCheckMedianMs: Object.fromEntries(variants.map((v) => [v, medianOf(v, "firstCheckMs")])),
      addedMs: added,
      addedBySpawnToFirstCheckMs: addedTotal,
      samples: Object.fromEntries(variants.map((v) => [v, (samples.get(v) ?? []).map((s) => [s.totalMs, s.firstCheckMs])])),
      samplesAre: "[spawn to first Check answered, first Check] in ms",
    },
  };
}

// 6 ----------------------------------------------------------------------------------------------

/** 200 PipeSettings, 200 Alerts, 100 ApiKeys, interleaved as a program might declare them. */
function mixedResources(program: BenchProgram, n: number): PlannedResource[] {
  const kindAt = (i: number): Kind => (["PipeSettings", "PipeSettings", "Alert", "Alert", "ApiKey"] as const)[i % 5] as Kind;
  return range(n).map((i) => plan(program, kindAt(i), i, "mixed"));
}

interface MemoryRun {
  idleMB: number;
  afterFirstCreateMB: number;
  peakMB: number;
  applyMs: number;
  created: number;
  failures: string[];
}

/**
 * Host RSS when idle and after the first create, and its peak once all `resources` are created
 * (the rest at the engine's default parallelism).
 */
async function memoryRun(program: BenchProgram, resources: readonly PlannedResource[]): Promise<MemoryRun> {
  const [first, ...rest] = resources;
  if (!first) throw new Error("memoryRun needs at least one resource");
  return withHost(program, { rateLimits: NO_LIMITS }, async (host, emulator) => {
    const idle = host.memory();
    await host.configure(stackConfig(emulator, NO_PACING));
    const one = await apply(host, [first], 1);
    const afterFirst = host.memory();
    const result = await apply(host, rest, ENGINE_DEFAULT_PARALLEL);
    const after = host.memory();
    return {
      idleMB: idle.rssBytes / MB,
      afterFirstCreateMB: afterFirst.rssBytes / MB,
      peakMB: after.peakBytes / MB,
      applyMs: result.elapsedMs,
      created: one.created.length + result.created.length,
      failures: [...one.failures, ...result.failures],
    };
  });
}

export async function memory(program: BenchProgram): Promise<ScenarioResult> {
  const n = 500;
  const ours = await memoryRun(program, mixedResources(program, n));
  const noop = await memoryRun(program, range(n).map((i) => plan(program, "Noop", i, "noop")));
  const rawHttp = await memoryRun(program, range(n).map((i) => plan(program, "RawHttp", i, "raw")));
  const figures = ({ failures: _failures, ...rest }: MemoryRun) => rest;
  const failures = ours.failures;
  return {
    name: "memory",
    measured: ours.peakMB,
    ideal: noop.peakMB,
    unit: "MB",
    ratio: ratioOf(ours.peakMB, noop.peakMB),
    target: "peak RSS <= 150 MB",
    pass: ours.peakMB <= 150 && failures.length === 0 && ours.created === n,
    extra: {
      measuredIs: "VmHWM of the host after 500 creates (MB = 10^6 bytes)",
      idealIs: "the same for a do-nothing provider",
      resources: { PipeSettings: 200, Alert: 200, ApiKey: 100 },
      parallel: ENGINE_DEFAULT_PARALLEL,
      ours: figures(ours),
      doNothing: figures(noop),
      bareUndiciPost: { ...figures(rawHttp), note: "500 alerts, each one undici POST and nothing else" },
      failures: failures.slice(0, 3),
    },
  };
}
