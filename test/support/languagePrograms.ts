// Programs in other languages on the real engine, for the native plugin's tests: the plugin archive
// installed into a fresh PULUMI_HOME as a YAML, Python or Go team installs it, a Python venv with
// the generated SDK, the Go program built against the generated Go SDK, and a run of one such
// Automation API inline program with nothing of our Node project on its PATH. A missing Python, Go
// or engine fails the test that needs it, with what to install; nothing is skipped.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { lockedSdkVersion, pulumiCli } from "../../scripts/engine/pulumiCli";
import { emulatorConfig, type StackConfig } from "../../scripts/exampleStack";
import { repoRoot, run, venvWith } from "../../scripts/packedPackage";
import type { GoModule } from "../../scripts/goModule";
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

export { run };

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

/**
 * The plugin archive (built now, unless one is given) installed with `pulumi plugin install resource
 * alertpipe <version> --file <archive>` into a fresh PULUMI_HOME.
 */
export async function installedPluginArchive(made?: PluginArchive): Promise<InstalledPlugin> {
  const archive = made ?? (await buildPluginArchive(scratch("archive")));
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
 * generated SDK: the release's wheel when given, else pip-installed from a copy of sdk/python (pip
 * leaves build/ and *.egg-info beside what it installs). Returns the venv's python.
 */
export async function pythonWithSdk(wheel?: string): Promise<string> {
  const python = required("python3", "for the Python program");
  let sdkCopy = wheel;
  if (sdkCopy === undefined) {
    sdkCopy = join(scratch("python-sdk"), "python");
    cpSync(join(sdkDir(), "python"), sdkCopy, { recursive: true });
  }
  return venvWith(python, join(scratch("venv"), "venv"), [`pulumi==${lockedSdkVersion().slice(1)}`, sdkCopy]);
}

/** test/engine/fixtures/<name>, a program of another language. */
export function fixture(name: string): string {
  return join(repoRoot(), "test", "engine", "fixtures", name);
}

/**
 * The Go program (test/engine/fixtures/go-program), built against the generated Go SDK by its
 * go.mod's replace, every module checked against its committed go.sum. Given a release's Go module,
 * a copy of it instead requires that module at its version, without the replace, as a user's program
 * does, and takes it from the release's proxy folder (the public proxy serving the rest); the build
 * adds the module's go.sum lines. Returns the executable.
 */
export async function builtGoProgram(release?: GoModule): Promise<string> {
  const go = required("go", "to build the Go program", ["/usr/local/go/bin/go"]);
  const out = join(scratch("go-program"), "go-program");
  mkdirSync(dirname(out), { recursive: true });
  // The checksum database is not reachable here; the committed go.sum checks every module instead.
  const env = { ...process.env, GOSUMDB: "off", GOFLAGS: "-mod=readonly", GOTOOLCHAIN: "local", CGO_ENABLED: "0" };
  if (release === undefined) {
    await run(go, ["build", "-o", out, "."], { cwd: fixture("go-program"), env });
    return out;
  }
  const dir = scratch("go-user");
  cpSync(join(fixture("go-program"), "main.go"), join(dir, "main.go"));
  // go.sum holds the hashes of the release's module as computed from its files: a build that took
  // other bytes for it would fail the check.
  writeFileSync(join(dir, "go.sum"), readFileSync(join(fixture("go-program"), "go.sum"), "utf8") + release.goSum);
  const goMod = readFileSync(join(fixture("go-program"), "go.mod"), "utf8")
    .replace(`${release.path} v0.0.0`, `${release.path} ${release.version}`)
    .replace(/\n(\/\/[^\n]*\n)?replace [^\n]*\n/, "\n");
  writeFileSync(join(dir, "go.mod"), goMod);
  // A copy of the same version left in the module cache by an earlier release would be taken before the proxy's.
  const cache = (await run(go, ["env", "GOMODCACHE"], { env })).stdout.trim();
  for (const stale of [
    join(cache, `${release.path}@${release.version}`),
    join(cache, "cache", "download", release.path),
  ]) {
    if (existsSync(stale)) await run("chmod", ["-R", "u+w", stale]);
    rmSync(stale, { recursive: true, force: true });
  }
  await run(go, ["build", "-o", out, "."], {
    cwd: dir,
    // Go indexes a module-cache folder once per path@version (GOCACHE's modindex) and trusts it after:
    // a folder made again from a newer release of the same version would be read with the old file list.
    env: { ...env, GOPROXY: `file://${release.proxy},https://proxy.golang.org`, GONOSUMDB: "*", GODEBUG: "goindex=0" },
  });
  return out;
}

/** What a program of test/engine/fixtures prints after a run. */
export interface ProgramReport {
  result: string;
  /** A failed preview's words (the program's `preview` prints them instead of failing). */
  error?: string;
  changes: Record<string, number>;
  outputs: Record<string, { secret: boolean; value: unknown }>;
}

export interface LanguageStack {
  /** Runs `<command...> up|preview|destroy` (with `env` added to the stack's) and returns what it printed. */
  run(kind: "up" | "preview" | "destroy", env?: Record<string, string>): Promise<ProgramReport>;
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
  options: {
    project: string;
    stack: string;
    emu: RunningEmulator;
    plugin: InstalledPlugin;
    config?: StackConfig;
    /** Added to the program's environment. */
    env?: Record<string, string>;
  },
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
    // Where a program that takes Pulumi's own variable keeps its state (examples/python).
    PULUMI_BACKEND_URL: `file://${backend}`,
    ALERTPIPE_TEST_CONFIG: JSON.stringify({ ...emulatorConfig(options.emu), ...options.config }),
    ALERTPIPE_TEST_ORGANIZATION: PIPE_IDS.organizationId,
    ALERTPIPE_TEST_SERVICE: PIPE_IDS.serviceId,
    ALERTPIPE_TEST_PIPE: PIPE_IDS.pipeId,
    ...options.env,
  };
  const [program, ...args] = command;
  if (program === undefined) throw new Error("languageStack needs a command");
  return {
    async run(kind, more = {}) {
      const { stdout } = await run(program, [...args, kind], { env: { ...env, ...more }, cwd: backend });
      const last = stdout.trim().split("\n").pop() ?? "";
      return JSON.parse(last) as ProgramReport;
    },
    readStateFile() {
      return readFileSync(join(backend, ".pulumi", "stacks", options.project, `${options.stack}.json`), "utf8");
    },
  };
}
