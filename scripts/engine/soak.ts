// The fault soak (issue 18): a stack on the real engine against the emulator's seeded random faults
// on writes, as a demanding user would try it: an `up` Ctrl-C'd once, re-runs under the same
// faults, then, faults off, a census of service against state, a clean `up`, a refresh and the
// keys' logins, and a `destroy` under the faults. What the stack holds is a scenario: by default
// the 36 resources of issue 18 (12 alerts, 12 keys of which 4 made locally, 12 pipes' settings with
// resetOnDelete); soakObservability.ts holds the alerting chain of issue 44. The same phases run
// through either front door: the dynamic classes or the native plugin (`alertpipe:index:*`), since
// both must keep the same promises through the same code. The engine tests assert each phase; the
// bench's soak sweep prints the same figures for more seeds. The seed replays the emulator's
// decisions on the same sequence of writes, but the engine's parallelism varies that sequence.

import { delimiter } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import {
  FAULT_KINDS,
  startEmulator,
  type EmulatorOptions,
  type EmulatorState,
  type FaultKind,
  type RandomFaults,
  type RecordedRequest,
  type RunningEmulator,
} from "../../emulator";
import { emulatorConfig, installedPackage, openStack, type AlertpipePackage, type StackConfig } from "../exampleStack";
import type { EngineStack, RunResult } from "./stack";

export const SOAK_ORG = "0f8fad5b-d9cb-469f-a165-70867728950e";
export const SOAK_SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
/** Of each kind; the first LOCAL_KEYS keys have keyMaterial "local". */
export const SOAK_EACH = 12;
const LOCAL_KEYS = 4;

const alertName = (i: number) => `soak alert ${i}`;
const keyName = (i: number) => `soak-key-${i}`;
const pipeName = (i: number) => `soak-pipe-${i}`;
/** A distinct pipe per PipeSettings, a valid uuid. */
const pipeId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const pipeKey = (i: number) => `${SOAK_ORG}/${SOAK_SERVICE}/${pipeId(i)}`;
/** What each pipe's settings are set to, by wire name. */
const settingsOf = (i: number) => ({ db_max_threads: 8 + i, object_storage_concurrency: 4 });

/**
 * The front door the resources go through: the dynamic classes (Pulumi's dynamic-provider host), or
 * the native plugin, `pulumi-resource-alertpipe`, which the engine finds on PATH.
 */
export type SoakDoor = "dynamic" | "native";

/** The start of our resources' types in state, by front door. */
const TYPE_PREFIX: Record<SoakDoor, string> = {
  dynamic: "pulumi-nodejs:dynamic/alertpipe:",
  native: "alertpipe:index:",
};

/** A dynamic class's inputs; the native resource of the same kind takes the same. */
type Args<K extends "Alert" | "ApiKey" | "PipeSettings"> = ConstructorParameters<AlertpipePackage[K]>[1];

const alertArgs = (i: number): Args<"Alert"> => ({
  name: alertName(i),
  source: "search",
  threshold: i,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "soak" },
});

const keyArgs = (i: number): Args<"ApiKey"> => ({
  organizationId: SOAK_ORG,
  name: keyName(i),
  roles: ["developer"],
  ...(i < LOCAL_KEYS ? { keyMaterial: "local" as const } : {}),
});

const pipeArgs = (i: number): Args<"PipeSettings"> => {
  const wanted = settingsOf(i);
  return {
    organizationId: SOAK_ORG,
    serviceId: SOAK_SERVICE,
    pipeId: pipeId(i),
    dbMaxThreads: wanted.db_max_threads,
    objectStorageConcurrency: wanted.object_storage_concurrency,
    resetOnDelete: true,
  };
};

/** The kinds of resource the package has, by their class's name. */
export type SoakKind =
  "Alert" | "ApiKey" | "PipeSettings" | "Connection" | "Source" | "Dashboard" | "SavedSearch" | "Webhook" | "ClickPipe";

/** Outputs a bare CustomResource must name to read them, as the generated SDK's classes do. */
const NATIVE_OUTPUTS: Partial<Record<SoakKind, readonly string[]>> = { Dashboard: ["tileIds"] };
/** Outputs the generated SDK's classes mark secret; a bare CustomResource must ask for them. */
const NATIVE_SECRETS: Partial<Record<SoakKind, readonly string[]>> = {
  ApiKey: ["keySecret"],
  Connection: ["password"],
  ClickPipe: ["credentials"],
};

/** A resource of the native plugin, as a program without the generated SDK declares it. */
class NativeResource extends pulumi.CustomResource {
  constructor(kind: SoakKind, name: string, props: pulumi.Inputs) {
    const outputs = Object.fromEntries((NATIVE_OUTPUTS[kind] ?? []).map((n) => [n, undefined]));
    const secrets = NATIVE_SECRETS[kind];
    super(
      `alertpipe:index:${kind}`,
      name,
      { ...outputs, ...props },
      secrets ? { additionalSecretOutputs: [...secrets] } : {},
    );
  }
}

/** Declares one resource of `kind` through a front door; a scenario's program is written once for both. */
export type Declare = (kind: SoakKind, name: string, props: pulumi.Inputs) => pulumi.CustomResource;

/** The declaring function of `door`; the dynamic classes come from the package installed in `programDir`. */
function declarer(door: SoakDoor, programDir: string | undefined): Declare {
  if (door === "native") return (kind, name, props) => new NativeResource(kind, name, props);
  const pkg = installedPackage(programDir);
  return (kind, name, props) =>
    new (pkg[kind] as unknown as new (name: string, args: pulumi.Inputs) => pulumi.CustomResource)(name, props);
}

/** What the program of the run under way registered: its resources whose RegisterResource the engine answered. */
interface Registrations {
  registered: number;
}

/**
 * `declare`, counting in `into` each resource once the engine has answered its registration (its
 * URN known). A registration whose RPC failed UNAVAILABLE or CANCELLED never resolves its URN (the
 * SDK drops those errors), so it is not counted.
 */
function counting(declare: Declare, into: Registrations): Declare {
  return (kind, name, props) => {
    const resource = declare(kind, name, props);
    resource.urn.apply(() => {
      into.registered += 1;
    });
    return resource;
  };
}

/** A stack whose program declares through `door` (the soak's, the bench's ClickPipe apply). */
export async function openDoorStack(opts: {
  door: SoakDoor;
  stack: string;
  config: StackConfig;
  program: (declare: Declare) => void;
  programDir?: string;
  /** For the native door: a folder holding `pulumi-resource-alertpipe`, put first on the stack's PATH. */
  pluginDir?: string;
}): Promise<EngineStack> {
  // The stack takes this process's PATH when it opens; the plugin's folder goes first.
  const savedPath = process.env.PATH;
  if (opts.door === "native") process.env.PATH = `${opts.pluginDir ?? ""}${delimiter}${savedPath ?? ""}`;
  try {
    return await openStack({
      stack: opts.stack,
      config: opts.config,
      program: async () => opts.program(declarer(opts.door, opts.programDir)),
      ...(opts.programDir !== undefined ? { programDir: opts.programDir } : {}),
    });
  } finally {
    process.env.PATH = savedPath;
  }
}

/** An output of a resource by name (a bare CustomResource has those it named as inputs). */
export function outputOf<T>(resource: pulumi.CustomResource, name: string): pulumi.Output<T> {
  const value: unknown = (resource as unknown as Record<string, unknown>)[name];
  if (!pulumi.Output.isInstance(value)) throw new Error(`${name} is not an output of ${resource.constructor.name}`);
  return value as pulumi.Output<T>;
}

/** An object of the program on the service: its id, its collection and its name. */
export interface ServiceObject {
  id: string;
  kind: string;
  name: string;
}

/** What a soak's stack holds, and how to count it on the service. */
export interface SoakScenario {
  /** Short, in the stack's name and the summary. */
  readonly name: string;
  /** The emulator's mode; the soak turns rate limits off. */
  readonly emulator: EmulatorOptions;
  /** The stack's config on the running emulator, with our own pacing off. */
  config(emu: RunningEmulator): StackConfig;
  /** The program, declared through `declare` so both doors run the same. */
  program(declare: Declare): void;
  /** The program changed (same resources, other values), which changeUntilOk() applies; absent when none. */
  changed?(declare: Declare): void;
  /** What the random plan draws from beyond seed and rate (faulted routes, kinds); every write by default. */
  readonly faults?: Omit<RandomFaults, "seed" | "rate">;
  /** Environment the in-process emulator reads while the soak is open (e.g. how fast ClickPipes' states move). */
  readonly env?: Readonly<Record<string, string>>;
  /** Resources the program declares. */
  readonly declared: number;
  /** API keys among them, whose recorded pairs logins() tries; absent when none. */
  readonly keys?: number;
  /** Writes answered before the first up's SIGINT: about half of that up's. */
  readonly interruptAfter: number;
  /** The collections objects() names, each counted by leftovers() (0 when none is left). */
  readonly kinds: readonly string[];
  /** The program's objects on the service (what the emulator seeded left out). */
  objects(snap: EmulatorState, emu: RunningEmulator): ServiceObject[];
  /** Kinds of resource recorded in state that are settings, not objects; the census checks them apart. */
  readonly settingsKinds?: readonly SoakKind[];
  /** Settings that differ from the program's (settingsKinds, or objects' own values), `changed` or not; 0 when none. */
  settingsOff?(snap: EmulatorState, emu: RunningEmulator, changed: boolean): number;
  /** Settings a destroy should have reset, left set, by name. */
  settingsLeft?(snap: EmulatorState, emu: RunningEmulator): Record<string, number>;
}

/** Issue 18's stack: SOAK_EACH alerts, keys (LOCAL_KEYS made locally) and pipes' settings reset on delete. */
export const KEYS_SOAK: SoakScenario = {
  name: "keys",
  emulator: {},
  config: (emu) => ({
    ...emulatorConfig(emu),
    "alertpipe:cloudRateLimit": { value: "off" },
    "alertpipe:alertingRateLimit": { value: "off" },
  }),
  program: (declare) => {
    for (let i = 0; i < SOAK_EACH; i++) {
      declare("Alert", alertName(i), { ...alertArgs(i) });
      declare("ApiKey", keyName(i), { ...keyArgs(i) });
      declare("PipeSettings", pipeName(i), { ...pipeArgs(i) });
    }
  },
  declared: 3 * SOAK_EACH,
  keys: SOAK_EACH,
  interruptAfter: SOAK_EACH * 1.5,
  kinds: ["alerts", "keys"],
  objects: (snap) => [
    ...Object.values(snap.alerts).map((a) => ({ id: a.id, kind: "alerts", name: a.name ?? "" })),
    ...Object.values(snap.keys)
      .filter((k) => k.organizationId === SOAK_ORG)
      .map((k) => ({ id: k.id, kind: "keys", name: k.name })),
  ],
  settingsKinds: ["PipeSettings"],
  settingsOff: (snap) => {
    let off = 0;
    for (let i = 0; i < SOAK_EACH; i++) {
      const live = snap.pipes[pipeKey(i)] ?? {};
      if (Object.entries(settingsOf(i)).some(([name, value]) => live[name] !== value)) off++;
    }
    return off;
  },
  settingsLeft: (snap) => ({
    pipesSet: Object.values(snap.pipes).filter((settings) => Object.values(settings).some((v) => v !== null)).length,
  }),
};

export interface SoakOptions {
  /** What the stack holds; issue 18's KEYS_SOAK by default. */
  scenario?: SoakScenario;
  seed: number;
  /** Probability a write is faulted; the issue's soak uses 0.3. */
  rate: number;
  /** Where pulumi-alertpipe is installed; default the examples folder. */
  programDir?: string;
  /** The front door; "dynamic" by default. */
  door?: SoakDoor;
  /** For the native door: a folder holding `pulumi-resource-alertpipe`, put first on the stack's PATH. */
  pluginDir?: string;
  /** A line per event worth telling (runs, their errors' first lines). */
  log?: (line: string) => void;
}

/** One run of the engine, in short. */
export interface SoakRun {
  kind: "up" | "change" | "clean up" | "destroy" | "refresh";
  ok: boolean;
  seconds: number;
  /** The first line of each error diagnostic, when it failed. */
  errors: string[];
  /** Writes the emulator answered during the run. */
  writes: number;
  /** Resources the program registered (an up's); 0 for a refresh or destroy, which run no program. */
  registered: number;
  /** The engine's steps by kind, from its summary ("same", "create", "delete"…), our provider's and the stack's included. */
  changes: Record<string, number>;
}

/** The service against the state: our objects in each. */
export interface Census {
  /** Objects on the service beyond one per program name. */
  duplicates: number;
  /** Objects on the service that no resource in state records. */
  orphans: number;
  /** Resources in state whose object is not on the service. */
  missing: number;
  /** Settings (pipes', or ClickPipes' scaling and switch) that differ from the program's. */
  settingsOff: number;
  /** Resources recorded in state, of ours. */
  recorded: number;
  /** Operations left pending in state. */
  pending: number;
}

interface StateResource {
  urn: string;
  type: string;
  id?: string;
}

export class Soak {
  /** Every run, in order. */
  readonly runs: SoakRun[] = [];
  private readonly random: RandomFaults;

  private constructor(
    readonly options: SoakOptions,
    readonly emu: RunningEmulator,
    readonly stack: EngineStack,
    private readonly registrations: Registrations,
    /** Which program the stack runs: the scenario's, or once changeUntilOk() ran, its changed one. */
    private readonly phase: { changed: boolean },
    private readonly restoreEnv: () => void,
  ) {
    this.random = { ...options.scenario?.faults, seed: options.seed, rate: options.rate };
  }

  static async open(options: SoakOptions): Promise<Soak> {
    // Rate limits off on both sides: the soak is about faults, and pacing 36 creates at the
    // default 10 per 10 s would take most of its time.
    const door = options.door ?? "dynamic";
    const scenario = options.scenario ?? KEYS_SOAK;
    if (door === "native" && options.pluginDir === undefined)
      throw new Error("the soak through the native plugin needs pluginDir, a folder holding pulumi-resource-alertpipe");
    const registrations: Registrations = { registered: 0 };
    const restoreEnv = withEnv(scenario.env ?? {});
    let emu: RunningEmulator;
    try {
      emu = await startEmulator({ ...scenario.emulator, port: 0, rateLimits: { cloud: false, alerting: false } });
    } catch (err) {
      restoreEnv();
      throw err;
    }
    const phase = { changed: false };
    try {
      const stack = await openDoorStack({
        door,
        stack: `soak-${scenario.name}-${door}-${options.seed}`,
        config: scenario.config(emu),
        program: (declare) => {
          registrations.registered = 0;
          const counted = counting(declare, registrations);
          if (phase.changed && scenario.changed !== undefined) scenario.changed(counted);
          else scenario.program(counted);
        },
        ...(options.programDir !== undefined ? { programDir: options.programDir } : {}),
        ...(options.pluginDir !== undefined ? { pluginDir: options.pluginDir } : {}),
      });
      return new Soak(options, emu, stack, registrations, phase, restoreEnv);
    } catch (err) {
      await emu.close();
      restoreEnv();
      throw err;
    }
  }

  get door(): SoakDoor {
    return this.options.door ?? "dynamic";
  }

  get scenario(): SoakScenario {
    return this.options.scenario ?? KEYS_SOAK;
  }

  faultsOn(): void {
    this.emu.setFaults({ random: this.random });
  }

  faultsOff(): void {
    this.emu.setFaults({});
  }

  /**
   * The first `up`, under the faults, with one SIGINT (a single Ctrl-C, through the Automation API)
   * once `writesBeforeInterrupt` writes have been answered (by default about half the first up's), while
   * others are in flight. Resolves
   * with the run and whether the SIGINT was sent before the run ended.
   */
  async interruptedUp(
    writesBeforeInterrupt = this.scenario.interruptAfter,
  ): Promise<{ run: SoakRun; interrupted: boolean }> {
    this.faultsOn();
    const controller = new AbortController();
    let finished = false;
    const running = this.timed("up", () => this.stack.up({ signal: controller.signal })).finally(() => {
      finished = true;
    });
    while (!finished && this.writes().length < writesBeforeInterrupt) await sleep(20);
    const interrupted = !finished;
    if (interrupted) {
      this.options.log?.(`SIGINT after ${this.writes().length} writes answered`);
      controller.abort();
    }
    return { run: await running, interrupted };
  }

  /** `up` under the faults until one succeeds, at most `max` runs; the runs made. */
  upUntilOk(max: number): Promise<SoakRun[]> {
    this.faultsOn();
    return this.untilOk("up", max, () => this.stack.up());
  }

  /** The scenario's changed program: `up` under the faults until one succeeds, at most `max` runs; the runs made. */
  changeUntilOk(max: number): Promise<SoakRun[]> {
    if (this.scenario.changed === undefined) throw new Error(`the ${this.scenario.name} soak has no changed program`);
    this.phase.changed = true;
    this.faultsOn();
    return this.untilOk("change", max, () => this.stack.up());
  }

  /** `destroy` under the faults until one succeeds, at most `max` runs; the runs made. */
  destroyUntilOk(max: number): Promise<SoakRun[]> {
    this.faultsOn();
    return this.untilOk("destroy", max, () => this.stack.destroy());
  }

  /** A clean `up` (faults off): the steps that were not "same" and the writes it sent. */
  async cleanUp(): Promise<CleanUp> {
    this.faultsOff();
    const from = this.emu.requests.length;
    let result: RunResult | undefined;
    const run = await this.timed("clean up", async () => (result = await this.stack.up()));
    return { run, changes: changesOf(result), writes: this.writes(from).map((r) => `${r.method} ${r.path}`) };
  }

  /**
   * What makes a clean up not clean, in words; empty when it is. Over the converged stack, a clean
   * up must succeed, run the whole program (every declared resource registered) and leave every
   * resource as it was: no create, update, delete or replace, no write. A program that registered
   * nothing and an engine that then deleted the stack is named first, as it was once seen.
   */
  uncleanCleanUp(clean: CleanUp): string[] {
    const { run } = clean;
    const reasons: string[] = [];
    const declared = this.scenario.declared;
    if (!run.ok) reasons.push(`the clean up failed: ${run.errors.join("; ") || "no error said"}`);
    const deletes = (run.changes["delete"] ?? 0) + (run.changes["replace"] ?? 0);
    if (deletes > 0)
      reasons.push(
        `the clean up deleted or replaced ${deletes} resources (the engine's steps ${JSON.stringify(run.changes)})`,
      );
    if (run.registered !== declared)
      reasons.push(`the clean up's program registered ${run.registered} of its ${declared} resources`);
    if (clean.changes.length > 0) reasons.push(`the clean up changed ${clean.changes.join(", ")}`);
    if (clean.writes.length > 0)
      reasons.push(`the clean up sent ${clean.writes.length} writes: ${clean.writes.join(", ")}`);
    return reasons;
  }

  /** A refresh (faults off): the steps that found a difference. */
  async refresh(): Promise<{ run: SoakRun; drift: string[] }> {
    this.faultsOff();
    let result: RunResult | undefined;
    const run = await this.timed("refresh", async () => (result = await this.stack.refresh()));
    return { run, drift: changesOf(result) };
  }

  /** Our objects on the service against the resources in state (faults off while reading). */
  census(): Census {
    const latest = (
      JSON.parse(this.stack.readStateFile()) as {
        checkpoint: { latest?: { resources?: StateResource[]; pending_operations?: unknown[] } };
      }
    ).checkpoint.latest;
    const ours = (latest?.resources ?? []).filter((r) => r.type.startsWith(TYPE_PREFIX[this.door]));
    const recordedIds = new Set(ours.map((r) => r.id ?? ""));
    const snap = this.emu.snapshot();
    const onService = this.scenario.objects(snap, this.emu);
    const perName = new Map<string, number>();
    for (const o of onService) perName.set(`${o.kind} ${o.name}`, (perName.get(`${o.kind} ${o.name}`) ?? 0) + 1);
    const serviceIds = new Set(onService.map((o) => o.id));
    const settings = new Set<string>(this.scenario.settingsKinds ?? []);
    const objects = ours.filter((r) => !settings.has(r.type.split(":").at(-1) ?? ""));
    return {
      duplicates: [...perName.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      orphans: onService.filter((o) => !recordedIds.has(o.id)).length,
      missing: objects.filter((r) => !serviceIds.has(r.id ?? "")).length,
      settingsOff: this.scenario.settingsOff?.(snap, this.emu, this.phase.changed) ?? 0,
      recorded: ours.length,
      pending: latest?.pending_operations?.length ?? 0,
    };
  }

  /** The duplicated objects on the service, as "kind name ×count": what a failed census names. */
  duplicated(): string[] {
    const perName = new Map<string, number>();
    for (const o of this.scenario.objects(this.emu.snapshot(), this.emu))
      perName.set(`${o.kind} "${o.name}"`, (perName.get(`${o.kind} "${o.name}"`) ?? 0) + 1);
    return [...perName].filter(([, n]) => n > 1).map(([name, n]) => `${name} ×${n}`);
  }

  /**
   * Each key's recorded pair (its resource's outputs in the state, decrypted by `pulumi stack
   * export --show-secrets`) used against the emulator: key name → the status of listing its
   * organization's keys with it. The pairs are never printed or returned.
   */
  async logins(): Promise<Record<string, number>> {
    const exported = await this.stack.cli(["stack", "export", "--show-secrets", "--stack", this.stack.name]);
    if (exported.code !== 0) throw new Error(`pulumi stack export failed: ${exported.stderr}`);
    const resources =
      (
        JSON.parse(exported.stdout) as {
          deployment?: { resources?: Array<StateResource & { outputs?: Record<string, unknown> }> };
        }
      ).deployment?.resources ?? [];
    const statuses: Record<string, number> = {};
    for (const r of resources.filter((r) => r.type === `${TYPE_PREFIX[this.door]}ApiKey`)) {
      const pair = `${plain(r.outputs?.keyId)}:${plain(r.outputs?.keySecret)}`;
      const res = await fetch(`${this.emu.url}/v1/organizations/${SOAK_ORG}/keys`, {
        headers: { authorization: `Basic ${Buffer.from(pair).toString("base64")}` },
      });
      await res.arrayBuffer();
      statuses[r.urn.split("::").at(-1) ?? r.urn] = res.status;
    }
    return statuses;
  }

  /** What a destroy left: the program's objects by collection, and settings still set. */
  leftovers(): Record<string, number> {
    const snap = this.emu.snapshot();
    const left = Object.fromEntries(this.scenario.kinds.map((k) => [k, 0]));
    for (const o of this.scenario.objects(snap, this.emu)) left[o.kind] = (left[o.kind] ?? 0) + 1;
    return { ...left, ...this.scenario.settingsLeft?.(snap, this.emu) };
  }

  /** How many writes the emulator answered, and how many of them met each fault. */
  faultCounts(): { writes: number } & Record<FaultKind, number> {
    const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
    const writes = this.writes();
    for (const r of writes) if (r.fault !== undefined && r.fault !== "failNext") counts[r.fault] += 1;
    return { writes: writes.length, ...counts };
  }

  /** Each write that met a fault, as "POST /api/v2/dashboards cutAfterCommit", ids and prefixes left out, with counts. */
  faultsMet(): string[] {
    const met = new Map<string, number>();
    for (const r of this.writes())
      if (r.fault !== undefined && r.fault !== "failNext") {
        const path = r.path
          .replace(/^\/v1\/organizations\/[^/]+\/services\/[^/]+\/clickstack/, "…")
          .replace(ID, "/:id");
        const what = `${r.method} ${path} ${r.fault}`;
        met.set(what, (met.get(what) ?? 0) + 1);
      }
    return [...met].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what));
  }

  /** One line: the seed, the rate, the runs and the faults met. */
  summary(): string {
    const f = this.faultCounts();
    const faulted = FAULT_KINDS.reduce((sum, k) => sum + f[k], 0);
    const runs = this.runs
      .map((r) => `${r.kind}${r.ok ? "" : "✗"} ${r.seconds.toFixed(0)}s ${phase(r, this.scenario.declared)}`)
      .join(", ");
    return (
      `soak ${this.scenario.name} ${this.door} seed ${this.options.seed} rate ${this.options.rate}: ${f.writes} writes, ${faulted} faulted ` +
      `(503 before ${f.failBeforeCommit}, cut ${f.cutAfterCommit}, 500 after ${f.failAfterCommit}, late ${f.delayAfterCommit}); runs: ${runs}; ` +
      `faults met: ${this.faultsMet().join(", ") || "none"}`
    );
  }

  async close(): Promise<void> {
    this.stack.dispose();
    await this.emu.close();
    this.restoreEnv();
  }

  /** The writes answered since request `from` of the log. */
  private writes(from = 0): RecordedRequest[] {
    return this.emu.requests.slice(from).filter((r) => r.method !== "GET");
  }

  private async untilOk(
    kind: "up" | "change" | "destroy",
    max: number,
    run: () => Promise<RunResult>,
  ): Promise<SoakRun[]> {
    const made: SoakRun[] = [];
    while (made.length < max) {
      const one = await this.timed(kind, run);
      made.push(one);
      if (one.ok) break;
    }
    return made;
  }

  private async timed(kind: SoakRun["kind"], run: () => Promise<RunResult>): Promise<SoakRun> {
    const started = Date.now();
    const from = this.emu.requests.length;
    this.registrations.registered = 0;
    const result = await run();
    const errors = result.ok
      ? []
      : result.diagnostics
          .filter((d) => d.startsWith("error: "))
          .map((d) => d.split("\n")[0] ?? d)
          .slice(0, 5);
    if (!result.ok && errors.length === 0) errors.push((result.error ?? "failed").split("\n")[0] ?? "failed");
    const one: SoakRun = {
      kind,
      ok: result.ok,
      seconds: (Date.now() - started) / 1000,
      errors,
      writes: this.writes(from).length,
      registered: this.registrations.registered,
      changes: result.changes ?? {},
    };
    this.runs.push(one);
    this.options.log?.(
      `${kind} ${one.ok ? "succeeded" : "failed"} in ${one.seconds.toFixed(1)} s (${phase(one, this.scenario.declared)})${errors.map((e) => `\n  ${e}`).join("")}`,
    );
    return one;
  }
}

/** A clean up's run, the steps of ours that were not "same" and the writes it sent. */
export interface CleanUp {
  run: SoakRun;
  changes: string[];
  writes: string[];
}

/** A run's writes, what its program registered (ups) and the engine's steps other than "same": "12w 12/12 reg {delete 12}". */
function phase(run: SoakRun, declared: number): string {
  const steps = Object.entries(run.changes).filter(([op, n]) => op !== "same" && n > 0);
  const registered = run.kind === "up" || run.kind === "clean up" ? ` ${run.registered}/${declared} reg` : "";
  const changed = steps.length > 0 ? ` {${steps.map(([op, n]) => `${op} ${n}`).join(", ")}}` : "";
  return `${run.writes}w${registered}${changed}`;
}

/** A value of an export with --show-secrets: a secret comes as {<sig>, plaintext: <its JSON>}. */
function plain(value: unknown): string {
  if (typeof value === "object" && value !== null && "plaintext" in value) {
    const text = value.plaintext;
    return typeof text === "string" ? String(JSON.parse(text)) : "";
  }
  return String(value);
}

/** "op name" of every step of ours that is not "same", sorted. */
function changesOf(result: RunResult | undefined): string[] {
  return (result?.steps ?? [])
    .filter((s) => s.op !== "same")
    .map((s) => `${s.op} ${s.name}`)
    .sort();
}

/** An id in a path: HyperDX's 24 hex digits or a uuid. */
const ID = /\/([0-9a-f]{24}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=\/|$)/gi;

/** Sets `vars` in this process's environment; the function returned puts back what was there. */
function withEnv(vars: Readonly<Record<string, string>>): () => void {
  const saved = Object.keys(vars).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, vars);
  return () => {
    for (const [name, value] of saved)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
