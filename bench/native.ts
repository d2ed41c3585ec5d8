// The native door (`pulumi-resource-alertpipe`, found on PATH in node_modules/.bin). The latency
// row holds the plugin to a minimal plugin of our gRPC shell making the same POST (issue 40);
// the memory row and the rate-limited one set it beside the dynamic classes (Pulumi's
// dynamic-provider host) on the same program, taken in the same run so that the machine's load
// falls on both alike.

import type { BenchFolder } from "./benchFolder";
import { withEmulator } from "./emulatorProcess";
import { NO_PACING, engineDefaultParallel, engineName, type EngineUp } from "./engineRun";
import { mixedKind } from "./inputs";
import { figures, watchedUps } from "./memory";
import { nativeBuild, oursBuild, shellBuild } from "./programs";
import { ratioOf, type ScenarioResult } from "./report";
import { median, pairedRatios } from "./stats";
import {
  LATENCY_BOUND,
  NATIVE_RATE_LIMITED_TITLE,
  RATE_LIMITED,
  RATE_LIMITED_PACING,
  engineFacts,
  rateLimitedRow,
  rateLimitedUp,
  referenceEnv,
  timed,
  turned,
  timedUp,
  twoWarmUps,
  type Timed,
} from "./throughput";

const FIGURE_ONLY = "none, a figure: plugin beside dynamic host (all created)";

/** Alternated runs of the native latency-bound apply, and its target against the plugin that makes the same POST. */
export const NATIVE_LATENCY_BOUND = { runs: 5, target: 1.0 } as const;

/**
 * The latency-bound apply's program (n Alerts, 50 ms server latency, two warm-up creates) through
 * the native plugin, against two plugins of our gRPC server's shell (bench/nativeShells.ts): one
 * making the same POST with fetch (the target's reference), one doing nothing but wait the same
 * 50 ms in create (a figure). Runs alternated, the order turning each run, after one untimed up of each.
 */
export async function nativeApply(
  folder: BenchFolder,
  n: number = LATENCY_BOUND.resources,
  runs: number = NATIVE_LATENCY_BOUND.runs,
): Promise<ScenarioResult[]> {
  const { latencyMs } = LATENCY_BOUND;
  const { target } = NATIVE_LATENCY_BOUND;
  return withEmulator({ rateLimits: { cloud: false, alerting: false }, latencyMs }, async (emulator) => {
    const plugin = timed();
    const post = timed();
    const nothing = timed();
    let up: EngineUp | undefined;
    const env = referenceEnv(emulator, latencyMs);
    const programs = (run: number | "primer", into: readonly [Timed, Timed, Timed]) => [
      async () => {
        up = await timedUp(folder, emulator, into[0], `native-alerts-${run}`, NO_PACING, {
          warmUp: twoWarmUps((i) => nativeBuild(1, () => "Alert", `warm${run}-${i}`)),
          build: nativeBuild(n, () => "Alert", `alert${run}`),
          provider: "plugin",
          env,
        });
      },
      () =>
        timedUp(folder, emulator, into[1], `native-post-${run}`, NO_PACING, {
          warmUp: twoWarmUps((i) => shellBuild("post", 1, () => "Alert", `warm${run}-${i}`)),
          build: shellBuild("post", n, () => "Alert", `post${run}`),
          provider: "plugin",
          env,
        }),
      () =>
        timedUp(folder, emulator, into[2], `native-nothing-${run}`, NO_PACING, {
          warmUp: twoWarmUps((i) => shellBuild("nothing", 1, () => "Alert", `warm${run}-${i}`)),
          build: shellBuild("nothing", n, () => "Alert", `nothing${run}`),
          provider: "plugin",
          env,
        }),
    ];
    for (const program of programs("primer", [timed(), timed(), timed()])) await program();
    for (let run = 0; run < runs; run++)
      for (const program of turned(programs(run, [plugin, post, nothing]), run)) await program();
    const measured = median(plugin.ms);
    const againstPost = pairedRatios(plugin.ms, post.ms);
    const againstNothing = pairedRatios(plugin.ms, nothing.ms);
    const within = (r: number | null) => r !== null && r <= target;
    const allCreated = (t: Timed) => t.created.every((c) => c === n + 2);
    const postRequests = post.requests.filter((r) => r.method === "POST").length;
    const common = {
      ...engineFacts(up),
      resources: n,
      kind: "Alert",
      serverLatencyMs: latencyMs,
      measuredIs: `median of ${runs} ups through the native plugin (alertpipe:index:Alert, pulumi-resource-alertpipe on PATH); in each, after two warm-up creates: the ${n} registrations to the last one's outputs back from the engine, timed in the program`,
      runsMs: plugin.ms,
      warmSingleCreateMs: {
        plugin: median(plugin.warmUpMs.map((w) => w[1] ?? NaN)),
        post: median(post.warmUpMs.map((w) => w[1] ?? NaN)),
        nothing: median(nothing.warmUpMs.map((w) => w[1] ?? NaN)),
      },
      coldFirstCreateMs: {
        plugin: median(plugin.warmUpMs.map((w) => w[0] ?? NaN)),
        post: median(post.warmUpMs.map((w) => w[0] ?? NaN)),
        nothing: median(nothing.warmUpMs.map((w) => w[0] ?? NaN)),
      },
      requests: { plugin: plugin.requests.length, post: post.requests.length, nothing: nothing.requests.length },
      createdPerUp: { plugin: plugin.created, post: post.created, nothing: nothing.created },
    };
    return [
      {
        name: "native-apply",
        title: `${n} Alerts, ${latencyMs} ms server latency, native plugin, ${runs} alternated runs, against a minimal plugin making the same POST`,
        reference: "a minimal native plugin (our gRPC shell) making the same POST with fetch",
        measured,
        ideal: median(post.ms),
        unit: "ms",
        ratio: againstPost.ofMedians,
        target: `ratio <= ${target.toFixed(2)}, and the median of the runs' own ratios too`,
        pass:
          within(againstPost.ofMedians) &&
          within(againstPost.medianOfPairs) &&
          allCreated(plugin) &&
          allCreated(post) &&
          postRequests === n * runs,
        extra: {
          ...common,
          idealIs: `the same program and inputs through pulumi-resource-benchpost (bench/nativeShells.ts): our plugin's gRPC server shell, the same gRPC, protobuf and Struct conversion, whose create POSTs the inputs with fetch to the same emulator and returns the answer, no checks, retries or pacing; runs alternated, the order turning each run, after one untimed up of each`,
          medianOfPairedRatios: againstPost.medianOfPairs,
          pairedRatios: againstPost.perRun,
          referenceRunsMs: post.ms,
          referencePosts: postRequests,
        },
      },
      {
        name: "native-apply-do-nothing",
        title: "the same runs against a native plugin that only waits 50 ms in create",
        reference: "a do-nothing native plugin (our gRPC shell), no HTTP",
        measured,
        ideal: median(nothing.ms),
        unit: "ms",
        ratio: againstNothing.ofMedians,
        target: "none, a figure: the engine's and gRPC's floor; the row above holds the target",
        pass: allCreated(plugin) && allCreated(nothing) && nothing.requests.length === 0,
        extra: {
          ...common,
          idealIs: `the same program through pulumi-resource-benchnothing (bench/nativeShells.ts): the same shell answering each call from its inputs, its create after ${latencyMs} ms, no HTTP`,
          medianOfPairedRatios: againstNothing.medianOfPairs,
          pairedRatios: againstNothing.perRun,
          referenceRunsMs: nothing.ms,
        },
      },
    ];
  });
}

/**
 * The rate-limited apply through the plugin, held to the same target as the dynamic host's row: its
 * ideal is the windows plus the plugin's own warm single create. The dynamic host's runs are
 * alternated with it under the same limit, and its figures kept beside the plugin's.
 */
export async function nativeRateLimitedApply(folder: BenchFolder): Promise<ScenarioResult> {
  return withEmulator({ rateLimits: { cloud: RATE_LIMITED.limit, alerting: false } }, async (emulator) => {
    const plugin = timed();
    const dynamic = timed();
    let up: EngineUp | undefined;
    for (let run = 0; run < RATE_LIMITED.runs; run++) {
      up = await timedUp(folder, emulator, plugin, `native-pipes-${run}`, RATE_LIMITED_PACING, {
        ...rateLimitedUp(run, (n, prefix) => nativeBuild(n, () => "PipeSettings", prefix)),
        provider: "plugin",
      });
      await timedUp(
        folder,
        emulator,
        dynamic,
        `dynamic-pipes-${run}`,
        RATE_LIMITED_PACING,
        rateLimitedUp(run, (n, prefix) => oursBuild(n, () => "PipeSettings", prefix)),
      );
    }
    const row = rateLimitedRow(
      "native-rate-limited-apply",
      NATIVE_RATE_LIMITED_TITLE,
      plugin,
      up,
      "the native plugin (alertpipe:index:PipeSettings, pulumi-resource-alertpipe on PATH)",
    );
    const beside = rateLimitedRow("rate-limited-apply", "", dynamic, up, "the dynamic classes");
    return {
      ...row,
      pass: row.pass && dynamic.requests.every((r) => r.status !== 429),
      extra: {
        ...row.extra,
        dynamicHost: {
          note: "the same program through the dynamic classes, runs alternated with the plugin's, under the same limit",
          measured: beside.measured,
          ideal: beside.ideal,
          ratio: beside.ratio,
          runsMs: beside.extra.runsMs,
          http429: beside.extra.http429,
          pacingExcessPerWindowMs: beside.extra.pacingExcessPerWindowMs,
        },
      },
    };
  });
}

/** The memory row's program (n mixed resources, no warm-up), through each front door: the provider process's peak RSS. */
export async function nativeMemory(folder: BenchFolder, n = 500): Promise<ScenarioResult> {
  const pluginRun = { stack: "native-memory", build: nativeBuild(n, mixedKind, "mixed"), provider: "plugin" as const };
  const dynamicRun = { stack: "native-memory-dynamic", build: oursBuild(n, mixedKind, "mixed") };
  return watchedUps(folder, pluginRun, dynamicRun, (pluginUp, dynamicUp) => {
    const plugin = figures(pluginUp);
    const dynamic = figures(dynamicUp);
    return {
      name: "native-memory",
      reference: "the dynamic host on the same 500 creates",
      title: `provider process peak RSS during ${n} creates, plugin (measured) beside dynamic host (ideal)`,
      measured: plugin.peakMB,
      ideal: dynamic.peakMB,
      unit: "MB",
      ratio: ratioOf(plugin.peakMB, dynamic.peakMB),
      target: FIGURE_ONLY,
      pass: plugin.created === n && dynamic.created === n,
      extra: {
        engine: engineName(pluginUp.tool),
        parallel: `engine default, no --parallel: ${engineDefaultParallel()} (4 x CPUs, pulumi up's default)`,
        measuredIs: `VmHWM of the native plugin's process (the descendant of the pulumi CLI running node …/pulumi-resource-alertpipe), polled from /proc every 20 ms during one up of ${n} creates and read once more when the last create was answered (MB = 10^6 bytes)`,
        idealIs:
          "the same for the same program and inputs through the dynamic classes: VmHWM of the dynamic-provider host, as the memory row measures it",
        resources: { PipeSettings: (n * 2) / 5, Alert: (n * 2) / 5, ApiKey: n / 5 },
        plugin,
        dynamic,
        pluginOverDynamicMB: plugin.peakMB - dynamic.peakMB,
      },
    };
  });
}
