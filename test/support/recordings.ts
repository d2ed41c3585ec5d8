// Upgrade baselines (issue 25): a stack a release made through each front door, kept under
// test/engine/recorded/<version>/<door>/, and a stack of either door opened with a given install of the
// package. The recorder (test/engine/recordBaseline.ts) makes them; engine.upgrade.test.ts loads each
// one with what the tree builds now. A recording holds:
//   program.js | Pulumi.yaml  the program (dynamic: a function of the package; yaml: the project file)
//   state.json                `pulumi stack export` after its `up`, secrets encrypted
//   stack-config.yaml         the stack's Pulumi.<stack>.yaml: its config and its passphrase's salt
//   emulator.json             the emulator's `--data` file after that `up`
//   recording.json            the facts below: names, passphrase, the emulator's URL then, what was packed
// The emulator's URL is the one thing rewritten at load time (config and state), so a recording never
// needs its port free: every other byte is loaded as the release left it.

import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../emulator";
import type { RunKind } from "../../scripts/engine/stack";
import { installedPackage, type AlertpipePackage, type StackConfig } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/packedPackage";
import { afterFile, stackOn, type EngineStack, type RunResult } from "./engine";
import type { CliStack } from "./cliStack";
import { yamlStack } from "./yamlStack";

export const RECORDED_DIR = join(repoRoot(), "test", "engine", "recorded");

export const DOORS = ["dynamic", "yaml"] as const;
export type Door = (typeof DOORS)[number];

/** The program file of each door, in its recording's folder. */
export const PROGRAM_FILE: Record<Door, string> = { dynamic: "program.js", yaml: "Pulumi.yaml" };

export const FILES = {
  facts: "recording.json",
  state: "state.json",
  config: "stack-config.yaml",
  emulator: "emulator.json",
} as const;

/** Project and stack name of every recording: URNs carry both, so the stack that loads one takes the same. */
export const BASELINE_PROJECT = "alertpipe-baseline";
export const BASELINE_STACK = "baseline";

/** What recording.json says. */
export interface RecordingFacts {
  version: string;
  door: Door;
  project: string;
  stack: string;
  passphrase: string;
  /** The emulator's origin when recorded, replaced by the running one's at load time. */
  emulatorUrl: string;
  /** The sha256 of the packed package that made it, and the CLI that ran it. */
  packageSha256: string;
  cli: string;
}

export interface Recording {
  dir: string;
  facts: RecordingFacts;
}

/** Every recording kept, oldest release first: test/engine/recorded/<version>/<door>/recording.json. */
export function recordings(): Recording[] {
  const versions = existsSync(RECORDED_DIR) ? readdirSync(RECORDED_DIR).sort(byVersion) : [];
  return versions.flatMap((version) =>
    DOORS.map((door) => join(RECORDED_DIR, version, door))
      .filter((dir) => existsSync(join(dir, FILES.facts)))
      .map((dir) => ({ dir, facts: JSON.parse(readFileSync(join(dir, FILES.facts), "utf8")) as RecordingFacts })),
  );
}

/** Release versions in their order ("0.10.0" after "0.9.0"). */
export function byVersion(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i] ?? 0, pb[i] ?? 0];
    if (x !== y) return typeof x === "number" && typeof y === "number" ? x - y : String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** A stack of either door, driven the same way. */
export interface DoorStack {
  door: Door;
  run(kind: RunKind): Promise<RunResult>;
  setConfig(config: StackConfig): Promise<void>;
  /** `pulumi stack export`; with `showSecrets` the secrets in plain text: never print it. */
  exportState(showSecrets?: boolean): Promise<string>;
  /** `pulumi stack import` of a deployment's text. */
  importState(text: string): Promise<void>;
  readStateFile(): string;
  /** The stack's Pulumi.<stack>.yaml. */
  configFile: string;
}

export interface DoorStackOptions {
  /** The folder holding the door's program file (PROGRAM_FILE). */
  programFolder: string;
  /** The folder whose node_modules holds the package (and plugin) the stack runs with. */
  packageDir: string;
  project: string;
  stack: string;
  passphrase: string;
}

/** A stack of the door's program in `programFolder`, against `emu`, removed after the file's tests. */
export async function openDoorStack(door: Door, emu: RunningEmulator, o: DoorStackOptions): Promise<DoorStack> {
  const programFile = join(o.programFolder, PROGRAM_FILE[door]);
  return door === "dynamic" ? dynamicStack(emu, programFile, o) : yamlDoorStack(emu, programFile, o);
}

async function dynamicStack(emu: RunningEmulator, programFile: string, o: DoorStackOptions): Promise<DoorStack> {
  const makeProgram = createRequire(programFile)(programFile) as (pkg: AlertpipePackage) => PulumiFn;
  const stack: EngineStack = await stackOn(emu, o.stack, {
    program: makeProgram(installedPackage(o.packageDir)),
    project: o.project,
    programDir: o.packageDir,
    passphrase: o.passphrase,
  });
  return {
    door: "dynamic",
    run: (kind) => stack[kind](),
    setConfig: (config) => stack.setConfig(config),
    ...stateCommands(async (args) => {
      const r = await stack.cli([...args, "--stack", stack.name]);
      return { code: r.code, stdout: r.stdout, output: r.stderr };
    }),
    readStateFile: () => stack.readStateFile(),
    configFile: stack.configFile,
  };
}

async function yamlDoorStack(emu: RunningEmulator, programFile: string, o: DoorStackOptions): Promise<DoorStack> {
  const { stack } = await yamlStack(emu, readFileSync(programFile, "utf8"), {
    programDir: o.packageDir,
    stackName: o.stack,
    passphrase: o.passphrase,
  });
  return {
    door: "yaml",
    run: async (kind) => cliResult(stack, kind),
    setConfig: (config) => stack.setConfig(config),
    ...stateCommands((args) => stack.run(args)),
    readStateFile: () => stack.readStateFile(),
    configFile: stack.repoConfigFile,
  };
}

/** `stack export` and `stack import` through a door's way of running the CLI for its stack. */
function stateCommands(
  run: (args: string[]) => Promise<{ code: number | null; stdout: string; output: string }>,
): Pick<DoorStack, "exportState" | "importState"> {
  const cli = async (args: string[]) => {
    const r = await run(args);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.output}`);
    return r.stdout;
  };
  return {
    exportState: (showSecrets = false) => cli(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]),
    importState: async (text) => void (await cli(["stack", "import", "--file", deploymentFile(text)])),
  };
}

/** A CLI run as the Automation API's RunResult, so both doors' runs are read alike. */
async function cliResult(stack: CliStack, kind: RunKind): Promise<RunResult> {
  const run = await stack.runLogged(kind, kind === "preview" ? ["preview"] : [kind, "--yes"]);
  return {
    ok: run.code === 0,
    steps: run.steps,
    diagnostics: run.diagnostics,
    outputs: {},
    log: run.output,
    events: run.events,
    ...(run.code !== 0 ? { error: run.output } : {}),
  };
}

/** A deployment's text in a file of its own for `stack import --file`, removed after the file's tests. */
function deploymentFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "alertpipe-deployment-"));
  afterFile(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, FILES.state);
  writeFileSync(file, text);
  return file;
}
