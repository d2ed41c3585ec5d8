// The two front doors on the same work (issue 17, point 6): the same program of resources, same
// inputs, same engine and emulator, created once through the dynamic classes (Pulumi's
// dynamic-provider host) and once through the native plugin (`pulumi-resource-alertpipe`, found on
// PATH in node_modules/.bin). Each row's measured figure is the plugin's, its ideal column the
// dynamic host's, taken in the same run so that the machine's load falls on both alike. They report;
// no target holds the plugin to the host, only that every resource was created.

import type { BenchFolder } from "./benchFolder";
import { withEmulator } from "./emulatorProcess";
import { NO_PACING, engineDefaultParallel, engineName, type EngineUp } from "./engineRun";
import { mixedKind } from "./inputs";
import { figures, watchedUps } from "./memory";
import { nativeBuild, oursBuild } from "./programs";
import { ratioOf, type ScenarioResult } from "./report";
import { median } from "./stats";
import {
  NATIVE_RATE_LIMITED_TITLE,
  RATE_LIMITED,
  RATE_LIMITED_PACING,
  engineFacts,
  rateLimitedRow,
  rateLimitedUp,
  timed,
  timedUp,
  twoWarmUps,
} from "./throughput";

const FIGURE_ONLY = "none, a figure: plugin beside dynamic host (all created)";

/** The latency-bound apply's program (n Alerts, 50 ms server latency, two warm-up creates), through each front door, runs alternated. */
export async function nativeApply(folder: BenchFolder, n = 200, runs = 3): Promise<ScenarioResult> {
  const latencyMs = 50;
  return withEmulator({ rateLimits: { cloud: false, alerting: false }, latencyMs }, async (emulator) => {
    const plugin = timed();
    const dynamic = timed();
    let up: EngineUp | undefined;
    for (let run = 0; run < runs; run++) {
      up = await timedUp(folder, emulator, plugin, `native-alerts-${run}`, NO_PACING, {
        warmUp: twoWarmUps((i) => nativeBuild(1, () => "Alert", `warm${run}-${i}`)),
        build: nativeBuild(n, () => "Alert", `alert${run}`),
        provider: "plugin",
      });
      await timedUp(folder, emulator, dynamic, `dynamic-alerts-${run}`, NO_PACING, {
        warmUp: twoWarmUps((i) => oursBuild(1, () => "Alert", `warm${run}-${i}`)),
        build: oursBuild(n, () => "Alert", `alert${run}`),
      });
    }
    const measured = median(plugin.ms);
    const ideal = median(dynamic.ms);
    const allCreated = [...plugin.created, ...dynamic.created].every((c) => c === n + 2);
    return {
      name: "native-apply",
      title: `${n} Alerts, ${latencyMs} ms server latency, plugin (measured) beside dynamic host (ideal), median of ${runs}`,
      measured,
      ideal,
      unit: "ms",
      ratio: ratioOf(measured, ideal),
      target: FIGURE_ONLY,
      pass: allCreated,
      extra: {
        ...engineFacts(up),
        resources: n,
        kind: "Alert",
        serverLatencyMs: latencyMs,
        measuredIs: `median of ${runs} ups through the native plugin (alertpipe:index:Alert, pulumi-resource-alertpipe on PATH); in each, after two warm-up creates: the ${n} registrations to the last one's outputs back from the engine, timed in the program`,
        idealIs:
          "the same program, inputs and warm-up through the dynamic classes (Pulumi's dynamic-provider host), runs alternated with the plugin's: the latency-bound apply's program",
        runsMs: plugin.ms,
        dynamicRunsMs: dynamic.ms,
        warmSingleCreateMs: {
          plugin: median(plugin.warmUpMs.map((w) => w[1] ?? NaN)),
          dynamic: median(dynamic.warmUpMs.map((w) => w[1] ?? NaN)),
        },
        coldFirstCreateMs: {
          plugin: median(plugin.warmUpMs.map((w) => w[0] ?? NaN)),
          dynamic: median(dynamic.warmUpMs.map((w) => w[0] ?? NaN)),
        },
        requests: { plugin: plugin.requests.length, dynamic: dynamic.requests.length },
        createdPerUp: { plugin: plugin.created, dynamic: dynamic.created },
      },
    };
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
