// The self-contained plugin archive, for teams with no Node project to install the package into
// (YAML, Python, Go): `pulumi-resource-alertpipe-v<version>-<os>-<arch>.tar.gz`, the name Pulumi
// gives plugin archives, which `pulumi plugin install resource alertpipe <version> --file <archive>`
// accepts. It holds:
// - `pulumi-resource-alertpipe`, the executable the engine starts: a node-shebang launcher that
//   loads the bundle beside it, so only `node` on PATH is needed;
// - `pulumi-resource-alertpipe.js`, the plugin (provider/native/main.ts) and every module it loads,
//   @pulumi/pulumi's protocol stubs, @grpc/grpc-js, google-protobuf, undici and zod included, in ONE
//   file made by esbuild;
// - `alertpipe` and `alertpipe.js`, the same for the `alertpipe` command (`alertpipe export`,
//   provider/export/main.ts), so a team without Node packages has it with the plugin;
// - `alertpipe-emulator` and `alertpipe-emulator.js`, the same for the emulator (emulator/cli.ts), so
//   every language has it: outside an npm project `npx alertpipe-emulator` asks the registry instead;
// - `LICENSE` (ours) and `THIRD-PARTY-NOTICES` (the licenses of what the bundles hold).
//
// `npm run plugin:pack [-- <outdir> [<os> <arch>]]` writes it to dist/plugin/ by default, for this
// machine's os and arch. The JavaScript is the same on every Unix; the name tells Pulumi where it is for.

import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { repoRoot } from "./packedPackage";

export const PLUGIN_EXECUTABLE = "pulumi-resource-alertpipe";
const BUNDLE = `${PLUGIN_EXECUTABLE}.js`;
/** The `alertpipe` command (`alertpipe export`), the archive's second executable. */
export const COMMAND_EXECUTABLE = "alertpipe";
/** The emulator (`alertpipe-emulator`), the archive's third executable. */
export const EMULATOR_EXECUTABLE = "alertpipe-emulator";

/** The executables the archive holds: each a launcher beside its one bundled file, and the entry the bundle is made from. */
const EXECUTABLES = [
  { name: PLUGIN_EXECUTABLE, entry: ["provider", "native", "main.ts"], what: "The alertpipe native provider plugin" },
  {
    name: COMMAND_EXECUTABLE,
    entry: ["provider", "export", "main.ts"],
    what: "The alertpipe command (alertpipe export)",
  },
  { name: EMULATOR_EXECUTABLE, entry: ["emulator", "cli.ts"], what: "The alertpipe emulator of both services" },
] as const;

/** A launcher: Node resolves `./…` from the launcher's real path, so a symlink to it works too. */
function launcher(name: string, what: string): string {
  return `#!/usr/bin/env node\n// ${what}; its code is the one bundled file beside this one.\nrequire("./${name}.js");\n`;
}

export interface PluginArchive {
  /** Absolute path of the .tar.gz. */
  readonly path: string;
  readonly version: string;
  /** Size of the archive and of the bundle, in bytes. */
  readonly bytes: number;
  readonly bundleBytes: number;
}

export interface Platform {
  /** As Pulumi names it: linux, darwin. */
  readonly os: string;
  /** As Pulumi names it: amd64, arm64. */
  readonly arch: string;
}

/** This machine, in Pulumi's words. */
export function thisPlatform(): Platform {
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch] ?? process.arch;
  return { os: process.platform, arch };
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(repoRoot(), "package.json"), "utf8")) as { version: string }).version;
}

export function archiveName(version: string, platform: Platform): string {
  return `${PLUGIN_EXECUTABLE}-v${version}-${platform.os}-${platform.arch}.tar.gz`;
}

/**
 * provider/native/protocol.ts requires the gRPC runtime and the stubs from where @pulumi/pulumi
 * sits (`fromPulumi`, a createRequire), which a bundler cannot follow. This resolves each of those
 * requires now, exactly as it would run, and hands esbuild a plain `require` of the file found,
 * so the bundle holds the copies @pulumi/pulumi uses. A protocol.ts of another shape fails the build.
 */
function protocolRequiresResolved(): Plugin {
  return {
    name: "alertpipe-protocol-requires",
    setup(b) {
      b.onLoad({ filter: /provider[\\/]native[\\/]protocol\.ts$/ }, (args) => {
        const source = readFileSync(args.path, "utf8");
        const definition = /const fromPulumi = createRequire\(require\.resolve\("([^"]+)"\)\);\n/.exec(source);
        if (definition?.[1] === undefined)
          throw new Error(`${args.path} no longer defines fromPulumi as the archive's bundler expects`);
        const fromPulumi = createRequire(require.resolve(definition[1], { paths: [repoRoot()] }));
        const contents = source
          .replace(definition[0], "")
          .replace(
            /fromPulumi\("([^"]+)"\)/g,
            (_call, spec: string) => `require(${JSON.stringify(fromPulumi.resolve(spec))})`,
          );
        if (contents.includes("fromPulumi"))
          throw new Error(`${args.path} uses fromPulumi in a way the archive's bundler does not resolve`);
        return { contents, loader: "ts" };
      });
    },
  };
}

/** The licence files of each package the bundle took modules from, with our own LICENSE left out. */
function thirdPartyNotices(inputs: readonly string[]): string {
  const packages = new Set<string>();
  for (const input of inputs) {
    const m = /^(.*node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(input);
    if (m?.[1] !== undefined) packages.add(resolve(repoRoot(), m[1]));
  }
  const sections: string[] = [];
  for (const dir of [...packages].sort()) {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    const text =
      licenceFile === undefined
        ? `License: ${pkg.license ?? "see the package"}`
        : readFileSync(join(dir, licenceFile), "utf8").trim();
    sections.push(`${pkg.name}@${pkg.version}\n${"-".repeat(pkg.name.length + pkg.version.length + 1)}\n${text}`);
  }
  return `The bundled ${EXECUTABLES.map((e) => `${e.name}.js`).join(", ")} hold code of these packages, under these licenses.\n\n${sections.join("\n\n")}\n`;
}

/** Bundles the plugin and packs it; the archive goes to `outDir`, replacing one of the same name. */
export async function buildPluginArchive(outDir: string, platform: Platform = thisPlatform()): Promise<PluginArchive> {
  const version = packageVersion();
  const staging = mkdtempSync(join(tmpdir(), "alertpipe-plugin-archive-"));
  try {
    const inputs = new Set<string>();
    for (const executable of EXECUTABLES) {
      for (const input of await bundle(
        join(repoRoot(), ...executable.entry),
        join(staging, `${executable.name}.js`),
        version,
      ))
        inputs.add(input);
      writeFileSync(join(staging, executable.name), launcher(executable.name, executable.what));
      chmodSync(join(staging, executable.name), 0o755);
    }
    writeFileSync(join(staging, "LICENSE"), readFileSync(join(repoRoot(), "LICENSE")));
    writeFileSync(join(staging, "THIRD-PARTY-NOTICES"), thirdPartyNotices([...inputs]));

    mkdirSync(outDir, { recursive: true });
    const archive = resolve(outDir, archiveName(version, platform));
    rmSync(archive, { force: true });
    const files = [...EXECUTABLES.flatMap((e) => [e.name, `${e.name}.js`]), "LICENSE", "THIRD-PARTY-NOTICES"];
    const tar = spawnSync("tar", ["-czf", archive, "-C", staging, ...files], { encoding: "utf8" });
    if (tar.status !== 0 || !existsSync(archive))
      throw new Error(`tar failed: ${tar.stderr || tar.error?.message || `exit ${tar.status}`}`);
    return { path: archive, version, bytes: statSync(archive).size, bundleBytes: statSync(join(staging, BUNDLE)).size };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** One entry and every module it loads in one file made by esbuild; answers the files it took in, for the notices. */
async function bundle(entry: string, outfile: string, version: string): Promise<string[]> {
  const result = await build({
    absWorkingDir: repoRoot(),
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    // Error classes keep their names: a user's message names the kind.
    keepNames: true,
    legalComments: "none",
    metafile: true,
    logLevel: "error",
    define: { __ALERTPIPE_VERSION__: JSON.stringify(version) },
    plugins: [protocolRequiresResolved()],
  });
  return Object.keys(result.metafile.inputs);
}

if (require.main === module) {
  const [outDir = join(repoRoot(), "dist", "plugin"), os, arch, ...rest] = process.argv.slice(2);
  if ((os === undefined) !== (arch === undefined) || rest.length > 0) {
    console.error("usage: node dist/scripts/pluginArchive.js [<outdir> [<os> <arch>]]");
    process.exit(2);
  }
  buildPluginArchive(outDir, os !== undefined && arch !== undefined ? { os, arch } : thisPlatform())
    .then((a) =>
      console.log(`${a.path} (${Math.round(a.bytes / 1024)} KiB; bundle ${Math.round(a.bundleBytes / 1024)} KiB)`),
    )
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    });
}
