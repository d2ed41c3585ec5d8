// The example program as a stack against a local emulator: shared by the demo, the end-to-end
// tests and the benchmark, so all three run the same thing the same way.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../emulator";
import { CliStack, pulumiCliOnPath } from "../test/harness/cliStack";
import { LocalStack, type RunResult, type StackOptions } from "../test/harness";
import { installPacked, repoRoot, workDir } from "./packedPackage";

export type Driver = "cli" | "harness";

/** The pulumi CLI when it is on PATH, otherwise our engine harness. */
export function defaultDriver(): Driver {
  return pulumiCliOnPath() ? "cli" : "harness";
}

export interface StackHandle {
  /** Where this stack's state lives (the harness's state file, or the CLI backend's stack file). */
  readonly statePath: string;
  preview(): Promise<RunResult>;
  up(): Promise<RunResult>;
  refresh(): Promise<RunResult>;
  destroy(): Promise<RunResult>;
}

export function examplesDir(): string {
  return join(repoRoot(), "examples");
}

/** Makes examples/ runnable as a user's program: the packed package in its node_modules. */
export function prepareExamples(): string {
  const dir = examplesDir();
  installPacked(dir);
  return dir;
}

/** The stack config that points the example at an emulator; secrets marked as secret. */
export function emulatorConfig(emulator: RunningEmulator): StackOptions["config"] {
  return {
    "alertpipe:alertingUrl": { value: emulator.url },
    "alertpipe:alertingToken": { value: emulator.token, secret: true },
    "alertpipe:cloudUrl": { value: emulator.url },
    "alertpipe:cloudKeyId": { value: emulator.keyId },
    "alertpipe:cloudKeySecret": { value: emulator.keySecret, secret: true },
  };
}

export interface ExampleStackOptions {
  driver: Driver;
  /** Folder name under .alertpipe/ for this stack's state. */
  name: string;
  programDir?: string;
  config: StackOptions["config"];
  passphrase?: string;
}

export function openStack(opts: ExampleStackOptions): StackHandle {
  const stateDir = workDir("stacks", opts.name);
  const common = {
    programDir: opts.programDir ?? examplesDir(),
    stack: "dev",
    statePath: join(stateDir, "state.json"),
    passphrase: opts.passphrase ?? "alertpipe-local-passphrase",
    config: opts.config,
  };
  return opts.driver === "cli" ? new CliStack({ ...common, backendDir: stateDir }) : new LocalStack(common);
}

/** Removes a stack's saved state so a run starts fresh. */
export function forgetStack(name: string): void {
  rmSync(join(repoRoot(), ".alertpipe", "stacks", name), { recursive: true, force: true });
}

export async function withEmulator<T>(options: EmulatorOptions, body: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator({ port: 0, ...options });
  try {
    return await body(emulator);
  } finally {
    await emulator.close();
  }
}
