// One stack run by the real Pulumi engine: the `pulumi` CLI, driven by the Automation API with an
// inline program, so the language runtime is this process and no language host is needed.
//
// Each stack lives in a fresh temporary folder of its own: PULUMI_HOME, a file:// backend and the
// workspace (where the Automation API writes Pulumi.yaml). The user's own login and files are never
// touched. The project's `main` is the program folder, whose node_modules holds pulumi-alertpipe as a
// user installs it: the CLI starts the dynamic-provider plugin there, and the plugin resolves
// @pulumi/pulumi and our serialized shim from it.

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import type { ConfigMap, EngineEvent, OpType, PulumiFn, Stack, StepEventMetadata } from "@pulumi/pulumi/automation";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { pulumiCli, type EngineTool } from "./pulumiCli";

export type StepOp = "create" | "update" | "replace" | "same" | "delete" | "read" | "refresh-update" | "refresh-delete";

export interface Step {
  urn: string;
  type: string;
  /** The resource's name (the last part of its URN). */
  name: string;
  op: StepOp;
  /**
   * Properties the engine names as changed. Empty for our updates: a dynamic provider's diff has no
   * detailed diff to give (only `--diff` output shows property-level changes).
   */
  diffs: string[];
  /** For a replace: the properties that forced it. */
  replaceKeys: string[];
  /** Outputs after the step, as the engine reported them (secrets as the engine's secret marker). */
  outputs?: Record<string, unknown>;
  error?: string;
}

export interface RunResult {
  ok: boolean;
  steps: Step[];
  /** Stack outputs: value and whether it is secret (the value of a secret output is shown only when asked). */
  outputs: Record<string, { value: unknown; secret: boolean }>;
  /** Engine diagnostics, "<severity>: [<resource name>: ]<message>", info and up. */
  diagnostics: string[];
  /** What the CLI printed (stdout and stderr), as a user of `pulumi up` would read it. */
  log: string;
  /**
   * Every engine event, for checks the summary above does not cover. Unlike the state and the
   * CLI's output, the engine's event stream to the Automation API carries secret values in plain
   * text (wrapped in the SECRET_SIG marker): never print it.
   */
  events: EngineEvent[];
  /** The run's error in words, when it failed. */
  error?: string;
  /** The engine's count of steps by kind ("same", "create", "delete"…), from its summary (Automation API runs but preview). */
  changes?: Record<string, number>;
}

export interface EngineStackOptions {
  /** Stack name; a fresh folder per stack, so names need not be unique across processes. */
  stack: string;
  /** The project name; the program's `new pulumi.Config()` reads `<project>:*`. */
  project: string;
  /** A folder whose node_modules holds pulumi-alertpipe as a user installs it. */
  programDir: string;
  program: PulumiFn;
  config?: Record<string, { value: string; secret?: boolean }>;
  /** Environment added for the CLI, the program's runtime and the provider host. */
  env?: Record<string, string>;
  passphrase?: string;
}

export interface RunOptions {
  /** Resource operations at once; the engine's own default when not given. */
  parallel?: number;
  /** Abort (one SIGINT to the CLI, which then cancels safely) when this signal fires. */
  signal?: AbortSignal;
  /** Replace the program for this run only. */
  program?: PulumiFn;
  /** Print the CLI's output as it comes (the demo does). */
  onOutput?: (text: string) => void;
  /** For preview and up: `--diff`. */
  diff?: boolean;
  /** For preview and up: `--replace` of these URNs. */
  replace?: string[];
}

export type RunKind = "preview" | "up" | "refresh" | "destroy";

/** The engine's marker for a secret value inside step outputs, and the key it sits under. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const SIG_KEY = "4dabf18193072939515e22adb298388d";

function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

function stepOp(m: StepEventMetadata, kind: RunKind): StepOp | undefined {
  const op: OpType = m.op;
  // The engine runs refresh as Read then Diff, and reports what it found as an update or a delete.
  if (kind === "refresh" && op === "update") return "refresh-update";
  if (kind === "refresh" && op === "delete") return "refresh-delete";
  switch (op) {
    case "same":
    case "create":
    case "update":
    case "delete":
    case "replace":
    case "read":
      return op;
    case "refresh":
      if (m.new === undefined || m.new === null) return "refresh-delete";
      return (m.diffs?.length ?? 0) > 0 || JSON.stringify(m.old?.outputs ?? {}) !== JSON.stringify(m.new.outputs ?? {})
        ? "refresh-update"
        : "same";
    default:
      // create-replacement, delete-replaced, discard-*, remove-pending-replace: parts of a replace.
      return undefined;
  }
}

/** Strips the CLI's `<{%reset%}>`-style colour directives from event messages. */
function plain(text: string): string {
  return text.replace(/<\{%[^%]*%\}>/g, "").trimEnd();
}

/** The steps and diagnostics of a run, from the engine's events (the Automation API's, or a CLI run's `--json`). */
export function summarize(events: EngineEvent[], kind: RunKind): Pick<RunResult, "steps" | "diagnostics"> {
  const steps = new Map<string, Step>();
  const diagnostics: string[] = [];
  for (const e of events) {
    const d = e.diagnosticEvent;
    if (d !== undefined && !d.ephemeral && (d.severity as string) !== "debug") {
      const severity = d.severity === "info#err" ? "info" : d.severity;
      const line = `${severity}: ${d.urn ? `${nameOf(d.urn)}: ` : ""}${plain(d.message)}`;
      diagnostics.push(line);
    }
    const m = e.resOutputsEvent?.metadata ?? e.resourcePreEvent?.metadata;
    if (m !== undefined && !m.type.startsWith("pulumi:providers:") && m.type !== "pulumi:pulumi:Stack") {
      const op = stepOp(m, kind);
      if (op !== undefined && (e.resOutputsEvent !== undefined || !steps.has(m.urn))) {
        steps.set(m.urn, {
          urn: m.urn,
          type: m.type,
          name: nameOf(m.urn),
          op,
          diffs: m.diffs ?? [],
          replaceKeys: op === "replace" ? (m.keys ?? []) : [],
          ...(m.new?.outputs !== undefined ? { outputs: m.new.outputs } : {}),
        });
      }
    }
    const f = e.resOpFailedEvent?.metadata;
    if (f !== undefined && !steps.has(f.urn)) {
      steps.set(f.urn, {
        urn: f.urn,
        type: f.type,
        name: nameOf(f.urn),
        op: stepOp(f, kind) ?? "create",
        diffs: [],
        replaceKeys: [],
      });
    }
  }
  // Errors come after the failed step's events (a step may be reported more than once): attach
  // each to its step once all are known, the last word winning.
  for (const e of events) {
    const d = e.diagnosticEvent;
    if (d?.severity === "error" && d.urn) {
      const step = steps.get(d.urn);
      if (step) step.error = plain(d.message);
    }
  }
  return { steps: [...steps.values()], diagnostics };
}

/** Whether a value of the engine's events is a secret: its marker. */
function isSecretMarker(value: unknown): boolean {
  return value !== null && typeof value === "object" && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** Whether a value of the engine's events is a secret, or holds one. */
function holdsSecret(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  return isSecretMarker(value) || Object.values(value).some(holdsSecret);
}

/**
 * The root stack resource's outputs in the run's events, as the engine sends them: a secret is its
 * marker around "[secret]", never its value. Each is secret when its whole value is (what the CLI's
 * `stack output` masks as "[secret]").
 */
export function rootOutputsOf(events: EngineEvent[]): RunResult["outputs"] {
  let outputs: Record<string, unknown> = {};
  for (const e of events) {
    const m = e.resOutputsEvent?.metadata;
    if (m?.type === ROOT_STACK_TYPE && m.new?.outputs !== undefined) outputs = m.new.outputs;
  }
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { value: v, secret: isSecretMarker(v) }]));
}

/** The engine's count of steps by kind, from the run's summary event (what `pulumi stack history` records). */
export function resourceChangesOf(events: EngineEvent[]): Record<string, number> {
  const summary = events.find((e) => e.summaryEvent !== undefined)?.summaryEvent;
  return { ...(summary?.resourceChanges ?? {}) };
}

/** Loads a module of this process's @pulumi/pulumi that its types leave out (its runtime's internals). */
const sdkInternal: NodeJS.Require = require;

/** The root stack resource's type: every program registers it, even one that declares nothing. */
const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

/**
 * Why an `up` the engine called a success did not run the program, or undefined. The Automation
 * API's inline program swallows a resource-monitor RPC failing UNAVAILABLE or CANCELLED (it takes
 * them for the engine shutting down), so a program whose first RPC failed so "succeeds" having
 * registered nothing, and the engine then deletes every resource of the stack, the root stack
 * resource too, which no program that ran can do (docs/design/lost-creates.md, the soak).
 */
export function unregisteredProgram(events: EngineEvent[]): string | undefined {
  const rootDeleted = events.some((e) => {
    const m = e.resOutputsEvent?.metadata ?? e.resourcePreEvent?.metadata;
    return m?.type === ROOT_STACK_TYPE && m.op === "delete";
  });
  return rootDeleted
    ? "the program registered nothing, not even the root stack resource, so the engine deleted the stack's resources: " +
        "a resource-monitor RPC that failed UNAVAILABLE or CANCELLED, which the Automation API's inline program does not report"
    : undefined;
}

/**
 * Each run's connection to the engine's resource monitor gets a subchannel pool of its own. grpc-js
 * shares one pool per process by address, and the SDK never closes a run's monitor client: a run
 * whose monitor died under an RPC (a Ctrl-C, a failed up) leaves that address's subchannel in
 * backoff, and a later run whose monitor the OS gave the same port then fails its first RPC with
 * UNAVAILABLE ("No connection established"), which the inline program swallows (above).
 */
export function ownSubchannelPools(fromDir?: string): void {
  const load = fromDir === undefined ? sdkInternal : createRequire(join(fromDir, "index.js"));
  let settings: { grpcClientOptions?: Record<string, unknown> };
  try {
    settings = load("@pulumi/pulumi/runtime/settings") as typeof settings;
  } catch {
    return; // No copy of the SDK there: the program uses this process's, set below.
  }
  if (settings.grpcClientOptions !== undefined) settings.grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;
}
ownSubchannelPools();

/** The SDK's state of the run under way (internal to @pulumi/pulumi): `terminated` once an RPC failed UNAVAILABLE or CANCELLED. */
interface RunStore {
  terminated?: boolean;
}

/** `program`, noting in `seen` the SDK's state of the run it runs in, read when the run is over. */
function watched(program: PulumiFn, seen: { store?: RunStore }): PulumiFn {
  return async () => {
    const state = sdkInternal("@pulumi/pulumi/runtime/state") as { getStore(): RunStore };
    seen.store = state.getStore();
    return program();
  };
}

/** The Automation API's handle on the CLI, made once per folder and process (making one runs `pulumi version`). */
const commands = new Map<string, Promise<PulumiCommand>>();
function commandOf(root: string): Promise<PulumiCommand> {
  let command = commands.get(root);
  if (command === undefined) {
    command = PulumiCommand.get({ root, skipVersionCheck: true });
    commands.set(root, command);
  }
  return command;
}

/** Inline programs share the runtime's global state: one run at a time in a process. */
let queue: Promise<unknown> = Promise.resolve();
function serialized<T>(run: () => Promise<T>): Promise<T> {
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}

export class EngineStack {
  private constructor(
    private readonly opts: EngineStackOptions,
    private readonly stack: Stack,
    /** The temporary folder holding PULUMI_HOME, the backend and the workspace. */
    readonly root: string,
    readonly tool: EngineTool,
  ) {}

  static async open(opts: EngineStackOptions): Promise<EngineStack> {
    const cli = await pulumiCli();
    const root = mkdtempSync(join(tmpdir(), `alertpipe-${opts.stack}-`));
    for (const sub of ["home", "backend", "work"]) mkdirSync(join(root, sub));
    const binDir = dirname(cli.path);
    const envVars: Record<string, string> = {
      ...opts.env,
      PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: join(root, "home"),
      PULUMI_BACKEND_URL: `file://${join(root, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: opts.passphrase ?? "alertpipe-local-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    };
    const pulumiCommand = await commandOf(dirname(binDir));
    // A fresh folder has no stack to select: create it (createOrSelectStack tries a select first).
    const stack = await serialized(() =>
      LocalWorkspace.createStack(
        { stackName: opts.stack, projectName: opts.project, program: opts.program },
        {
          workDir: join(root, "work"),
          pulumiHome: join(root, "home"),
          pulumiCommand,
          envVars,
          projectSettings: { name: opts.project, runtime: "nodejs", main: opts.programDir },
          secretsProvider: "passphrase",
        },
      ),
    );
    // After each up the Automation API asks the CLI for the outputs (twice), and after each up, refresh and
    // destroy for the summary: processes that each derive the passphrase's key (10^6 PBKDF2 rounds), a
    // third of an engine test's CPU. The run's own events hold both (rootOutputsOf, resourceChangesOf).
    Object.assign(stack, { outputs: () => Promise.resolve({}), info: () => Promise.resolve(undefined) });
    // The program folder's own copy of the SDK, if it has one, makes the monitor client when its
    // classes register first.
    ownSubchannelPools(opts.programDir);
    const engineStack = new EngineStack(opts, stack, root, cli);
    if (opts.config !== undefined) await engineStack.setConfig(opts.config);
    return engineStack;
  }

  get name(): string {
    return this.opts.stack;
  }

  /** The stack's state file in the file backend. */
  get statePath(): string {
    return join(this.root, "backend", ".pulumi", "stacks", this.opts.project, `${this.opts.stack}.json`);
  }

  readStateFile(): string {
    return readFileSync(this.statePath, "utf8");
  }

  /** The stack's config file (Pulumi.<stack>.yaml in the workspace: config and the passphrase's salt). */
  get configFile(): string {
    return join(this.root, "work", `Pulumi.${this.opts.stack}.yaml`);
  }

  async setConfig(config: Record<string, { value: string; secret?: boolean }>): Promise<void> {
    const map: ConfigMap = {};
    for (const [k, v] of Object.entries(config)) map[k] = { value: v.value, secret: v.secret === true };
    await serialized(() => this.stack.setAllConfig(map));
  }

  async removeConfig(key: string): Promise<void> {
    await serialized(() => this.stack.removeConfig(key));
  }

  preview(options: RunOptions = {}): Promise<RunResult> {
    return this.run("preview", options);
  }

  up(options: RunOptions = {}): Promise<RunResult> {
    return this.run("up", options);
  }

  refresh(options: RunOptions = {}): Promise<RunResult> {
    return this.run("refresh", options);
  }

  destroy(options: RunOptions = {}): Promise<RunResult> {
    return this.run("destroy", options);
  }

  /**
   * `pulumi stack export` as a user runs it, without --show-secrets (the Automation API's
   * exportStack adds that flag): what someone would hand over for support.
   */
  async exportText(): Promise<string> {
    const r = await this.cli(["stack", "export", "--stack", this.opts.stack]);
    if (r.code !== 0) throw new Error(`pulumi stack export failed: ${r.stderr}`);
    return r.stdout;
  }

  /** Runs the CLI with this stack's environment, in its workspace. */
  cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
    const env = { ...process.env, ...(this.stack.workspace as LocalWorkspace).envVars };
    return new Promise((resolve, reject) => {
      execFile(
        this.tool.path,
        [...args, "--non-interactive"],
        { cwd: join(this.root, "work"), env, maxBuffer: 256 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err !== null && typeof err.code !== "number") {
            // An ExecFileException is an Error; typed through Omit<…>, the linter cannot tell.
            const failure: Error = err;
            reject(failure);
          } else resolve({ stdout, stderr, code: err === null ? 0 : (err.code as number) });
        },
      );
    });
  }

  /**
   * The stack's outputs after an up, as the Automation API gives them: from the run's events, and the
   * values of secrets, which the events mask, from one `pulumi stack output --show-secrets` when any
   * output holds one.
   */
  private async outputsAfter(events: EngineEvent[]): Promise<RunResult["outputs"]> {
    const outputs = rootOutputsOf(events);
    if (!Object.values(outputs).some((o) => holdsSecret(o.value))) return outputs;
    const r = await this.cli(["stack", "output", "--json", "--show-secrets", "--stack", this.opts.stack]);
    if (r.code !== 0) throw new Error(`pulumi stack output failed: ${r.stderr}`);
    const shown = JSON.parse(r.stdout) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(outputs).map(([k, o]) => [k, { value: shown[k], secret: o.secret }]));
  }

  /** Removes the stack's temporary folder (state, home, workspace). */
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  private run(kind: RunKind, options: RunOptions): Promise<RunResult> {
    return serialized(async () => {
      const events: EngineEvent[] = [];
      const output: string[] = [];
      const common = {
        color: "never" as const,
        onEvent: (e: EngineEvent) => events.push(e),
        onOutput: (text: string) => {
          output.push(text);
          options.onOutput?.(text);
        },
        onError: (text: string) => {
          output.push(text);
          options.onOutput?.(text);
        },
        ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
      };
      let outputs: RunResult["outputs"] = {};
      let changes: RunResult["changes"] = {};
      let error: string | undefined;
      const seen: { store?: RunStore } = {};
      const program = watched(options.program ?? this.opts.program, seen);
      try {
        switch (kind) {
          case "preview":
            await this.stack.preview({
              ...common,
              ...(options.diff ? { diff: true } : {}),
              ...(options.replace ? { replace: options.replace } : {}),
              ...(options.program ? { program: options.program } : {}),
              ...(options.signal ? { signal: options.signal } : {}),
            });
            break;
          case "up": {
            await this.stack.up({
              ...common,
              ...(options.diff ? { diff: true } : {}),
              ...(options.replace ? { replace: options.replace } : {}),
              program,
              ...(options.signal ? { signal: options.signal } : {}),
            });
            outputs = await this.outputsAfter(events);
            changes = resourceChangesOf(events);
            // The engine calls it a success; a program that never ran, or whose registrations were
            // cut, is not one.
            error =
              unregisteredProgram(events) ??
              (seen.store === undefined
                ? "the program never ran: an RPC before it (the SDK's SetRootResource to the engine) failed UNAVAILABLE or " +
                  "CANCELLED, which the Automation API's inline program does not report, and the engine deleted every resource of the stack"
                : undefined) ??
              (seen.store?.terminated === true
                ? "a resource-monitor RPC of the program failed UNAVAILABLE or CANCELLED and the Automation API's inline program " +
                  "does not report it: what the program declared after it was never registered, and the engine deleted it"
                : undefined);
            break;
          }
          case "refresh": {
            await this.stack.refresh({ ...common, ...(options.signal ? { signal: options.signal } : {}) });
            changes = resourceChangesOf(events);
            break;
          }
          case "destroy": {
            await this.stack.destroy({ ...common, ...(options.signal ? { signal: options.signal } : {}) });
            changes = resourceChangesOf(events);
            break;
          }
        }
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      const summary = summarize(events, kind);
      const errors = summary.diagnostics.filter((d) => d.startsWith("error: ")).map((d) => d.slice("error: ".length));
      return {
        ok: error === undefined,
        ...summary,
        outputs,
        changes,
        log: output.join(""),
        events,
        ...(error !== undefined ? { error: errors.length > 0 ? errors.join("\n") : error } : {}),
      };
    });
  }
}
