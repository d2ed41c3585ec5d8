// The fault soak (issue 18): one stack of 36 resources (12 alerts, 12 keys of which 4 made locally,
// 12 pipes' settings with resetOnDelete) on the real engine against the emulator's seeded random
// faults on writes, as a demanding user would try it: an `up` Ctrl-C'd once, re-runs under the same
// faults, then, faults off, a census of service against state, a clean `up`, a refresh and the
// keys' logins, and a `destroy` under the faults. The same phases run through either front door:
// the dynamic classes or the native plugin (`alertpipe:index:*`), since both must keep the same
// promises through the same code. The engine test asserts each phase; the bench's soak sweep prints
// the same figures for more seeds. The seed replays the emulator's decisions on
// the same sequence of writes, but the engine's parallelism varies that sequence from run to run.

import { delimiter } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import {
  FAULT_KINDS,
  startEmulator,
  type FaultKind,
  type RandomFaults,
  type RecordedRequest,
  type RunningEmulator,
} from "../../emulator";
import { emulatorConfig, installedPackage, openStack, type AlertpipePackage } from "../exampleStack";
import type { EngineStack, RunResult } from "./stack";

export const SOAK_ORG = "0f8fad5b-d9cb-469f-a165-70867728950e";
const SOAK_SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
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

type SoakKind = "Alert" | "ApiKey" | "PipeSettings";
/** A dynamic class's inputs; the native resource of the same kind takes the same. */
type Args<K extends SoakKind> = ConstructorParameters<AlertpipePackage[K]>[1];

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

/** A resource of the native plugin, as a program without the generated SDK declares it. */
class NativeResource extends pulumi.CustomResource {
  constructor(kind: SoakKind, name: string, props: pulumi.Inputs) {
    // The generated SDK's ApiKey marks keySecret secret; a bare CustomResource must ask for it.
    super(`alertpipe:index:${kind}`, name, props, kind === "ApiKey" ? { additionalSecretOutputs: ["keySecret"] } : {});
  }
}

/** The stack's program through `door`; the dynamic classes come from the package installed in `programDir`. */
function soakProgram(door: SoakDoor, programDir: string | undefined): PulumiFn {
  return async () => {
    if (door === "native") {
      for (let i = 0; i < SOAK_EACH; i++) {
        new NativeResource("Alert", alertName(i), { ...alertArgs(i) });
        new NativeResource("ApiKey", keyName(i), { ...keyArgs(i) });
        new NativeResource("PipeSettings", pipeName(i), { ...pipeArgs(i) });
      }
      return;
    }
    const { Alert, ApiKey, PipeSettings } = installedPackage(programDir);
    for (let i = 0; i < SOAK_EACH; i++) {
      new Alert(alertName(i), alertArgs(i));
      new ApiKey(keyName(i), keyArgs(i));
      new PipeSettings(pipeName(i), pipeArgs(i));
    }
  };
}

export interface SoakOptions {
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
  kind: "up" | "clean up" | "destroy" | "refresh";
  ok: boolean;
  seconds: number;
  /** The first line of each error diagnostic, when it failed. */
  errors: string[];
}

/** The service against the state: our objects in each. */
export interface Census {
  /** Alerts and keys on the service beyond one per program name. */
  duplicates: number;
  /** Alerts and keys on the service that no resource in state records. */
  orphans: number;
  /** Resources in state whose object is not on the service. */
  missing: number;
  /** Pipes whose settings differ from the program's. */
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
  ) {
    this.random = { seed: options.seed, rate: options.rate };
  }

  static async open(options: SoakOptions): Promise<Soak> {
    // Rate limits off on both sides: the soak is about faults, and pacing 36 creates at the
    // default 10 per 10 s would take most of its time.
    const door = options.door ?? "dynamic";
    if (door === "native" && options.pluginDir === undefined)
      throw new Error("the soak through the native plugin needs pluginDir, a folder holding pulumi-resource-alertpipe");
    const emu = await startEmulator({ port: 0, rateLimits: { cloud: false, alerting: false } });
    // The stack takes this process's PATH when it opens; the plugin's folder goes first.
    const savedPath = process.env.PATH;
    if (door === "native") process.env.PATH = `${options.pluginDir ?? ""}${delimiter}${savedPath ?? ""}`;
    try {
      const stack = await openStack({
        stack: `soak-${door}-${options.seed}`,
        config: {
          ...emulatorConfig(emu),
          "alertpipe:cloudRateLimit": { value: "off" },
          "alertpipe:alertingRateLimit": { value: "off" },
        },
        program: soakProgram(door, options.programDir),
        ...(options.programDir !== undefined ? { programDir: options.programDir } : {}),
      });
      return new Soak(options, emu, stack);
    } catch (err) {
      await emu.close();
      throw err;
    } finally {
      process.env.PATH = savedPath;
    }
  }

  get door(): SoakDoor {
    return this.options.door ?? "dynamic";
  }

  faultsOn(): void {
    this.emu.setFaults({ random: this.random });
  }

  faultsOff(): void {
    this.emu.setFaults({});
  }

  /**
   * The first `up`, under the faults, with one SIGINT (a single Ctrl-C, through the Automation API)
   * once `writesBeforeInterrupt` writes have been answered (by default half the creates), while
   * others are in flight. Resolves
   * with the run and whether the SIGINT was sent before the run ended.
   */
  async interruptedUp(writesBeforeInterrupt = SOAK_EACH * 1.5): Promise<{ run: SoakRun; interrupted: boolean }> {
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

  /** `destroy` under the faults until one succeeds, at most `max` runs; the runs made. */
  destroyUntilOk(max: number): Promise<SoakRun[]> {
    this.faultsOn();
    return this.untilOk("destroy", max, () => this.stack.destroy());
  }

  /** A clean `up` (faults off): the steps that were not "same" and the writes it sent. */
  async cleanUp(): Promise<{ run: SoakRun; changes: string[]; writes: string[] }> {
    this.faultsOff();
    const from = this.emu.requests.length;
    let result: RunResult | undefined;
    const run = await this.timed("clean up", async () => (result = await this.stack.up()));
    return { run, changes: changesOf(result), writes: this.writes(from).map((r) => `${r.method} ${r.path}`) };
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
    const onService = [
      ...Object.values(snap.alerts).map((a) => ({ id: a.id, name: `alert ${a.name ?? ""}` })),
      ...Object.values(snap.keys)
        .filter((k) => k.organizationId === SOAK_ORG)
        .map((k) => ({ id: k.id, name: `key ${k.name}` })),
    ];
    const perName = new Map<string, number>();
    for (const o of onService) perName.set(o.name, (perName.get(o.name) ?? 0) + 1);
    const serviceIds = new Set(onService.map((o) => o.id));
    const objects = ours.filter((r) => !r.type.endsWith(":PipeSettings"));
    let settingsOff = 0;
    for (let i = 0; i < SOAK_EACH; i++) {
      const live = snap.pipes[pipeKey(i)] ?? {};
      const wanted = settingsOf(i);
      if (Object.entries(wanted).some(([name, value]) => live[name] !== value)) settingsOff++;
    }
    return {
      duplicates: [...perName.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      orphans: onService.filter((o) => !recordedIds.has(o.id)).length,
      missing: objects.filter((r) => !serviceIds.has(r.id ?? "")).length,
      settingsOff,
      recorded: ours.length,
      pending: latest?.pending_operations?.length ?? 0,
    };
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

  /** What a destroy left: alerts, keys of the organization, and pipes with a setting still set. */
  leftovers(): { alerts: number; keys: number; pipesSet: number } {
    const snap = this.emu.snapshot();
    return {
      alerts: Object.keys(snap.alerts).length,
      keys: Object.values(snap.keys).filter((k) => k.organizationId === SOAK_ORG).length,
      pipesSet: Object.values(snap.pipes).filter((settings) => Object.values(settings).some((v) => v !== null)).length,
    };
  }

  /** How many writes the emulator answered, and how many of them met each fault. */
  faultCounts(): { writes: number } & Record<FaultKind, number> {
    const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
    const writes = this.writes();
    for (const r of writes) if (r.fault !== undefined && r.fault !== "failNext") counts[r.fault] += 1;
    return { writes: writes.length, ...counts };
  }

  /** One line: the seed, the rate, the runs and the faults met. */
  summary(): string {
    const f = this.faultCounts();
    const faulted = FAULT_KINDS.reduce((sum, k) => sum + f[k], 0);
    const runs = this.runs.map((r) => `${r.kind}${r.ok ? "" : "✗"} ${r.seconds.toFixed(0)}s`).join(", ");
    return (
      `soak ${this.door} seed ${this.options.seed} rate ${this.options.rate}: ${f.writes} writes, ${faulted} faulted ` +
      `(503 before ${f.failBeforeCommit}, cut ${f.cutAfterCommit}, 500 after ${f.failAfterCommit}, late ${f.delayAfterCommit}); runs: ${runs}`
    );
  }

  async close(): Promise<void> {
    this.stack.dispose();
    await this.emu.close();
  }

  /** The writes answered since request `from` of the log. */
  private writes(from = 0): RecordedRequest[] {
    return this.emu.requests.slice(from).filter((r) => r.method !== "GET");
  }

  private async untilOk(kind: "up" | "destroy", max: number, run: () => Promise<RunResult>): Promise<SoakRun[]> {
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
    const result = await run();
    const errors = result.ok
      ? []
      : result.diagnostics
          .filter((d) => d.startsWith("error: "))
          .map((d) => d.split("\n")[0] ?? d)
          .slice(0, 5);
    if (!result.ok && errors.length === 0) errors.push((result.error ?? "failed").split("\n")[0] ?? "failed");
    const one: SoakRun = { kind, ok: result.ok, seconds: (Date.now() - started) / 1000, errors };
    this.runs.push(one);
    this.options.log?.(
      `${kind} ${one.ok ? "succeeded" : "failed"} in ${one.seconds.toFixed(1)} s${errors.map((e) => `\n  ${e}`).join("")}`,
    );
    return one;
  }
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
