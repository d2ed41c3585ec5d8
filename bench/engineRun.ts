// One `pulumi up` of new resources on the real engine (the pulumi CLI through the Automation API,
// an inline program, a fresh stack and file backend), timed from inside the program.
//
// Why from inside the program: the Automation API learns of engine events by polling the CLI's
// event log every 200 ms, and the events' own timestamps are whole seconds, so events cannot time a
// run of a few hundred ms. The program instead sees each resource's outputs the moment the engine
// answers its RegisterResource call, which happens once the resource's Check and Create are done.
// A run may first register warm-up resources one at a time: they pay the start of the provider
// host (the plugin script starts node twice, about a second on a busy machine) and the loading of
// the provider's code, which would otherwise swamp a timed part of a few hundred ms; the cold start
// has a figure of its own.

import { availableParallelism } from "node:os";
import { delimiter } from "node:path";
import { performance } from "node:perf_hooks";
import type * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { EngineStack, RunResult } from "../scripts/engine/stack";
import type { EngineTool } from "../scripts/engine/pulumiCli";
import { emulatorConfig, openStack, type StackConfig } from "../scripts/exampleStack";
import type { BenchFolder } from "./benchFolder";
import type { EmulatorProcess } from "./emulatorProcess";
import { HostMemoryWatch, type HostMemory, type ProviderProcess } from "./hostMemory";

export const BENCH_PROJECT = "alertpipe-bench";

/**
 * What `pulumi up` runs at once without --parallel: PULUMI_PARALLEL when set, else 4 × GOMAXPROCS
 * (pkg/cmd/pulumi/operations/up.go, defaultParallel, v3.248.0), GOMAXPROCS being the CPUs this
 * process may use. The bench never passes --parallel; this only states and checks what ran.
 */
export function engineDefaultParallel(): number {
  const fromEnv = Number(process.env.PULUMI_PARALLEL);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 4 * availableParallelism();
}

export interface Pacing {
  cloud: string;
  alerting: string;
}
export const NO_PACING: Pacing = { cloud: "off", alerting: "off" };

/** The stack config a user would set to point the provider at the emulator. */
export function emulatorStackConfig(
  emulator: Pick<EmulatorProcess, "url" | "token" | "keyId" | "keySecret">,
  pacing: Pacing,
): StackConfig {
  return {
    ...emulatorConfig(emulator),
    "alertpipe:cloudRateLimit": { value: pacing.cloud },
    "alertpipe:alertingRateLimit": { value: pacing.alerting },
  };
}

export type Build = (folder: BenchFolder) => pulumi.CustomResource[];

export interface EngineUp {
  readonly result: RunResult;
  /** Start of the timed part (program start, or the end of warm-up and settling) to the last resource's outputs back in the program. */
  readonly ms: number;
  /** Date.now() when the timed part began, to pick its requests from the emulator's log. */
  readonly timedSinceEpochMs: number;
  /** Each warm-up step's registration to its outputs back in the program. */
  readonly warmUpMs: number[];
  /** The timed part's constructors alone: the SDK's work on them, before any registration is sent. */
  readonly buildMs: number;
  /** Each resource's outputs back in the program, ms after the program started, in arrival order. */
  readonly resolvedMs: number[];
  readonly created: number;
  readonly memory?: HostMemory;
  readonly tool: EngineTool;
  /** The state file after the up, when asked for. */
  readonly state?: string;
}

export interface EngineUpOptions {
  stack: string;
  config: StackConfig;
  build: Build;
  /** Added to the environment of the CLI and the provider host. */
  env?: Record<string, string>;
  /** Registered first, in turn, each one's resources answered before the next; then the timed part. */
  warmUp?: readonly Build[];
  /** Waited after the warm-up, before the timed part (for a rate-limit window to close). */
  settleMs?: number;
  /** Watch the provider process's memory while the up runs. */
  watchMemory?: boolean;
  /**
   * The provider process the resources go to, whose memory is watched: Pulumi's dynamic-provider
   * host (the default, for the dynamic classes), or our native plugin, which the engine then finds
   * on PATH in the bench folder's node_modules/.bin (for a program of `alertpipe:index:*` resources).
   */
  provider?: ProviderProcess;
  /** Keep the stack's state file (its text) before the stack's folders are removed. */
  keepState?: boolean;
  /** Called as each timed resource's outputs come back, with how many have so far (bench/hostHeap.ts). */
  onResolved?: (count: number) => void;
}

function describeFailure(result: RunResult): string {
  return result.error ?? result.diagnostics.find((d) => d.startsWith("error: ")) ?? "unknown failure";
}

/** Runs one up in a stack of its own, then removes the stack's folders; throws when the up fails. */
/** Waits for the engine to answer a resource's registration; a failed one fails the program in time. */
function registered(r: pulumi.CustomResource): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${r.constructor.name} got no outputs within ${REGISTER_TIMEOUT_MS} ms`)),
      REGISTER_TIMEOUT_MS,
    );
    r.id.apply(() => {
      clearTimeout(timer);
      resolve(performance.now());
    });
  });
}
const REGISTER_TIMEOUT_MS = 120_000;

export async function engineUp(folder: BenchFolder, options: EngineUpOptions): Promise<EngineUp> {
  let started = NaN;
  let timedSinceEpochMs = NaN;
  let buildMs = NaN;
  const resolvedMs: number[] = [];
  const warmUpMs: number[] = [];
  let watch: HostMemoryWatch | undefined;
  const program: PulumiFn = async () => {
    for (const build of options.warmUp ?? []) {
      // A resource registers as soon as it is constructed, so each build is its own step.
      const sent = performance.now();
      const answered = await Promise.all(build(folder).map(registered));
      warmUpMs.push(Math.max(...answered) - sent);
    }
    if (options.settleMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.settleMs));
    started = performance.now();
    timedSinceEpochMs = Date.now();
    const resources = options.build(folder);
    buildMs = performance.now() - started;
    let left = resources.length;
    for (const r of resources) {
      r.id.apply(() => {
        resolvedMs.push(performance.now() - started);
        options.onResolved?.(resolvedMs.length);
        // The last create is answered and the host still runs: its peak is final now.
        if (--left === 0) watch?.sample();
      });
    }
  };
  // The stack takes this process's PATH, behind its own folder, when it opens; the plugin's folder goes first.
  const savedPath = process.env.PATH;
  const onPluginPath = options.provider !== undefined && options.provider !== "dynamic-host";
  if (onPluginPath) process.env.PATH = `${folder.pluginDir}${delimiter}${savedPath ?? ""}`;
  let stack: EngineStack;
  try {
    stack = await openStack({
      stack: options.stack,
      project: BENCH_PROJECT,
      programDir: folder.dir,
      program,
      config: options.config,
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
  } finally {
    if (onPluginPath) process.env.PATH = savedPath;
  }
  try {
    if (options.watchMemory) watch = new HostMemoryWatch(undefined, undefined, options.provider);
    const result = await stack.up();
    const memory = watch?.stop();
    if (!result.ok) throw new Error(`pulumi up of ${options.stack} failed: ${describeFailure(result)}`);
    return {
      result,
      ms: Math.max(...resolvedMs),
      resolvedMs,
      warmUpMs,
      buildMs,
      timedSinceEpochMs,
      created: result.steps.filter((s) => s.op === "create").length,
      ...(memory !== undefined ? { memory } : {}),
      ...(options.keepState ? { state: stack.readStateFile() } : {}),
      tool: stack.tool,
    };
  } finally {
    watch?.stop();
    stack.dispose();
  }
}

/** "pulumi v3.248.0 (built from Go modules, /path/to/pulumi)": which engine ran. */
export function engineName(tool: EngineTool): string {
  const source = tool.source === "path" ? "from PATH" : "built from Go modules";
  return `pulumi ${tool.version} (${source}, ${tool.path})`;
}
