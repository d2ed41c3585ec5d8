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
import type { StackConfig } from "../scripts/exampleStack";
import { fetchingBuild, oursBuild, referenceBuild } from "./programs";
import { FETCH_TOKEN_ENV, FETCH_URL_ENV, REFERENCE_SLEEP_ENV } from "./shellFacts";
import { ratioOf, type ScenarioResult } from "./report";
import { maxInAnyWindow, median, pairedRatios, statusCounts } from "./stats";

export interface Timed {
  /** Per run: the timed part, from its start to the last resource's outputs (see engineRun.ts). */
  ms: number[];
  /** Per run: the warm-up steps' times. */
  warmUpMs: number[][];
  /** Per run: the timed part's constructors alone (see engineRun.ts). */
  buildMs: number[];
  /** Per run: the timed part's first request's arrival at the emulator to its last one's. */
  requestSpanMs: number[];
  /** Per run: the timed part's start to its first request's arrival at the emulator. */
  firstRequestMs: number[];
  /** Per run: the arrival times of the timed part's requests, from its start, in order. */
  arrivalsMs: number[][];
  requests: RecordedRequest[];
  created: number[];
}

export function timed(): Timed {
  return {
    ms: [],
    warmUpMs: [],
    buildMs: [],
    requestSpanMs: [],
    firstRequestMs: [],
    arrivalsMs: [],
    requests: [],
    created: [],
  };
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
  parts: Pick<EngineUpOptions, "build" | "warmUp" | "settleMs" | "env" | "provider"> & {
    /** Instead of the emulator's config with `pacing` (both areas' settings). */
    config?: StackConfig;
  },
): Promise<EngineUp> {
  await emulator.resetRequestLog();
  const up = await engineUp(folder, { stack, config: emulatorStackConfig(emulator, pacing), ...parts });
  // The timed part's requests: the warm-up's came before it (both clocks are this machine's).
  const sent = (await emulator.requests()).filter((r) => r.at >= up.timedSinceEpochMs);
  into.ms.push(up.ms);
  into.warmUpMs.push(up.warmUpMs);
  into.buildMs.push(up.buildMs);
  into.created.push(up.created);
  into.requests.push(...sent);
  const first = sent[0];
  const last = sent[sent.length - 1];
  if (first !== undefined && last !== undefined) into.requestSpanMs.push(last.at - first.at);
  if (first !== undefined) into.firstRequestMs.push(first.at - up.timedSinceEpochMs);
  into.arrivalsMs.push(sent.map((r) => r.at - up.timedSinceEpochMs).sort((a, b) => a - b));
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

/** The rate-limited apply's limit (area B's count, over a 1 s window so a run takes seconds) and size. */
export const RATE_LIMITED = { limit: { requests: 10, perSeconds: 1 }, resources: 50, runs: 3 } as const;
const RATE_LIMITED_TITLE = `${RATE_LIMITED.resources} PipeSettings, emulator limit ${RATE_LIMITED.limit.requests} req / ${RATE_LIMITED.limit.perSeconds} s`;

/**
 * How far each window of the paced requests lay from the next, less the window: the limiter's own
 * cost per window, apart from the engine's (per run: the mean step from the first request of one
 * window of N to the first of the next, over the timed part's requests as the emulator saw them).
 */
function pacingExcessPerWindowMs(arrivals: readonly number[], perWindow: number, windowMs: number): number {
  const steps = Math.floor((arrivals.length - 1) / perWindow);
  if (steps < 1) return NaN;
  return ((arrivals[steps * perWindow] as number) - (arrivals[0] as number)) / steps - windowMs;
}

/** The rate-limited apply's row from its timed runs: `who` names the front door in its words. */
export function rateLimitedRow(
  name: string,
  title: string,
  many: Timed,
  up: EngineUp | undefined,
  who: string,
): ScenarioResult {
  const { limit, resources: n, runs } = RATE_LIMITED;
  const windowMs = limit.perSeconds * 1000;
  const pacing: Pacing = { cloud: `${limit.requests}/${limit.perSeconds}`, alerting: "off" };
  // The second warm-up step: one PipeSettings alone through the engine, host warm.
  const oneRequestRunsMs = many.warmUpMs.map((w) => w[1] ?? NaN);
  const oneRequestMs = median(oneRequestRunsMs);
  const ideal = (Math.ceil(n / limit.requests) - 1) * windowMs + oneRequestMs;
  const measured = median(many.ms);
  const http429 = many.requests.filter((r) => r.status === 429).length;
  const ratio = ratioOf(measured, ideal);
  const allCreated = many.created.every((c) => c === n + 2);
  const excess = many.arrivalsMs.map((a) => pacingExcessPerWindowMs(a, limit.requests, windowMs));
  return {
    name,
    reference: "the limit's windows plus one warm create of the same door",
    title,
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
      through: who,
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
      firstRequestMs: {
        runs: many.firstRequestMs,
        note: "the timed part's start to its first request's arrival at the emulator: the engine's and the host's own start on the registrations, before any pacing, which the ideal counts as one request's time",
      },
      pacingExcessPerWindowMs: {
        runs: excess,
        median: median(excess),
        note: `per run, the mean step between the first requests of successive windows of ${limit.requests} as they arrived, less the ${windowMs} ms window: what the limiter adds per window`,
      },
      createdPerUp: many.created,
      http429,
      requests: many.requests.length,
      statuses: statusCounts(many.requests),
      maxRequestsInAny1s: maxInAnyWindow(many.requests, windowMs),
    },
  };
}

/** One rate-limited run's stack: two warm-up creates, the windows left to close, then the n creates. */
export function rateLimitedUp(run: number, build: (n: number, prefix: string) => Build) {
  const windowMs = RATE_LIMITED.limit.perSeconds * 1000;
  return {
    warmUp: twoWarmUps((i) => build(1, `warm${run}-${i}`)),
    // Long enough for the emulator's fixed window and the provider's sliding one to close.
    settleMs: windowMs + 300,
    build: build(RATE_LIMITED.resources, `pipe${run}`),
  };
}

export const RATE_LIMITED_PACING: Pacing = {
  cloud: `${RATE_LIMITED.limit.requests}/${RATE_LIMITED.limit.perSeconds}`,
  alerting: "off",
};

export async function rateLimitedApply(folder: BenchFolder): Promise<ScenarioResult> {
  return withEmulator({ rateLimits: { cloud: RATE_LIMITED.limit, alerting: false } }, async (emulator) => {
    const many = timed();
    let up: EngineUp | undefined;
    for (let run = 0; run < RATE_LIMITED.runs; run++) {
      up = await timedUp(
        folder,
        emulator,
        many,
        `pipes-${run}`,
        RATE_LIMITED_PACING,
        rateLimitedUp(run, (n, prefix) => oursBuild(n, () => "PipeSettings", prefix)),
      );
    }
    return rateLimitedRow(
      "rate-limited-apply",
      RATE_LIMITED_TITLE,
      many,
      up,
      "the dynamic classes (Pulumi's dynamic-provider host)",
    );
  });
}

/** The native row's title: the same work through the plugin. */
export const NATIVE_RATE_LIMITED_TITLE = `${RATE_LIMITED_TITLE}, through the native plugin (ideal from its own warm create)`;

// 2 ----------------------------------------------------------------------------------------------

/**
 * Alternated runs the latency-bound apply takes: enough that a median of runs outlasts a load spike.
 * The target holds ours to the hand-written provider that makes the same POST: never slower.
 */
export const LATENCY_BOUND = { resources: 200, latencyMs: 50, runs: 9, target: 1.0 } as const;

/** The programs of a latency-bound run, in the order run `run` takes them: the order turns each run. */
export function turned<T>(items: readonly T[], run: number): T[] {
  const at = run % items.length;
  return [...items.slice(at), ...items.slice(0, at)];
}

/** The env the references read: where to POST and with which token, how long to sleep. */
export function referenceEnv(
  emulator: Pick<EmulatorProcess, "url" | "token">,
  latencyMs: number,
): Record<string, string> {
  return {
    [REFERENCE_SLEEP_ENV]: String(latencyMs),
    [FETCH_URL_ENV]: emulator.url,
    [FETCH_TOKEN_ENV]: emulator.token,
  };
}

export async function latencyBoundApply(
  folder: BenchFolder,
  n: number = LATENCY_BOUND.resources,
  runs: number = LATENCY_BOUND.runs,
): Promise<ScenarioResult[]> {
  const { latencyMs, target } = LATENCY_BOUND;
  const parallel = engineDefaultParallel();
  return withEmulator({ rateLimits: { cloud: false, alerting: false }, latencyMs }, async (emulator) => {
    const ours = timed();
    const fetching = timed();
    const sleeper = timed();
    let up: EngineUp | undefined;
    // Every program gets the same env, so none starts its CLI or host with more or less to read.
    const env = referenceEnv(emulator, latencyMs);
    /** The three programs of one run, each adding its up to `into`. */
    const programs = (run: number | "primer", into: readonly [Timed, Timed, Timed]) => [
      async () => {
        up = await timedUp(folder, emulator, into[0], `alerts-${run}`, NO_PACING, {
          warmUp: twoWarmUps((i) => oursBuild(1, () => "Alert", `warm${run}-${i}`)),
          build: oursBuild(n, () => "Alert", `alert${run}`),
          env,
        });
      },
      () =>
        timedUp(folder, emulator, into[1], `fetching-${run}`, NO_PACING, {
          warmUp: twoWarmUps((i) => fetchingBuild(1, `warm${run}-${i}`)),
          build: fetchingBuild(n, `fetching${run}`),
          env,
        }),
      () =>
        timedUp(folder, emulator, into[2], `sleepers-${run}`, NO_PACING, {
          warmUp: twoWarmUps((i) => referenceBuild(1, () => "Alert", `warm${run}-${i}`)),
          build: referenceBuild(n, () => "Alert", `sleeper${run}`),
          env,
        }),
    ];
    // One untimed up of each first: the row's first up pays for cold caches no later up meets.
    for (const program of programs("primer", [timed(), timed(), timed()])) await program();
    // Alternated, so load from elsewhere on the machine falls on all alike; the order turns each
    // run, so no program always follows the same one.
    for (let run = 0; run < runs; run++)
      for (const program of turned(programs(run, [ours, fetching, sleeper]), run)) await program();
    const measured = median(ours.ms);
    const floorMs = Math.ceil(n / parallel) * latencyMs;
    const ratios = pairedRatios(ours.ms, fetching.ms);
    const againstSleep = pairedRatios(ours.ms, sleeper.ms);
    const within = (r: number | null) => r !== null && r <= target;
    const allCreated = ours.created.every((c) => c === n + 2);
    const referencePosts = fetching.requests.filter((r) => r.method === "POST").length;
    const common = {
      ...engineFacts(up),
      resources: n,
      kind: "Alert",
      serverLatencyMs: latencyMs,
      measuredIs: `median of ${runs} ups; in each, after two warm-up creates: the ${n} registrations to the last one's outputs back from the engine, timed in the program`,
      runsMs: ours.ms,
      floorMs,
      floorIs: `ceil(${n} / ${parallel}) x ${latencyMs} ms: the latency alone at the engine's default parallelism, no engine or host cost`,
      createdPerUp: ours.created,
      statuses: statusCounts(ours.requests),
    };
    return [
      {
        name: "latency-bound-apply",
        title: `${n} Alerts, ${latencyMs} ms server latency, ${runs} alternated runs, against a hand-written fetch provider`,
        reference: "a hand-written dynamic provider making the same POST",
        measured,
        ideal: median(fetching.ms),
        unit: "ms",
        ratio: ratios.ofMedians,
        target: `ratio <= ${target.toFixed(2)}, and the median of the runs' own ratios too`,
        pass:
          within(ratios.ofMedians) &&
          within(ratios.medianOfPairs) &&
          allCreated &&
          fetching.created.every((c) => c === n + 2) &&
          referencePosts === n * runs,
        extra: {
          ...common,
          idealIs: `the same ${n} Alerts, same inputs, through a dynamic provider as a user writes it (bench/benchFolder.ts): its create POSTs the alert with fetch to the same emulator and returns the answer, no checks, retries or pacing; its class declares every output ours declares; same engine, same warm-up, runs alternated with ours, the order turning each run, after one untimed up of each`,
          ratioIs: "the ratio of the medians (measured / ideal); the target holds it and medianOfPairedRatios alike",
          medianOfPairedRatios: ratios.medianOfPairs,
          pairedRatios: ratios.perRun,
          pairedRatiosAre: "per run, ours / the hand-written provider's of the same run",
          referenceRunsMs: fetching.ms,
          referencePosts,
          ratioToFloor: { ours: ratioOf(measured, floorMs), handWritten: ratioOf(median(fetching.ms), floorMs) },
          warmSingleCreateMs: {
            ours: median(ours.warmUpMs.map((w) => w[1] ?? NaN)),
            handWritten: median(fetching.warmUpMs.map((w) => w[1] ?? NaN)),
          },
          requestSpanMs: {
            ours: ours.requestSpanMs,
            handWritten: fetching.requestSpanMs,
            note: "emulator log: the timed part's first request's arrival to its last one's",
          },
          constructorsMs: {
            ours: median(ours.buildMs),
            handWritten: median(fetching.buildMs),
            sleepOnly: median(sleeper.buildMs),
            note: `median time of the ${n} constructors, in the timed part before any registration is sent: the SDK's work per declared property`,
          },
        },
      },
      {
        name: "latency-bound-apply-sleep-only",
        title: "the same runs against a provider whose create only sleeps 50 ms",
        reference: "a do-nothing dynamic provider that sleeps in create",
        measured,
        ideal: median(sleeper.ms),
        unit: "ms",
        ratio: againstSleep.ofMedians,
        target: "none, a figure: no user would write it; the row above holds the target",
        pass: allCreated && sleeper.created.every((c) => c === n + 2),
        extra: {
          ...common,
          idealIs: `the same for a do-nothing provider whose create only sleeps ${latencyMs} ms and declares its inputs alone, same inputs, runs alternated with the two above`,
          medianOfPairedRatios: againstSleep.medianOfPairs,
          pairedRatios: againstSleep.perRun,
          referenceRunsMs: sleeper.ms,
          ratioToFloor: { ours: ratioOf(measured, floorMs), sleepOnly: ratioOf(median(sleeper.ms), floorMs) },
        },
      },
    ];
  });
}
