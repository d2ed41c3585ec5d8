// Finds or builds the real Pulumi engine for the demo, the end-to-end tests and the bench.
//
// The CLI is the one on PATH when its version is at least the @pulumi/pulumi of our lock file;
// otherwise it is built from the Go module in tools/pulumi-cli (pinned to that version, checked
// against the committed go.sum) into a cache outside the repository, once, and reused after.
// The directory-program language host (tools/pulumi-language-nodejs) is found or built the same
// way; it is only for running `pulumi up` in a folder, never for the main suite (inline programs
// need no language host).

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { repoRoot } from "../packedPackage";

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
  /** The executable's name. */
  binary: string;
  /** Human name for messages. */
  what: string;
}

const CLI: GoTool = {
  module: "pulumi-cli",
  pkg: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
  versionModule: "github.com/pulumi/pulumi/pkg/v3",
  binary: "pulumi",
  what: "the pulumi CLI",
};

const LANGUAGE_HOST: GoTool = {
  module: "pulumi-language-nodejs",
  pkg: "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs",
  versionModule: "github.com/pulumi/pulumi/sdk/v3",
  binary: "pulumi-language-nodejs",
  what: "the Node.js language host for directory programs",
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
    cacheRoot: join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-alertpipe"),
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
  const r = spawnSync(executable, ["version"], { encoding: "utf8", timeout: 30_000, env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
  if (r.error !== undefined || r.status !== 0) return undefined;
  return r.stdout.trim().split("\n").pop()?.trim();
}

function goExecutable(where: Surroundings): string | undefined {
  for (const candidate of where.goCandidates) {
    const found = candidate.includes("/") ? (existsSync(candidate) ? candidate : undefined) : onPath(candidate, where.path);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The cache folder of one build: named by version and go.sum, so a changed pin builds anew. */
function cacheDir(tool: GoTool, version: string, where: Surroundings): string {
  const goSum = readFileSync(join(repoRoot(), "tools", tool.module, "go.sum"));
  const digest = createHash("sha256").update(goSum).digest("hex").slice(0, 12);
  return join(where.cacheRoot, `${tool.binary}-${version}-${digest}`);
}

function runGoBuild(go: string, tool: GoTool, version: string, output: string, log: Log): Promise<void> {
  const started = Date.now();
  const args = [
    "build",
    "-trimpath",
    "-tags",
    "osusergo,grpcnotrace",
    "-ldflags",
    `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${version}`,
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
    const child = spawn(go, args, { cwd: join(repoRoot(), "tools", tool.module), env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const ticker = setInterval(() => log(`  ... still building ${tool.what} (${Math.round((Date.now() - started) / 1000)} s)`), 30_000);
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

/**
 * Returns our cached build of a tool, building it first if needed. The build goes to a scratch
 * folder renamed into place, so an interrupted or concurrent build never leaves half a cache.
 */
async function cachedBuild(tool: GoTool, version: string, log: Log, where: Surroundings): Promise<EngineTool> {
  const dir = cacheDir(tool, version, where);
  const executable = join(dir, "bin", tool.binary);
  if (existsSync(executable)) return { path: executable, version, source: "cache" };
  const go = goExecutable(where);
  if (go === undefined) {
    throw new Error(
      `${tool.what} ${version} is needed and neither it nor Go was found. Either put ${tool.binary} ${version} or newer on PATH, ` +
        `or install Go 1.25 or newer so that it is built from tools/${tool.module} (once, into ${where.cacheRoot}).`,
    );
  }
  log(`Building ${tool.what} ${version} from Go modules into ${dir} (first time only; about 6 minutes on 2 cores with empty Go caches, seconds with them).`);
  const scratch = `${dir}.building-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(join(scratch, "bin"), { recursive: true });
  const started = Date.now();
  try {
    await runGoBuild(go, tool, version, join(scratch, "bin", tool.binary), log);
    if (existsSync(executable)) {
      rmSync(scratch, { recursive: true, force: true });
    } else {
      rmSync(dir, { recursive: true, force: true });
      renameSync(scratch, dir);
    }
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  log(`Built ${tool.what} ${version} in ${Math.round((Date.now() - started) / 1000)} s.`);
  return { path: executable, version, source: "built" };
}

/** Pulumi finds the dynamic-provider plugin beside its own executable; on PATH only it warns every run. */
function copyDynamicProviderPlugin(binDir: string): void {
  const script = join(repoRoot(), "node_modules", "@pulumi", "pulumi", "pulumi-resource-pulumi-nodejs");
  const target = join(binDir, "pulumi-resource-pulumi-nodejs");
  copyFileSync(script, target);
  chmodSync(target, 0o755);
}

/** Finds or builds the CLI in the given surroundings; see pulumiCli. */
export async function findOrBuildCli(log: Log, where: Surroundings = surroundings()): Promise<EngineTool> {
  const wanted = lockedSdkVersion();
  const found = onPath(CLI.binary, where.path);
  if (found !== undefined) {
    const version = versionOf(found);
    if (version !== undefined && versionAtLeast(version, wanted)) return { path: found, version, source: "path" };
    log(`The pulumi CLI on PATH (${found}, ${version ?? "version unknown"}) is older than ${wanted}; using our own build instead.`);
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
 * built from an older SDK (the current one is not served by the module proxy).
 */
export function pulumiLanguageHost(log: Log = (l) => console.error(l)): Promise<EngineTool> {
  languageHost ??= (async () => {
    const where = surroundings();
    const found = onPath(LANGUAGE_HOST.binary, where.path);
    if (found !== undefined) return { path: found, version: "on PATH", source: "path" as const };
    return cachedBuild(LANGUAGE_HOST, goModuleVersion(LANGUAGE_HOST.module, LANGUAGE_HOST.versionModule), log, where);
  })();
  return languageHost;
}

/** `node dist/scripts/engine/pulumiCli.js [--language-host]`: find or build, then print the path. */
if (require.main === module) {
  const which = process.argv.includes("--language-host") ? pulumiLanguageHost : pulumiCli;
  which()
    .then((tool) => console.log(`${tool.path} (${tool.version}, ${tool.source === "path" ? "from PATH" : "our build"})`))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    });
}
