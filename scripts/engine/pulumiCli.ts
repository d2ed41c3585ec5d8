// Finds or builds the real Pulumi engine for the demo, the end-to-end tests and the bench.
//
// The CLI is the one on PATH when its version is at least the @pulumi/pulumi of our lock file;
// otherwise it is built from the Go module in tools/pulumi-cli (pinned to that version, checked
// against the committed go.sum) into a cache outside the repository, once, and reused after.
// The directory-program language host (tools/pulumi-language-nodejs) is found or built the same
// way; it is only for running `pulumi up` in a folder, never for the main suite (inline programs
// need no language host). So are the Pulumi YAML language host (tools/pulumi-language-yaml), for
// YAML programs run against the native plugin, and our SDK generator (tools/sdkgen), which writes
// the plugin's Node.js, Python and Go SDKs with the code generators of the CLI's own Pulumi version.

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { repoRoot } from "../packedPackage";
import { buildOnce, defaultCacheRoot } from "../cacheFolder";

export interface EngineTool {
  /** Absolute path of the executable. */
  readonly path: string;
  /** Its version, e.g. "v3.248.0". */
  readonly version: string;
  /** Where it came from: the user's PATH, or our cache (built now or earlier). */
  readonly source: "path" | "built" | "cache";
}

type Log = (line: string) => void;

interface GoTool {
  /** Folder of the Go module under tools/. */
  module: string;
  /** The Go package path of the command. */
  pkg: string;
  /** The Go module whose version the command carries (its require line in go.mod). */
  versionModule: string;
  /** The Go variable the build sets to that version (`-X`), for the command to report it. */
  versionVariable?: string;
  /** The executable's name. */
  binary: string;
  /** Whether one on PATH is used instead of our build (a tool of Pulumi's: yes; one of ours: no). */
  takenFromPath: boolean;
  /** Human name for messages. */
  what: string;
  /** How long a build takes on 2 cores with empty Go caches, for the message before it. */
  coldBuild: string;
}

/** Where Pulumi's own commands read their version. */
const PULUMI_VERSION_VARIABLE = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";
/** The module of Pulumi's code generators, which the CLI and the SDK generator must pin alike. */
const PULUMI_PKG_MODULE = "github.com/pulumi/pulumi/pkg/v3";

const CLI: GoTool = {
  module: "pulumi-cli",
  pkg: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
  versionModule: PULUMI_PKG_MODULE,
  versionVariable: PULUMI_VERSION_VARIABLE,
  binary: "pulumi",
  takenFromPath: true,
  what: "the pulumi CLI",
  coldBuild: "about 6 minutes",
};

const LANGUAGE_HOST: GoTool = {
  module: "pulumi-language-nodejs",
  pkg: "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs",
  versionModule: "github.com/pulumi/pulumi/sdk/v3",
  versionVariable: PULUMI_VERSION_VARIABLE,
  binary: "pulumi-language-nodejs",
  takenFromPath: true,
  what: "the Node.js language host for directory programs",
  coldBuild: "about 6 minutes",
};

// v1.38.0, not the v1.37.0 that CLI 3.248 bundles: that one needs a pkg/v3 the module proxy refuses.
// v1.38.0 is built on a newer pkg/v3 (3.254) and runs with CLI 3.248.
const YAML_LANGUAGE_HOST: GoTool = {
  module: "pulumi-language-yaml",
  pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  versionModule: "github.com/pulumi/pulumi-yaml",
  versionVariable: "github.com/pulumi/pulumi-yaml/pkg/version.Version",
  binary: "pulumi-language-yaml",
  takenFromPath: true,
  what: "the Pulumi YAML language host",
  coldBuild: "about 5 minutes",
};

const SDK_GENERATOR: GoTool = {
  module: "sdkgen",
  pkg: "pulumi-alertpipe/tools/sdkgen",
  versionModule: PULUMI_PKG_MODULE,
  binary: "sdkgen",
  takenFromPath: false,
  what: "the SDK generator (tools/sdkgen)",
  coldBuild: "about 4 minutes",
};

/** The @pulumi/pulumi version the lock file installs, as "v3.248.0". */
export function lockedSdkVersion(): string {
  const lock = JSON.parse(readFileSync(join(repoRoot(), "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages["node_modules/@pulumi/pulumi"]?.version;
  if (version === undefined) throw new Error("package-lock.json does not install @pulumi/pulumi");
  return `v${version}`;
}

/** The version a tools/ module requires of a Go module, read from its go.mod. */
export function goModuleVersion(toolModule: string, goModule: string): string {
  const goMod = readFileSync(join(repoRoot(), "tools", toolModule, "go.mod"), "utf8");
  const line = goMod.split("\n").find((l) => l.trim().startsWith(`${goModule} v`));
  const version = line?.trim().split(/\s+/)[1];
  if (version === undefined) throw new Error(`tools/${toolModule}/go.mod does not require ${goModule}`);
  return version;
}

/** "v3.248.0" → [3, 248, 0]; anything after the numbers (pre-release, dirty) is ignored. */
function versionParts(version: string): number[] {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [];
}

export function versionAtLeast(version: string, minimum: string): boolean {
  const a = versionParts(version);
  const b = versionParts(minimum);
  if (a.length === 0 || b.length === 0) return false;
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** Where to look; the defaults are this machine's. Tests point them elsewhere. */
export interface Surroundings {
  /** The PATH searched for an installed tool. */
  path: string;
  /** Go executables to try, first found wins. */
  goCandidates: string[];
  /** The cache of our builds. */
  cacheRoot: string;
}

function surroundings(): Surroundings {
  return {
    path: process.env.PATH ?? "",
    goCandidates: ["go", "/usr/local/go/bin/go"],
    cacheRoot: defaultCacheRoot(),
  };
}

function onPath(binary: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, binary);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function versionOf(executable: string): string | undefined {
  const r = spawnSync(executable, ["version"], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  if (r.error !== undefined || r.status !== 0) return undefined;
  return r.stdout.trim().split("\n").pop()?.trim();
}

function goExecutable(where: Surroundings): string | undefined {
  for (const candidate of where.goCandidates) {
    const found = candidate.includes("/")
      ? existsSync(candidate)
        ? candidate
        : undefined
      : onPath(candidate, where.path);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The cache folder of one build: named by version, go.sum and the module's own Go sources (tools
 * that only pin a command have none, and keep the name they always had), so a changed pin or a
 * changed source builds anew.
 */
function cacheDir(tool: GoTool, version: string, where: Surroundings): string {
  const folder = join(repoRoot(), "tools", tool.module);
  const hash = createHash("sha256").update(readFileSync(join(folder, "go.sum")));
  const sources = readdirSync(folder)
    .filter((name) => name.endsWith(".go"))
    .sort();
  for (const name of sources) hash.update(`\0${name}\0`).update(readFileSync(join(folder, name)));
  return join(where.cacheRoot, `${tool.binary}-${version}-${hash.digest("hex").slice(0, 12)}`);
}

function runGoBuild(go: string, tool: GoTool, version: string, output: string, log: Log): Promise<void> {
  const started = Date.now();
  const args = [
    "build",
    "-trimpath",
    "-tags",
    "osusergo,grpcnotrace",
    "-ldflags",
    tool.versionVariable === undefined ? "-s -w" : `-s -w -X ${tool.versionVariable}=${version}`,
    "-o",
    output,
    tool.pkg,
  ];
  const env = {
    ...process.env,
    CGO_ENABLED: "0",
    GOTOOLCHAIN: "local",
    // The checksum database is not reachable here; the committed go.sum checks every module instead,
    // and -mod=readonly refuses any module it does not list.
    GOSUMDB: "off",
    GOFLAGS: "-mod=readonly -buildvcs=false",
  };
  return new Promise((resolve, reject) => {
    const child = spawn(go, args, {
      cwd: join(repoRoot(), "tools", tool.module),
      env,
      stdio: ["ignore", "inherit", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const ticker = setInterval(
      () => log(`  ... still building ${tool.what} (${Math.round((Date.now() - started) / 1000)} s)`),
      30_000,
    );
    child.on("error", (err) => {
      clearInterval(ticker);
      reject(err);
    });
    child.on("close", (code) => {
      clearInterval(ticker);
      if (code === 0) resolve();
      else reject(new Error(`building ${tool.what} failed (go build exited ${code}):\n${stderr.trim()}`));
    });
  });
}

/** Returns our cached build of a tool, building it first if needed (buildOnce: never half a cache). */
async function cachedBuild(tool: GoTool, version: string, log: Log, where: Surroundings): Promise<EngineTool> {
  const dir = cacheDir(tool, version, where);
  const executable = join(dir, "bin", tool.binary);
  if (existsSync(executable)) return { path: executable, version, source: "cache" };
  const go = goExecutable(where);
  if (go === undefined) {
    const build = `install Go 1.25 or newer so that it is built from tools/${tool.module} (once, into ${where.cacheRoot}).`;
    throw new Error(
      tool.takenFromPath
        ? `${tool.what} ${version} is needed and neither it nor Go was found. Either put ${tool.binary} ${version} or newer on PATH, or ${build}`
        : `${tool.what} ${version} is needed and Go was not found to build it: ${build}`,
    );
  }
  log(
    `Building ${tool.what} ${version} from Go modules into ${dir} (first time only; ${tool.coldBuild} on 2 cores with empty Go caches, seconds with them).`,
  );
  const started = Date.now();
  await buildOnce(dir, join("bin", tool.binary), async (scratch) => {
    mkdirSync(join(scratch, "bin"));
    await runGoBuild(go, tool, version, join(scratch, "bin", tool.binary), log);
  });
  log(`Built ${tool.what} ${version} in ${Math.round((Date.now() - started) / 1000)} s.`);
  return { path: executable, version, source: "built" };
}

/** Pulumi finds the dynamic-provider plugin beside its own executable; on PATH only it warns every run. */
function copyDynamicProviderPlugin(binDir: string): void {
  const script = join(repoRoot(), "node_modules", "@pulumi", "pulumi", "pulumi-resource-pulumi-nodejs");
  placeExecutable(script, join(binDir, "pulumi-resource-pulumi-nodejs"));
}

/** Finds or builds the CLI in the given surroundings; see pulumiCli. */
export async function findOrBuildCli(log: Log, where: Surroundings = surroundings()): Promise<EngineTool> {
  const wanted = lockedSdkVersion();
  const found = onPath(CLI.binary, where.path);
  if (found !== undefined) {
    const version = versionOf(found);
    if (version !== undefined && versionAtLeast(version, wanted)) return { path: found, version, source: "path" };
    log(
      `The pulumi CLI on PATH (${found}, ${version ?? "version unknown"}) is older than ${wanted}; using our own build instead.`,
    );
  }
  const tool = await cachedBuild(CLI, wanted, log, where);
  // Copied on every call, from the installed @pulumi/pulumi: a fresh build gets it, and a cached
  // one keeps it current should that package change.
  copyDynamicProviderPlugin(dirname(tool.path));
  return tool;
}

let cli: Promise<EngineTool> | undefined;

/** A working `pulumi` CLI at least as new as our @pulumi/pulumi: the one on PATH, or ours. */
export function pulumiCli(log: Log = (l) => console.error(l)): Promise<EngineTool> {
  cli ??= findOrBuildCli(log);
  return cli;
}

let languageHost: Promise<EngineTool> | undefined;

/**
 * The Node.js language host that `pulumi up` in a program folder needs: the one on PATH, or ours,
 * built from an older SDK (the current one is not served by the module proxy), placed beside our
 * `pulumi` as the YAML host is (see pulumiYamlLanguageHost), so no run warns "from $PATH".
 */
export function pulumiLanguageHost(log: Log = (l) => console.error(l)): Promise<EngineTool> {
  languageHost ??= (async () => {
    const where = surroundings();
    const found = onPath(LANGUAGE_HOST.binary, where.path);
    if (found !== undefined) return { path: found, version: "on PATH", source: "path" as const };
    const version = goModuleVersion(LANGUAGE_HOST.module, LANGUAGE_HOST.versionModule);
    return besideCli(LANGUAGE_HOST, await cachedBuild(LANGUAGE_HOST, version, log, where), log);
  })();
  return languageHost;
}

/**
 * Finds or builds the Pulumi YAML language host in the given surroundings: the one on PATH, or our
 * build of tools/pulumi-language-yaml. The engine runs YAML programs with the `pulumi-language-yaml`
 * it finds on PATH, so a caller puts `dirname(path)` first on the PATH it gives the CLI.
 */
export async function findOrBuildYamlLanguageHost(log: Log, where: Surroundings = surroundings()): Promise<EngineTool> {
  const found = onPath(YAML_LANGUAGE_HOST.binary, where.path);
  if (found !== undefined) return { path: found, version: "on PATH", source: "path" };
  return cachedBuild(
    YAML_LANGUAGE_HOST,
    goModuleVersion(YAML_LANGUAGE_HOST.module, YAML_LANGUAGE_HOST.versionModule),
    log,
    where,
  );
}

/**
 * Puts `source` at `target` (a hard link, or a copy across file systems), replacing what was there in one
 * rename: test workers share the bin folder, and exec'ing a file while another writes it fails (ETXTBSY).
 */
export function placeExecutable(source: string, target: string): void {
  if (existsSync(target) && statSync(target).ino === statSync(source).ino) return;
  const scratch = `${target}.placing-${process.pid}`;
  rmSync(scratch, { force: true });
  try {
    linkSync(source, scratch);
  } catch {
    copyFileSync(source, scratch);
    chmodSync(scratch, 0o755);
  }
  renameSync(scratch, target);
}

let yamlLanguageHost: Promise<EngineTool> | undefined;

/**
 * The Pulumi YAML language host, once per process; see findOrBuildYamlLanguageHost. When both it and
 * the CLI are our builds, the path returned is beside our `pulumi`: the engine looks for its bundled
 * language hosts there, and a host it finds on PATH anywhere else makes every run warn "using
 * pulumi-language-yaml from $PATH". Putting `dirname(path)` first on PATH works either way.
 */
export function pulumiYamlLanguageHost(log: Log = (l) => console.error(l)): Promise<EngineTool> {
  yamlLanguageHost ??= (async () => besideCli(YAML_LANGUAGE_HOST, await findOrBuildYamlLanguageHost(log), log))();
  return yamlLanguageHost;
}

/**
 * A language host of our build, placed beside our `pulumi`, where the engine looks for the hosts it
 * bundles: with that folder on PATH the host found there and beside the CLI are one file, and the
 * engine says nothing. One taken from PATH, or a CLI taken from PATH, is left where it is.
 */
async function besideCli(tool: GoTool, host: EngineTool, log: Log): Promise<EngineTool> {
  const cli = await pulumiCli(log);
  if (host.source === "path" || cli.source === "path") return host;
  const beside = join(dirname(cli.path), tool.binary);
  placeExecutable(host.path, beside);
  return { ...host, path: beside };
}

/**
 * Finds or builds our SDK generator in the given surroundings (never taken from PATH: it is ours).
 * Its Pulumi code generators must be those of the CLI we run, so the two pins are checked alike
 * before anything is built. Run it as `<path> <schema.json> <outdir>`; scripts/sdk.ts does.
 */
export async function findOrBuildSdkGenerator(log: Log, where: Surroundings = surroundings()): Promise<EngineTool> {
  const version = goModuleVersion(SDK_GENERATOR.module, SDK_GENERATOR.versionModule);
  const cliVersion = goModuleVersion(CLI.module, CLI.versionModule);
  if (version !== cliVersion) {
    throw new Error(
      `tools/${SDK_GENERATOR.module} pins ${SDK_GENERATOR.versionModule} ${version} but tools/${CLI.module} pins ${cliVersion}; ` +
        `the SDKs must come from the code generators of the CLI's own version, so pin both alike.`,
    );
  }
  return cachedBuild(SDK_GENERATOR, version, log, where);
}

let sdkGeneratorBuild: Promise<EngineTool> | undefined;

/** Our SDK generator, once per process; see findOrBuildSdkGenerator. */
export function sdkGenerator(log: Log = (l) => console.error(l)): Promise<EngineTool> {
  sdkGeneratorBuild ??= findOrBuildSdkGenerator(log);
  return sdkGeneratorBuild;
}

const TOOLS: Record<string, (log?: Log) => Promise<EngineTool>> = {
  "--cli": pulumiCli,
  "--language-host": pulumiLanguageHost,
  "--yaml-language-host": pulumiYamlLanguageHost,
  "--sdkgen": sdkGenerator,
};

/**
 * `node dist/scripts/engine/pulumiCli.js [--cli] [--language-host] [--yaml-language-host] [--sdkgen]`:
 * find or build each tool named, one after the other (two builds at once only fight over the cores
 * and the Go caches), then print its path. With no flag (`npm run engine`): the CLI, the YAML
 * language host and the SDK generator, the tools the tests need, so a CI cache of our builds holds them all.
 */
if (require.main === module) {
  const named = process.argv.slice(2);
  const unknown = named.filter((flag) => TOOLS[flag] === undefined);
  if (unknown.length > 0) {
    console.error(`unknown option ${unknown.join(", ")}; known: ${Object.keys(TOOLS).join(", ")}`);
    process.exit(2);
  }
  const which = named.length > 0 ? named : ["--cli", "--yaml-language-host", "--sdkgen"];
  (async () => {
    for (const flag of which) {
      const tool = await TOOLS[flag]!();
      console.log(`${tool.path} (${tool.version}, ${tool.source === "path" ? "from PATH" : "our build"})`);
    }
  })().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
