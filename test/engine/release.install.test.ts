// A release (`npm run release`, made here into a temporary folder) installed the way each artifact's
// users install it, in fresh folders with nothing of this repository on PATH: the README's `npm install`
// line and the Node SDK's tarball, `pip install` of the wheel in a venv, a `go build` of a program requiring the Go module at
// its tag from the release's proxy folder, `pulumi plugin install --file` of this machine's archive.
// Each then runs one small program through the engine against the bundled emulator (the Automation API
// with an inline program: the fixtures of native.languages.test.ts, and a JavaScript one for Node).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { buildRelease, RELEASE_PLATFORMS, type Release } from "../../scripts/release";
import { lockedSdkVersion } from "../../scripts/engine/pulumiCli";
import { packageVersion, thisPlatform } from "../../scripts/pluginArchive";
import { emulator } from "../support/engine";
import { readmeCommands } from "../support/readmeBlocks";
import { PIPE_RESOURCE_ID } from "../support/fixtures";
import {
  builtGoProgram,
  fixture,
  installedPluginArchive,
  languageStack,
  pythonWithSdk,
  run,
  scratch,
  type InstalledPlugin,
} from "../support/languagePrograms";

const version = packageVersion();
const t0 = Date.now();
let release: Release;
let plugin: InstalledPlugin;
let emu: RunningEmulator;
const commands: Partial<Record<"node" | "python" | "go" | "npmInstall", string[]>> = {};

/**
 * The README's `npm install` line, its release folder mapped onto the one made here. Its bare
 * `@pulumi/pulumi` is pinned to the SDK these tests run, the version the install page says goes with it.
 */
function readmeNpmInstall(): string[] {
  const line = readmeCommands("Install").find((l) => l.startsWith("npm install "));
  expect(line, "README's Install block has no `npm install` line").toBeDefined();
  const releaseDir = `/path/to/pulumi-alertpipe/dist/release/${version}/`;
  return (line ?? "")
    .split(/\s+/)
    .slice(2)
    .map((arg) =>
      arg.startsWith(releaseDir)
        ? join(release.dir, arg.slice(releaseDir.length))
        : arg === "@pulumi/pulumi"
          ? `@pulumi/pulumi@${lockedSdkVersion().slice(1)}`
          : arg,
    );
}

/** A fresh folder outside the repository, set up by the README's install line and the Node SDK's tarball. */
async function nodeProject(): Promise<string> {
  const dir = scratch("npm-user");
  const program = join(dir, "inline_program.js");
  await run("cp", [join(fixture("node-program"), "inline_program.js"), program]);
  await run("npm", ["init", "-y"], { cwd: dir });
  commands.npmInstall = readmeNpmInstall();
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", ...commands.npmInstall, release.nodeSdk],
    { cwd: dir },
  );
  return program;
}

beforeAll(async () => {
  release = await buildRelease(scratch("release"));
  console.log(`release made in ${Date.now() - t0} ms: ${JSON.stringify(release.timings)}`);
  const t1 = Date.now();
  const archive = release.pluginArchives.get(`${thisPlatform().os}-${thisPlatform().arch}`);
  const [installed, node, python, go] = await Promise.all([
    installedPluginArchive(archive),
    nodeProject(),
    pythonWithSdk(release.pythonWheel),
    builtGoProgram(release.goModule),
  ]);
  plugin = installed;
  commands.node = [process.execPath, node];
  commands.python = [python, join(fixture("python-program"), "inline_program.py")];
  commands.go = [go];
  console.log(`artifacts installed in ${Date.now() - t1} ms`);
  emu = await emulator({ rateLimits: { cloud: false, alerting: false } });
}, 900_000);

afterAll(() => console.log(`release install test: ${Date.now() - t0} ms`));

describe("the release folder", () => {
  it("holds every artifact, each in SHA256SUMS and matching it", async () => {
    const { stdout } = await run("sha256sum", ["-c", "SHA256SUMS"], { cwd: release.dir });
    const checked = stdout
      .trim()
      .split("\n")
      .map((l) => l.replace(/: OK$/, ""));
    const goProxy = `goproxy/${release.goModule.path}/@v`;
    expect(checked.sort()).toEqual(
      [
        `pulumi-alertpipe-${version}.tgz`,
        `alertpipe-pulumi-${version}.tgz`,
        `pulumi_alertpipe-${version}.tar.gz`,
        `pulumi_alertpipe-${version}-py3-none-any.whl`,
        `${goProxy}/list`,
        `${goProxy}/v${version}.info`,
        `${goProxy}/v${version}.mod`,
        `${goProxy}/v${version}.zip`,
        ...RELEASE_PLATFORMS.map((p) => `pulumi-resource-alertpipe-v${version}-${p.os}-${p.arch}.tar.gz`),
      ].sort(),
    );
  });

  it("has the same launcher and bundle in the archive of every os and arch", async () => {
    const digests = new Set<string>();
    for (const { path } of release.pluginArchives.values()) {
      const dir = scratch("archive-contents");
      await run("tar", ["-xzf", path, "-C", dir]);
      const { stdout } = await run("sha256sum", ["pulumi-resource-alertpipe", "pulumi-resource-alertpipe.js"], {
        cwd: dir,
      });
      digests.add(stdout);
    }
    expect(release.pluginArchives.size).toBe(4);
    expect(digests.size).toBe(1);
  });

  it("has the Python sdist with the package, its pyproject and README", async () => {
    const { stdout } = await run("tar", ["-tzf", release.pythonSdist]);
    const base = `pulumi_alertpipe-${version}`;
    expect(stdout.split("\n")).toEqual(
      expect.arrayContaining([
        `${base}/pyproject.toml`,
        `${base}/README.md`,
        `${base}/pulumi_alertpipe/__init__.py`,
        `${base}/pulumi_alertpipe/pulumi-plugin.json`,
      ]),
    );
  });

  it("has the Go module's .info name the version", () => {
    const info = JSON.parse(readFileSync(release.goModule.files[1] ?? "", "utf8")) as { Version: string };
    expect(info.Version).toBe(`v${version}`);
  });
});

describe("the npm tarballs, installed by npm in a fresh project", () => {
  it("are installed by the README's `npm install` line, which names the package's tarball the release makes", () => {
    expect(commands.npmInstall).toContain(release.npmPackage);
  });

  it("run a key through the dynamic classes and one through the Node.js SDK and the plugin", async () => {
    const stack = await languageStack(commands.node ?? [], { project: "alertpipe-node", stack: "node", emu, plugin });
    const up = await stack.run("up");
    expect(up).toMatchObject({ result: "succeeded", changes: { create: 3 } });
    expect(Object.keys(emu.snapshot().keys).sort()).toEqual(
      [up.outputs.dynamicKeyId?.value, up.outputs.nativeKeyId?.value].sort(),
    );
    expect(up.outputs.dynamicKeySecret?.secret).toBe(true);
    expect(up.outputs.nativeKeySecret?.secret).toBe(true);
    const state = stack.readStateFile();
    const resources = (
      JSON.parse(state) as {
        checkpoint: { latest: { resources: Array<{ type: string; inputs?: { __provider?: string } }> } };
      }
    ).checkpoint.latest.resources;
    expect(resources.find((r) => r.type === "pulumi-nodejs:dynamic/alertpipe:ApiKey")?.inputs?.__provider).toContain(
      'require("pulumi-alertpipe/dist/provider/apiKey/shim.js")',
    );
    expect(resources.map((r) => r.type)).toContain("alertpipe:index:ApiKey");
    expect(state).not.toContain(String(up.outputs.nativeKeySecret?.value));
    expect(state).not.toContain(String(up.outputs.dynamicKeySecret?.value));
    expect(await stack.run("destroy")).toMatchObject({ result: "succeeded", changes: { delete: 3 } });
    expect(emu.snapshot().keys).toEqual({});
  });
});

describe.each(["python", "go"] as const)("the %s SDK from the release, on the installed archive", (language) => {
  it("creates and destroys the pipe settings, the key and the alert", async () => {
    const stack = await languageStack(commands[language] ?? [], {
      project: `alertpipe-${language}`,
      stack: `release-${language}`,
      emu,
      plugin,
    });
    const up = await stack.run("up");
    expect(up).toMatchObject({ result: "succeeded", changes: { create: 4 } });
    expect(up.outputs.keySecret?.secret).toBe(true);
    expect(emu.snapshot().pipes[PIPE_RESOURCE_ID]?.db_max_threads).toBe(8);
    expect(await stack.run("destroy")).toMatchObject({ result: "succeeded", changes: { delete: 4 } });
    expect(emu.snapshot().keys).toEqual({});
    expect(emu.snapshot().alerts).toEqual({});
  });
});
