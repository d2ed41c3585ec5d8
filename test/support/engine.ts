// Stacks on the real Pulumi engine for end-to-end tests: each against its own emulator, each in
// fresh temporary folders, all removed when the file's tests end.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import type { EngineStack, RunKind, RunResult, Step } from "../../scripts/engine/stack";
import {
  emulatorConfig,
  examplesDir,
  installedPackage,
  openStack,
  type AlertpipePackage,
  type StackConfig,
} from "../../scripts/exampleStack";
import { byHand } from "./byHand";
import { PIPE_RESOURCE_ID } from "./fixtures";

export { installedPackage };
export { byHand } from "./byHand";
export type { EngineStack, RunningEmulator, RunResult };

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the file's tests, after those registered later (last in, first out). */
export function afterFile(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** An emulator on a free loopback port, closed after the file's tests. */
export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const running = await startEmulator({ port: 0, ...options });
  cleanups.push(() => running.close());
  return running;
}

export interface TestStackOptions {
  /** Defaults to the example program. */
  program?: PulumiFn;
  /** Added to the config that points the stack at the emulator. */
  config?: StackConfig;
  env?: Record<string, string>;
  /** The project name; the example's by default. */
  project?: string;
  /** A folder whose node_modules holds the package the program uses; examples/ by default. */
  programDir?: string;
  passphrase?: string;
}

/** A stack of a program on the real engine, pointed at the emulator, removed after the file's tests. */
export async function stackOn(
  running: RunningEmulator,
  name: string,
  options: TestStackOptions = {},
): Promise<EngineStack> {
  return stackWith(emulatorConfig(running), name, options);
}

/** A stack of a program on the real engine with `config` (where its services are), removed after the file's tests. */
export async function stackWith(
  config: StackConfig,
  name: string,
  options: TestStackOptions = {},
): Promise<EngineStack> {
  const stack = await openStack({
    stack: name,
    config: { ...config, ...options.config },
    ...(options.program !== undefined ? { program: options.program } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.programDir !== undefined ? { programDir: options.programDir } : {}),
    ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}),
  });
  cleanups.push(() => stack.dispose());
  return stack;
}

/** A program built from the package as installed in the program folder, so it serializes as a user's does. */
export type PackageProgram = (pkg: AlertpipePackage) => ReturnType<PulumiFn>;

export interface NewStackOptions extends Omit<TestStackOptions, "program" | "config"> {
  emulator?: EmulatorOptions;
  /** Added to the config that points the stack at the emulator; a function for config that needs the emulator. */
  config?: StackConfig | ((emu: RunningEmulator) => StackConfig | Promise<StackConfig>);
}

/** An emulator of its own and a stack on it. */
export interface StackOnEmulator {
  readonly emu: RunningEmulator;
  readonly stack: EngineStack;
}

/**
 * The one way an engine test sets up a stack: an emulator of its own and a stack of `program` (the
 * example when not given) pointed at it, both removed after the file's tests.
 */
export async function newStack(
  name: string,
  program?: PackageProgram,
  options: NewStackOptions = {},
): Promise<StackOnEmulator> {
  const { emulator: emulatorOptions, config, ...rest } = options;
  const emu = await emulator(emulatorOptions);
  const programDir = options.programDir;
  const stack = await stackOn(emu, name, {
    ...rest,
    ...(program !== undefined ? { program: () => program(installedPackage(programDir)) } : {}),
    ...(config !== undefined ? { config: typeof config === "function" ? await config(emu) : config } : {}),
  });
  return { emu, stack };
}

/** newStack opened before the tests of the describe block that calls this, which share it. */
export function sharedStack(name: string, program?: PackageProgram, options: NewStackOptions = {}): StackOnEmulator {
  let opened: StackOnEmulator | undefined;
  beforeAll(async () => {
    opened = await newStack(name, program, options);
  });
  const get = (): StackOnEmulator => {
    if (opened === undefined) throw new Error(`stack ${name} is used before its beforeAll opened it`);
    return opened;
  };
  return {
    get emu() {
      return get().emu;
    },
    get stack() {
      return get().stack;
    },
  };
}

/**
 * A folder holding `pulumi-resource-alertpipe` as npm links a package's bin: the file the packed
 * package installs into `programDir`'s node_modules (examples/ by default), made executable, linked
 * into `dir` (a new temporary folder by default). It goes on PATH, or a Pulumi.yaml's
 * `plugins.providers` path names it; the folder is removed after the file's tests.
 */
export function pluginFolder(
  dir: string = mkdtempSync(join(tmpdir(), "alertpipe-plugin-")),
  programDir: string = examplesDir(),
): string {
  mkdirSync(dir, { recursive: true });
  const installed = join(programDir, "node_modules", "pulumi-alertpipe", "dist", "provider", "native", "main.js");
  chmodSync(installed, 0o755);
  symlinkSync(installed, join(dir, "pulumi-resource-alertpipe"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The plugin on this process's PATH, first, for the tests of the describe block that calls this: the
 * engine then finds `pulumi-resource-alertpipe` as a user's shell finds npm's node_modules/.bin.
 */
export function pluginOnPath(): void {
  const savedPath = process.env.PATH;
  beforeAll(() => {
    // The stack's CLI takes this process's PATH, behind its own folder.
    process.env.PATH = `${pluginFolder()}${delimiter}${savedPath ?? ""}`;
  });
  afterAll(() => {
    process.env.PATH = savedPath;
  });
}

/** What the example's first up leaves on the service: one alert, one key, and the settings of its pipe. */
export function expectExampleMade(emu: Pick<RunningEmulator, "snapshot">): void {
  const snap = emu.snapshot();
  expect(Object.keys(snap.alerts)).toHaveLength(1);
  expect(Object.keys(snap.keys)).toHaveLength(1);
  expect(snap.pipes[PIPE_RESOURCE_ID]).toMatchObject({
    db_max_threads: 8,
    object_storage_concurrency: 4,
    streaming_max_insert_wait_ms: 1000,
    db_parallel_view_processing: true,
  });
}

/** Our resources' types: the dynamic classes' and the native plugin's. */
export function isOurType(type: string): boolean {
  return type.startsWith("pulumi-nodejs:dynamic/alertpipe:") || type.startsWith("alertpipe:index:");
}

/** The run, once it is known to have succeeded; otherwise the test fails showing what the user was told. */
export function succeeded(result: RunResult): RunResult {
  expect(result.ok, told(result)).toBe(true);
  return result;
}

/** "op name" of every step that is not "same", sorted: what a run did, at a glance. */
export function changes(result: Pick<RunResult, "steps">): string[] {
  return result.steps
    .filter((s) => s.op !== "same")
    .map((s) => `${s.op} ${s.name}`)
    .sort();
}

/** The run's error and diagnostics in one string, for assertions on what the user is told. */
export function told(result: RunResult): string {
  return `${result.error ?? ""}\n${result.diagnostics.join("\n")}\n${result.log}`;
}

/** A run as a lifecycle sees it, through either door: whether it succeeded, its steps, what it told. */
export interface RunOutcome {
  ok: boolean;
  steps: Step[];
  told: string;
}

/** A run of an Automation API stack, as a lifecycle sees it. */
export async function engineOutcome(stack: EngineStack, kind: RunKind): Promise<RunOutcome> {
  const r = await stack[kind]();
  return { ok: r.ok, steps: r.steps, told: told(r) };
}

/** The ids the stack's state holds, by resource name. */
export function stateIds(s: Pick<EngineStack, "readStateFile">): Record<string, string> {
  return Object.fromEntries([...ourState(s)].map(([n, r]) => [n, r.id ?? ""]));
}

/** Sets an alert's threshold by hand, its other members as the service holds them (a PUT replaces the alert). */
export async function thresholdByHand(emu: RunningEmulator, alertId: string, threshold: number): Promise<void> {
  const alert = emu.snapshot().alerts[alertId];
  expect(alert, `alert ${alertId} on the service`).toBeDefined();
  const { name, source, thresholdType, interval, channel } = alert ?? {};
  await byHand(emu, "PUT", `/api/v2/alerts/${alertId}`, { name, source, threshold, thresholdType, interval, channel });
}

/**
 * "op name" of each step the engine began, in the order it began them, parts of a replace included
 * (create-replacement, replace, delete-replaced), for our resources only; "same" steps are left out.
 * Names and op names only: the events carry secret values in plain text.
 */
export function engineOrder(result: Pick<RunResult, "events">): string[] {
  const order: string[] = [];
  for (const e of result.events) {
    const m = e.resourcePreEvent?.metadata;
    if (m === undefined || !isOurType(m.type) || m.op === "same") continue;
    order.push(`${m.op} ${m.urn.split("::").slice(3).join("::")}`);
  }
  return order;
}

/** A resource as the stack's state file holds it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  initErrors?: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
}

/** Our resources in the stack's state file (the file backend's checkpoint), by name. */
export function ourState(s: Pick<EngineStack, "readStateFile">): Map<string, StateResource> {
  const state = JSON.parse(s.readStateFile()) as { checkpoint: { latest?: { resources?: StateResource[] } } };
  return ourByName(state.checkpoint.latest?.resources ?? []);
}

/** Our resources in a `pulumi stack export`'s text, by name. */
export function ourExported(exported: string): Map<string, StateResource> {
  return ourByName(
    (JSON.parse(exported) as { deployment: { resources?: StateResource[] } }).deployment.resources ?? [],
  );
}

function ourByName(resources: StateResource[]): Map<string, StateResource> {
  const found = new Map<string, StateResource>();
  for (const r of resources) if (isOurType(r.type)) found.set(r.urn.split("::").slice(3).join("::"), r);
  return found;
}

/** The read each credential's check sends, once per provider process (provider/http/credentials.ts). */
export const CREDENTIAL_READS = { cloud: "GET /v1/organizations", alerting: "GET /api/v2/alerts" } as const;

/** A credential's check read (`CREDENTIAL_READS`; the alerting one with its `limit=1`), not a list's read. */
export function isCredentialCheck(r: RunningEmulator["requests"][number]): boolean {
  const said = `${r.method} ${r.path}`;
  return said === CREDENTIAL_READS.cloud || (said === CREDENTIAL_READS.alerting && r.query === "limit=1");
}

/**
 * "METHOD path" of every request the emulator answered since its log was last reset, in answer order,
 * but the credentials' checks (each run's first check of each credential), which `credentialChecks` lists.
 */
export function requestLog(emu: RunningEmulator, keep: (method: string) => boolean = () => true): string[] {
  return emu.requests.filter((r) => keep(r.method) && !isCredentialCheck(r)).map((r) => `${r.method} ${r.path}`);
}

/** "METHOD path" of the credentials' checks alone, in answer order. */
export function credentialChecks(emu: RunningEmulator): string[] {
  return emu.requests.filter(isCredentialCheck).map((r) => `${r.method} ${r.path}`);
}

/**
 * The status the emulator answers to a key's own use (listing its organization's keys, Basic
 * authentication with the key ID and secret). The pair is never printed or returned.
 */
export async function statusWithKey(
  emu: RunningEmulator,
  organizationId: string,
  keyId: string,
  keySecret: string,
): Promise<number> {
  const res = await fetch(`${emu.url}/v1/organizations/${organizationId}/keys`, {
    headers: { authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}` },
  });
  await res.arrayBuffer();
  return res.status;
}
