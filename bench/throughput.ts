// Scenarios 1 and 2: how long `pulumi up` of many new resources takes on the real engine, against a
// rate limit and against server latency. Each run is a fresh stack, so a fresh provider host: the
// first resource of every run pays the host's start and the loading of our code, as a user's does.

import type { RecordedRequest } from "../emulator";
import { withEmulator, type EmulatorProcess } from "./emulatorProcess";
import {
  NO_PACING,
  engineDefaultParallel,
  engineName,
  engineUp,
  emulatorStackConfig,
  type Build,
  type EngineUp,
  type EngineUpOptions,
  type Pacing,
} from "./engineRun";
import type { BenchFolder } from "./benchFolder";
import { REFERENCE_SLEEP_ENV } from "./benchFolder";
import { oursBuild, referenceBuild } from "./programs";
import { ratioOf, type ScenarioResult } from "./report";
import { maxInAnyWindow, median, statusCounts } from "./stats";

export interface Timed {
  /** Per run: the timed part, from its start to the last resource's outputs (see engineRun.ts). */
  ms: number[];
  /** Per run: the warm-up steps' times. */
  warmUpMs: number[][];
  /** Per run: the timed part's first request's arrival at the emulator to its last one's. */
  requestSpanMs: number[];
  requests: RecordedRequest[];
  created: number[];
}

export function timed(): Timed {
  return { ms: [], warmUpMs: [], requestSpanMs: [], requests: [], created: [] };
}

/** Two warm-up steps of one resource each: the first starts the host and loads the code, the second is a warm single create. */
export function twoWarmUps(build: (i: number) => Build): Build[] {
  return [build(0), build(1)];
}

/** One up of `build` in a fresh stack, added to `into`; the emulator's log is split per run. */
export async function timedUp(
  folder: BenchFolder,
  emulator: EmulatorProcess,
  into: Timed,
  stack: string,
  pacing: Pacing,
  parts: Pick<EngineUpOptions, "build" | "warmUp" | "settleMs" | "env" | "provider">,
): Promise<EngineUp> {
  await emulator.resetRequestLog();
  const up = await engineUp(folder, { stack, config: emulatorStackConfig(emulator, pacing), ...parts });
  // The timed part's requests: the warm-up's came before it (both clocks are this machine's).
  const sent = (await emulator.requests()).filter((r) => r.at >= up.timedSinceEpochMs);
  into.ms.push(up.ms);
  into.warmUpMs.push(up.warmUpMs);
  into.created.push(up.created);
  into.requests.push(...sent);
  const first = sent[0];
  const last = sent[sent.length - 1];
  if (first !== undefined && last !== undefined) into.requestSpanMs.push(last.at - first.at);
  return up;
}

export function engineFacts(up: EngineUp | undefined): Record<string, unknown> {
  return {
    engine: up ? engineName(up.tool) : "none ran",
    program: "Automation API inline program, fresh stack and file backend per run",
    parallel: `engine default, no --parallel: ${engineDefaultParallel()} (4 x CPUs, pulumi up's default)`,
  };
}

// 1 ----------------------------------------------------------------------------------------------

export async function rateLimitedApply(folder: BenchFolder, n = 50, runs = 3): Promise<ScenarioResult> {
  const limit = { requests: 10, perSeconds: 1 };
  const windowMs = limit.perSeconds * 1000;
  const pacing: Pacing = { cloud: `${limit.requests}/${limit.perSeconds}`, alerting: "off" };
  return withEmulator({ rateLimits: { cloud: limit, alerting: false } }, async (emulator) => {
    const many = timed();
    let up: EngineUp | undefined;
    for (let run = 0; run < runs; run++) {
      up = await timedUp(folder, emulator, many, `pipes-${run}`, pacing, {
        warmUp: twoWarmUps((i) => oursBuild(1, () => "PipeSettings", `warm${run}-${i}`)),
        // Long enough for the emulator's fixed window and the provider's sliding one to close.
        settleMs: windowMs + 300,
        build: oursBuild(n, () => "PipeSettings", `pipe${run}`),
      });
    }
    // The second warm-up step: one PipeSettings alone through the engine, host warm.
    const oneRequestRunsMs = many.warmUpMs.map((w) => w[1] ?? NaN);
    const oneRequestMs = median(oneRequestRunsMs);
    const ideal = (Math.ceil(n / limit.requests) - 1) * windowMs + oneRequestMs;
    const measured = median(many.ms);
    const http429 = many.requests.filter((r) => r.status === 429).length;
    const ratio = ratioOf(measured, ideal);
    const allCreated = many.created.every((c) => c === n + 2);
    return {
      name: "rate-limited-apply",
      measured,
      ideal,
      unit: "ms",
      ratio,
      target: "ratio <= 1.10 and no HTTP 429",
      pass: ratio !== null && ratio <= 1.1 && http429 === 0 && allCreated,
      extra: {
        ...engineFacts(up),
        resources: n,
        kind: "PipeSettings",
        emulatorLimit: `${limit.requests} requests per ${limit.perSeconds} s fixed window (area B)`,
        providerPacing: `alertpipe:cloudRateLimit=${pacing.cloud}`,
        measuredIs: `median of ${runs} ups; in each, after two warm-up creates and ${windowMs + 300} ms for the windows to close: the ${n} registrations to the last one's outputs back from the engine, timed in the program`,
        idealIs: `(ceil(${n}/${limit.requests}) - 1) windows of ${windowMs} ms + one request's time: the median of the second warm-up create (one PipeSettings alone, host warm), timed the same way`,
        runsMs: many.ms,
        oneRequestRunsMs,
        oneRequestMs,
        coldFirstCreateRunsMs: many.warmUpMs.map((w) => w[0] ?? NaN),
        requestSpanMs: {
          runs: many.requestSpanMs,
          idealMs: (Math.ceil(n / limit.requests) - 1) * windowMs,
          note: "emulator log: the timed part's first request's arrival to its last one's",
        },
        createdPerUp: many.created,
        http429,
        requests: many.requests.length,
        statuses: statusCounts(many.requests),
        maxRequestsInAny1s: maxInAnyWindow(many.requests, windowMs),
      },
    };
  });
}

// 2 ----------------------------------------------------------------------------------------------

export async function latencyBoundApply(folder: BenchFolder, n = 200, runs = 5): Promise<ScenarioResult> {
  const latencyMs = 50;
  const parallel = engineDefaultParallel();
  return withEmulator({ rateLimits: { cloud: false, alerting: false }, latencyMs }, async (emulator) => {
    const ours = timed();
    const sleeper = timed();
    let up: EngineUp | undefined;
    // Alternated, so load from elsewhere on the machine falls on both alike.
    for (let run = 0; run < runs; run++) {
      up = await timedUp(folder, emulator, ours, `alerts-${run}`, NO_PACING, {
        warmUp: twoWarmUps((i) => oursBuild(1, () => "Alert", `warm${run}-${i}`)),
        build: oursBuild(n, () => "Alert", `alert${run}`),
      });
      await timedUp(folder, emulator, sleeper, `sleepers-${run}`, NO_PACING, {
        warmUp: twoWarmUps((i) => referenceBuild(1, () => "Alert", `warm${run}-${i}`)),
        build: referenceBuild(n, () => "Alert", `sleeper${run}`),
        env: { [REFERENCE_SLEEP_ENV]: String(latencyMs) },
      });
    }
    const measured = median(ours.ms);
    const ideal = median(sleeper.ms);
    const floorMs = Math.ceil(n / parallel) * latencyMs;
    const ratio = ratioOf(measured, ideal);
    return {
      name: "latency-bound-apply",
      measured,
      ideal,
      unit: "ms",
      ratio,
      target: "ratio <= 1.20",
      pass: ratio !== null && ratio <= 1.2 && ours.created.every((c) => c === n + 2),
      extra: {
        ...engineFacts(up),
        resources: n,
        kind: "Alert",
        serverLatencyMs: latencyMs,
        measuredIs: `median of ${runs} ups; in each, after two warm-up creates: the ${n} registrations to the last one's outputs back from the engine, timed in the program`,
        idealIs: `the same for a do-nothing provider whose create only sleeps ${latencyMs} ms: same inputs, same engine, same warm-up, runs alternated with ours`,
        floorMs,
        floorIs: `ceil(${n} / ${parallel}) x ${latencyMs} ms: the latency alone at the engine's default parallelism, no engine or host cost`,
        runsMs: ours.ms,
        referenceRunsMs: sleeper.ms,
        ratioToFloor: { ours: ratioOf(measured, floorMs), sleepOnly: ratioOf(ideal, floorMs) },
        warmSingleCreateMs: {
          ours: median(ours.warmUpMs.map((w) => w[1] ?? NaN)),
          sleepOnly: median(sleeper.warmUpMs.map((w) => w[1] ?? NaN)),
        },
        requestSpanMs: {
          runs: ours.requestSpanMs,
          note: "emulator log: the timed part's first request's arrival to its last one's",
        },
        createdPerUp: ours.created,
        statuses: statusCounts(ours.requests),
      },
    };
  });
}
