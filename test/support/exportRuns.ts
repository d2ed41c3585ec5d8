// Test support for `alertpipe export`: its environment for an emulator, and runs of it, in-process
// (the emulator tier: runCli with its output collected) or as the installed package's bin (the
// engine tier: the file npm links as `alertpipe`, run by node as the link would).

import { spawn } from "node:child_process";
import { join } from "node:path";
import type { RunningEmulator } from "../../emulator";
import { runCli } from "../../provider/export/cli";
import { resetRuntime } from "../../provider/runtime/runtime";
import { examplesDir } from "../../scripts/exampleStack";
import { envFor, setEnv } from "./emulatorPerTest";

/** Both areas of the emulator, as ALERTPIPE_* variables; pacing off unless `pacing` gives both limits. */
export function exportEnv(emu: RunningEmulator, pacing?: { alerting: string; cloud: string }): Record<string, string> {
  return {
    ...envFor("alerting", emu),
    ...envFor("cloud", emu),
    ...(pacing === undefined
      ? {}
      : { ALERTPIPE_ALERTING_RATE_LIMIT: pacing.alerting, ALERTPIPE_CLOUD_RATE_LIMIT: pacing.cloud }),
  };
}

export interface ExportRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `alertpipe <args>` in this process, with `env` set for it alone and a fresh runtime (as a new process has). */
export async function exportInProcess(args: readonly string[], env: Record<string, string>): Promise<ExportRun> {
  let stdout = "";
  let stderr = "";
  const restore = setEnv(env);
  resetRuntime();
  try {
    const code = await runCli(args, { out: (t) => (stdout += t), err: (t) => (stderr += t) });
    return { code, stdout, stderr };
  } finally {
    resetRuntime();
    restore();
  }
}

/** The `alertpipe` bin of the package installed in examples/ (the file its package.json's bin names), run by node. */
export function installedCommand(programDir: string = examplesDir()): string {
  return join(programDir, "node_modules", "pulumi-alertpipe", "dist", "provider", "export", "main.js");
}

/** A child process running `command args` with only `env` (and PATH), collected. */
export function exportProcess(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<ExportRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
