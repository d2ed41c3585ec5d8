// Installs this package into a program folder the way a user gets it: `npm pack`, then unpacked
// into <program>/node_modules/pulumi-alertpipe. Pulumi's serializer then sees our shim as a module
// under node_modules, and the provider host resolves it by package name, exactly as after
// `npm install pulumi-alertpipe`. Dependencies resolve from this repository's node_modules, above
// the program folder.

import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The repository root: the folder holding our package.json (two levels above dist/scripts or scripts). */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = resolve(dir, "..")) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-alertpipe")
      return dir;
    if (resolve(dir, "..") === dir) throw new Error(`cannot find the pulumi-alertpipe package root above ${__dirname}`);
  }
}

/**
 * Gives a program folder a package.json of its own. Inside the repository, the nearest package.json
 * of a file would otherwise be ours, whose `exports` make `require("pulumi-alertpipe")` resolve to
 * the repository's own dist/ (a package may require itself by name) instead of the packed copy
 * installed for the program.
 */
function ownPackageScope(dir: string): void {
  const pkg = join(dir, "package.json");
  if (!existsSync(pkg)) writeFileSync(pkg, `${JSON.stringify({ private: true })}\n`);
}

/** Work folder for throw-away programs, inside the repository so dependencies resolve. Gitignored. */
export function workDir(...parts: string[]): string {
  const base = join(repoRoot(), ".alertpipe");
  const dir = join(base, ...parts);
  mkdirSync(dir, { recursive: true });
  ownPackageScope(base);
  return dir;
}

function unique(): string {
  return `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Scripts npm runs when it installs a package: the repository keeps them, the packed manifest does not. */
export const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"] as const;

/** The manifest as packed: without install-time scripts (`prepare` sets a contributor's git hooks). */
export function packedManifest(manifest: Record<string, unknown>): Record<string, unknown> {
  const scripts = { ...(manifest.scripts as Record<string, string> | undefined) };
  for (const name of INSTALL_SCRIPTS) delete scripts[name];
  return { ...manifest, scripts };
}

/**
 * Packs the package (from the current dist/, which must be built) and returns the tarball's path.
 * The files `npm pack` would take are staged with the packed manifest and packed from there, so the
 * repository's package.json is never touched. Safe to call from parallel processes: each packs into
 * its own folder.
 */
export function packPackage(): string {
  const root = repoRoot();
  if (!existsSync(join(root, "dist", "provider", "index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` before packing");
  }
  const npmPack = (cwd: string, ...args: string[]) =>
    JSON.parse(
      execFileSync("npm", ["pack", "--ignore-scripts", "--json", ...args], {
        cwd,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const staging = workDir("pack", unique());
  const contents = join(staging, "package");
  const [listed] = npmPack(root, "--dry-run");
  if (!listed) throw new Error("npm pack reported no files");
  for (const { path } of listed.files) {
    mkdirSync(dirname(join(contents, path)), { recursive: true });
    copyFileSync(join(root, path), join(contents, path));
  }
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(contents, "package.json"), `${JSON.stringify(packedManifest(manifest), null, 2)}\n`);
  const [info] = npmPack(contents, "--pack-destination", staging);
  if (!info) throw new Error("npm pack reported no tarball");
  rmSync(contents, { recursive: true, force: true });
  return join(staging, info.filename);
}

/** Unpacks the tarball into <programDir>/node_modules/pulumi-alertpipe, replacing what was there. */
export function installPacked(programDir: string, tarball: string = packPackage()): string {
  const digest = createHash("sha256").update(readFileSync(tarball)).digest("hex");
  ownPackageScope(programDir);
  const target = join(programDir, "node_modules", "pulumi-alertpipe");
  const stamp = join(target, ".packed-sha256");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return target;
  const staging = join(programDir, "node_modules", `.pulumi-alertpipe-${unique()}`);
  mkdirSync(staging, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", staging, "--strip-components=1"]);
  writeFileSync(join(staging, ".packed-sha256"), digest);
  rmSync(target, { recursive: true, force: true });
  try {
    renameSync(staging, target);
  } catch (err) {
    // Another process installed the same tarball first; theirs is as good as ours.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(stamp)) throw err;
  }
  return target;
}

/** Runs a command to its end; rejects with the tail of its output when it fails. */
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

/** A fresh venv at `venv`, made by `python`, with `packages` pip-installed; gives the venv's python. */
export async function venvWith(python: string, venv: string, packages: readonly string[]): Promise<string> {
  await run(python, ["-m", "venv", venv]);
  const venvPython = join(venv, "bin", "python");
  await run(venvPython, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...packages]);
  return venvPython;
}
