// Programs in other languages on the real engine, for the native plugin's tests: the plugin archive
// installed into a fresh PULUMI_HOME as a YAML, Python or Go team installs it, a Python venv with
// the generated SDK, the Go program built against the generated Go SDK, and a run of one such
// Automation API inline program with nothing of our Node project on its PATH. A missing Python, Go
// or engine fails the test that needs it, with what to install; nothing is skipped.

import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { lockedSdkVersion, pulumiCli } from "../../scripts/engine/pulumiCli";
import { emulatorConfig, type StackConfig } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/packedPackage";
import { buildPluginArchive, type PluginArchive } from "../../scripts/pluginArchive";
import { sdkDir } from "../../scripts/sdk";
import { PIPE_IDS } from "./fixtures";

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new temporary folder, removed after the file's tests. */
export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `alertpipe-${prefix}-`));
  folders.push(dir);
  return dir;
}

/** Runs a command to its end; rejects with its output when it fails. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      code === 0
        ? resolve({ stdout, stderr })
        : reject(
            new Error(
              `${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${stderr.slice(-6000)}\n${stdout.slice(-2000)}`,
            ),
          ),
    );
  });
}

/** A command the tests need, found on PATH (or at one of `also`), or an error saying what to install. */
export function required(command: string, why: string, also: readonly string[] = []): string {
  const found = [
    ...(process.env.PATH ?? "")
      .split(delimiter)
      .filter((d) => d !== "")
      .map((d) => join(d, command)),
    ...also,
  ].find((p) => existsSync(p));
  if (found === undefined)
    throw new Error(`${command} is needed ${why} and was not found on PATH: install it (.ci/run does on CI)`);
  return found;
}

/** A PATH holding the engine, node and the system's commands: nothing of this repository's node_modules. */
export async function plainPath(): Promise<string> {
  const cli = await pulumiCli();
  return [dirname(cli.path), dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(delimiter);
}

export interface InstalledPlugin {
  readonly archive: PluginArchive;
  /** The PULUMI_HOME it was installed into. */
  readonly home: string;
}

/** The plugin archive, built now and installed with `pulumi plugin install resource alertpipe <version> --file <archive>` into a fresh PULUMI_HOME. */
export async function installedPluginArchive(): Promise<InstalledPlugin> {
  const archive = await buildPluginArchive(scratch("archive"));
  const home = scratch("pulumi-home");
  const cli = await pulumiCli();
  await run(cli.path, ["plugin", "install", "resource", "alertpipe", archive.version, "--file", archive.path], {
    env: { PATH: await plainPath(), PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  return { archive, home };
}

/** The folder a plugin install put the archive's files in. */
export function installedPluginDir(plugin: InstalledPlugin): string {
  return join(plugin.home, "plugins", `resource-alertpipe-v${plugin.archive.version}`);
}

/**
 * A Python venv with PyPI's `pulumi` at the version of our lock file's @pulumi/pulumi and the
 * generated SDK, pip-installed from a copy of sdk/python (pip leaves build/ and *.egg-info beside
 * what it installs). Returns the venv's python.
 */
export async function pythonWithSdk(): Promise<string> {
  const python = required("python3", "for the Python program");
  const venv = join(scratch("venv"), "venv");
  await run(python, ["-m", "venv", venv]);
  const sdkCopy = join(scratch("python-sdk"), "python");
  cpSync(join(sdkDir(), "python"), sdkCopy, { recursive: true });
  const venvPython = join(venv, "bin", "python");
  await run(venvPython, [
    "-m",
    "pip",
    "install",
    "--quiet",
    "--disable-pip-version-check",
    `pulumi==${lockedSdkVersion().slice(1)}`,
    sdkCopy,
  ]);
  return venvPython;
}

/** test/engine/fixtures/<name>, a program of another language. */
export function fixture(name: string): string {
  return join(repoRoot(), "test", "engine", "fixtures", name);
}

/**
 * The Go program (test/engine/fixtures/go-program), built against the generated Go SDK by its
 * go.mod's replace, every module checked against its committed go.sum. Returns the executable.
 */
export async function builtGoProgram(): Promise<string> {
  const go = required("go", "to build the Go program", ["/usr/local/go/bin/go"]);
  const out = join(scratch("go-program"), "go-program");
  mkdirSync(dirname(out), { recursive: true });
  await run(go, ["build", "-o", out, "."], {
    cwd: fixture("go-program"),
    // The checksum database is not reachable here; the committed go.sum checks every module instead.
    env: { ...process.env, GOSUMDB: "off", GOFLAGS: "-mod=readonly", GOTOOLCHAIN: "local", CGO_ENABLED: "0" },
  });
  return out;
}

/** What a program of test/engine/fixtures prints after a run. */
export interface ProgramReport {
  result: string;
  changes: Record<string, number>;
  outputs: Record<string, { secret: boolean; value: unknown }>;
}

export interface LanguageStack {
  /** Runs `<command...> up|destroy` and returns what it printed. */
  run(kind: "up" | "destroy"): Promise<ProgramReport>;
  /** The stack's state file in the file backend. */
  readStateFile(): string;
}

/**
 * A stack of one of the fixtures' programs (`command`, e.g. [python, inline_program.py]) against
 * the emulator, on a file backend of its own, with the plugin from `plugin.home` alone: PATH holds
 * no node_modules and the engine ignores any plugin found there.
 */
export async function languageStack(
  command: readonly string[],
  options: { project: string; stack: string; emu: RunningEmulator; plugin: InstalledPlugin; config?: StackConfig },
): Promise<LanguageStack> {
  const backend = scratch("backend");
  const env: NodeJS.ProcessEnv = {
    PATH: await plainPath(),
    HOME: process.env.HOME,
    PULUMI_HOME: options.plugin.home,
    PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
    PULUMI_CONFIG_PASSPHRASE: "alertpipe-language-stack",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    ALERTPIPE_TEST_STACK: options.stack,
    ALERTPIPE_TEST_BACKEND: `file://${backend}`,
    ALERTPIPE_TEST_CONFIG: JSON.stringify({ ...emulatorConfig(options.emu), ...options.config }),
    ALERTPIPE_TEST_ORGANIZATION: PIPE_IDS.organizationId,
    ALERTPIPE_TEST_SERVICE: PIPE_IDS.serviceId,
    ALERTPIPE_TEST_PIPE: PIPE_IDS.pipeId,
  };
  const [program, ...args] = command;
  if (program === undefined) throw new Error("languageStack needs a command");
  return {
    async run(kind) {
      const { stdout } = await run(program, [...args, kind], { env, cwd: backend });
      const last = stdout.trim().split("\n").pop() ?? "";
      return JSON.parse(last) as ProgramReport;
    },
    readStateFile() {
      return readFileSync(join(backend, ".pulumi", "stacks", options.project, `${options.stack}.json`), "utf8");
    },
  };
}
