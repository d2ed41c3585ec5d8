// The example program as a stack on the real Pulumi engine against a local emulator: shared by the
// demo, the end-to-end tests and the benchmark, so all three run the same thing the same way.

import { execFileSync } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../emulator";
import { EngineStack } from "./engine/stack";
import { installPacked, repoRoot } from "./packedPackage";

/** The package's public surface, as a program gets it from node_modules. */
export type AlertpipePackage = typeof import("../provider");

export const EXAMPLE_PROJECT = "alertpipe-example";

export function examplesDir(): string {
  return join(repoRoot(), "examples");
}

/**
 * Makes examples/ runnable as a user's program: the packed package in its node_modules, and each
 * example program compiled (with the example's own tsconfig) to bin/<name>.js so it can be loaded as
 * an inline program. Returns the program folder.
 */
export function prepareExamples(): string {
  const dir = examplesDir();
  installPacked(dir);
  const tsc = join(repoRoot(), "node_modules", "typescript", "bin", "tsc");
  // Compiled beside, then renamed over bin/index.js, so a parallel test run never loads half a file.
  const scratch = join(dir, "bin", `.build-${process.pid}`);
  execFileSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json"), "--outDir", scratch], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (const program of EXAMPLE_PROGRAMS) renameSync(join(scratch, `${program}.js`), join(dir, "bin", `${program}.js`));
  rmSync(scratch, { recursive: true, force: true });
  return dir;
}

/** The example programs of examples/ (each `<name>.ts`): index, the one `pulumi up` there runs, first. */
export const EXAMPLE_PROGRAMS = ["index", "observability"] as const;

/** An example's program function, loaded from examples/bin (see prepareExamples). */
export function exampleProgram(
  programDir: string = examplesDir(),
  program: (typeof EXAMPLE_PROGRAMS)[number] = "index",
): PulumiFn {
  const load = createRequire(join(programDir, "bin", `${program}.js`));
  return load(`./${program}.js`) as PulumiFn;
}

/**
 * pulumi-alertpipe as installed in the program folder: resources built from this copy serialize
 * their provider as `require("pulumi-alertpipe/…")`, exactly as in a user's program.
 */
export function installedPackage(programDir: string = examplesDir()): AlertpipePackage {
  return createRequire(join(programDir, "index.ts"))("pulumi-alertpipe") as AlertpipePackage;
}

export type StackConfig = Record<string, { value: string; secret?: boolean }>;

/** The stack config that points the example at an emulator; secrets marked as secret. */
export function emulatorConfig(emulator: Pick<RunningEmulator, "url" | "token" | "keyId" | "keySecret">): StackConfig {
  return {
    "alertpipe:alertingUrl": { value: emulator.url },
    "alertpipe:alertingToken": { value: emulator.token, secret: true },
    "alertpipe:cloudUrl": { value: emulator.url },
    "alertpipe:cloudKeyId": { value: emulator.keyId },
    "alertpipe:cloudKeySecret": { value: emulator.keySecret, secret: true },
  };
}

export interface ExampleStackOptions {
  stack: string;
  config: StackConfig;
  /** Defaults to the example program. */
  program?: PulumiFn;
  programDir?: string;
  project?: string;
  env?: Record<string, string>;
  /** The secrets passphrase; EngineStack's own by default. */
  passphrase?: string;
}

/** A stack of the example (or of another program using the installed package) on the real engine. */
export function openStack(opts: ExampleStackOptions): Promise<EngineStack> {
  const programDir = opts.programDir ?? examplesDir();
  return EngineStack.open({
    stack: opts.stack,
    project: opts.project ?? EXAMPLE_PROJECT,
    programDir,
    program: opts.program ?? exampleProgram(programDir),
    config: opts.config,
    ...(opts.env !== undefined ? { env: opts.env } : {}),
    ...(opts.passphrase !== undefined ? { passphrase: opts.passphrase } : {}),
  });
}

export async function withEmulator<T>(
  options: EmulatorOptions,
  body: (emulator: RunningEmulator) => Promise<T>,
): Promise<T> {
  const emulator = await startEmulator({ port: 0, ...options });
  try {
    return await body(emulator);
  } finally {
    await emulator.close();
  }
}
