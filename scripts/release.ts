// `npm run release [-- <outdir>]`: every artifact of a release, from the built tree and the committed
// sdk/, into one folder (dist/release/<version>/ by default, emptied first) with SHA256SUMS:
// - pulumi-alertpipe-<version>.tgz, the npm package (the dynamic classes, the plugin's bin, the emulator);
// - alertpipe-pulumi-<version>.tgz, the Node.js SDK @alertpipe/pulumi, compiled, so `npm install` of it is enough;
// - pulumi_alertpipe-<version>.tar.gz and pulumi_alertpipe-<version>-py3-none-any.whl, the Python SDK,
//   built by PyPI's `build` in a venv of its own;
// - goproxy/, the Go SDK as a module proxy serves the tag sdk/go/v<version> (GOPROXY=file://<outdir>/goproxy);
// - pulumi-resource-alertpipe-v<version>-<os>-<arch>.tar.gz for linux and darwin, amd64 and arm64.
// Needs python3 (with venv) besides Node; nothing is published.

import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { writeGoModule, type GoModule } from "./goModule";
import { packPackage, repoRoot, run, venvWith } from "./packedPackage";
import { buildPluginArchive, packageVersion, type PluginArchive, type Platform } from "./pluginArchive";
import { sdkDir } from "./sdk";

/** The platforms a plugin archive is made for; the bundle is JavaScript, the same for each. */
export const RELEASE_PLATFORMS: readonly Platform[] = [
  { os: "linux", arch: "amd64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "amd64" },
  { os: "darwin", arch: "arm64" },
];

export interface Release {
  readonly dir: string;
  readonly version: string;
  /** Each artifact's path (absolute), by what it is. */
  readonly npmPackage: string;
  readonly nodeSdk: string;
  readonly pythonSdist: string;
  readonly pythonWheel: string;
  readonly goModule: GoModule;
  readonly pluginArchives: ReadonlyMap<string, PluginArchive>;
  /** Milliseconds each step took. */
  readonly timings: Readonly<Record<string, number>>;
}

/** Runs a command to its end and gives its stdout. */
async function exec(command: string, args: readonly string[], cwd?: string): Promise<string> {
  return (await run(command, args, cwd === undefined ? {} : { cwd })).stdout;
}

/** The package as `npm pack` makes it from the current dist/. */
function npmPackage(out: string): string {
  const packed = packPackage();
  const target = join(out, relative(join(packed, ".."), packed));
  fs.copyFileSync(packed, target);
  fs.rmSync(join(packed, ".."), { recursive: true, force: true });
  return target;
}

/**
 * The Node.js SDK compiled as Pulumi's providers publish theirs: tsc into bin/, then package.json,
 * README and LICENSE beside the JavaScript (the SDK reads its version from that package.json), packed from bin/.
 */
async function nodeSdk(out: string, work: string): Promise<string> {
  const dir = join(work, "nodejs");
  fs.cpSync(join(sdkDir(), "nodejs"), dir, { recursive: true });
  // Compiled against our @pulumi/pulumi and TypeScript: nothing is fetched.
  fs.symlinkSync(join(repoRoot(), "node_modules"), join(dir, "node_modules"));
  await exec(process.execPath, [join(repoRoot(), "node_modules", "typescript", "bin", "tsc"), "-p", dir]);
  const bin = join(dir, "bin");
  for (const file of ["package.json", "README.md"]) fs.copyFileSync(join(dir, file), join(bin, file));
  fs.copyFileSync(join(repoRoot(), "LICENSE"), join(bin, "LICENSE"));
  const packed = JSON.parse(
    await exec("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], bin),
  ) as [{ filename: string }];
  return join(out, packed[0].filename);
}

/** The Python SDK's sdist and wheel, by PyPI's `build` in a venv of its own, from a copy with README and LICENSE. */
async function pythonSdk(out: string, work: string): Promise<{ sdist: string; wheel: string }> {
  const dir = join(work, "python");
  fs.cpSync(join(sdkDir(), "python"), dir, { recursive: true });
  // pyproject.toml names README.md beside it; the generator writes it into the package folder only.
  fs.copyFileSync(join(dir, "pulumi_alertpipe", "README.md"), join(dir, "README.md"));
  fs.copyFileSync(join(repoRoot(), "LICENSE"), join(dir, "LICENSE"));
  const python = await venvWith("python3", join(work, "venv"), ["build", "setuptools>=61", "wheel"]);
  // No isolation: the venv already holds the backend, so no second venv is made and filled.
  await exec(python, ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", out, dir]);
  const version = packageVersion();
  return {
    sdist: join(out, `pulumi_alertpipe-${version}.tar.gz`),
    wheel: join(out, `pulumi_alertpipe-${version}-py3-none-any.whl`),
  };
}

/** The release commit's time, for the Go module's .info; now, outside a git checkout. */
async function commitTime(): Promise<Date> {
  try {
    return new Date((await exec("git", ["log", "-1", "--format=%cI"], repoRoot())).trim());
  } catch {
    return new Date();
  }
}

/** Every file under `dir`, relative, sorted. */
export function filesUnder(dir: string, top: string = dir): string[] {
  return fs
    .readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return fs.statSync(path).isDirectory() ? filesUnder(path, top) : [relative(top, path)];
    })
    .sort();
}

/** SHA256SUMS, as `sha256sum` writes it and `sha256sum -c` reads it. */
function writeChecksums(dir: string): void {
  const lines = filesUnder(dir)
    .filter((f) => f !== "SHA256SUMS")
    .map(
      (f) =>
        `${createHash("sha256")
          .update(fs.readFileSync(join(dir, f)))
          .digest("hex")}  ${f}\n`,
    );
  fs.writeFileSync(join(dir, "SHA256SUMS"), lines.join(""));
}

/** Makes every artifact into `dir`, which is emptied first. Needs dist/ built. */
export async function buildRelease(dir: string, log: (line: string) => void = () => undefined): Promise<Release> {
  const version = packageVersion();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const work = fs.mkdtempSync(join(tmpdir(), "alertpipe-release-"));
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, make: () => Promise<T> | T): Promise<T> => {
    const t0 = Date.now();
    const made = await make();
    timings[step] = Date.now() - t0;
    log(`${step}: ${timings[step]} ms`);
    return made;
  };
  const others = async (): Promise<Omit<Release, "dir" | "version" | "pythonSdist" | "pythonWheel" | "timings">> => {
    const npm = await timed("npm package", () => npmPackage(dir));
    const node = await timed("node sdk", () => nodeSdk(dir, work));
    const time = await commitTime();
    const go = await timed("go module", () =>
      writeGoModule({
        moduleDir: join(sdkDir(), "go"),
        version,
        proxy: join(dir, "goproxy"),
        license: join(repoRoot(), "LICENSE"),
        time,
      }),
    );
    const archives = new Map<string, PluginArchive>();
    await timed("plugin archives", async () => {
      for (const platform of RELEASE_PLATFORMS)
        archives.set(`${platform.os}-${platform.arch}`, await buildPluginArchive(dir, platform));
    });
    return { npmPackage: npm, nodeSdk: node, goModule: go, pluginArchives: archives };
  };
  try {
    // The Python build waits on pip and the network; the rest runs meanwhile.
    const [python, rest] = await Promise.allSettled([timed("python sdk", () => pythonSdk(dir, work)), others()]);
    if (python.status === "rejected") throw python.reason;
    if (rest.status === "rejected") throw rest.reason;
    writeChecksums(dir);
    return { dir, version, pythonSdist: python.value.sdist, pythonWheel: python.value.wheel, ...rest.value, timings };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [outDir, ...rest] = process.argv.slice(2);
  if (rest.length > 0) {
    console.error("usage: node dist/scripts/release.js [<outdir>]   (default dist/release/<version>)");
    process.exit(2);
  }
  const dir = resolve(outDir ?? join(repoRoot(), "dist", "release", packageVersion()));
  const t0 = Date.now();
  buildRelease(dir, (line) => console.log(line))
    .then(() => {
      for (const f of filesUnder(dir)) console.log(`${f}  ${Math.round(fs.statSync(join(dir, f)).size / 1024)} KiB`);
      console.log(`release ${packageVersion()} in ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    });
}
