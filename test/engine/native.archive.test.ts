// The self-contained plugin archive (npm run plugin:pack) for teams with no Node project: named as
// Pulumi names plugin archives, holding the launcher and one bundled JavaScript file, installed by
// `pulumi plugin install resource alertpipe <version> --file <archive>`, and run by the engine from
// PULUMI_HOME with only `node` on PATH. The Python and Go tests run whole programs on it.

import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pulumiCli } from "../../scripts/engine/pulumiCli";
import { COMMAND_EXECUTABLE, PLUGIN_EXECUTABLE, packageVersion, thisPlatform } from "../../scripts/pluginArchive";
import { packageSchema } from "../../provider/native/schema";
import { byHand, emulator as startEmulator } from "../support/engine";
import { ALERTS_PATH } from "../support/fixtures";
import { LAG_ALERT } from "../support/programs";
import { exportEnv } from "../support/exportRuns";
import {
  installedPluginArchive,
  installedPluginDir,
  plainPath,
  run,
  type InstalledPlugin,
} from "../support/languagePrograms";

/** How long the installed launcher takes to print its port, the engine's wait before its first call. */
function timeToPort(executable: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(executable, [], { env: { PATH: path }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once("data", (chunk: Buffer) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      child.kill();
      if (/^\d+\n$/.test(chunk.toString())) resolve(ms);
      else reject(new Error(`the plugin printed ${JSON.stringify(chunk.toString())} instead of a port`));
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code !== null && code !== 0 ? reject(new Error(`the plugin exited ${code}: ${stderr}`)) : undefined,
    );
  });
}

describe("the plugin archive", () => {
  let plugin: InstalledPlugin;

  beforeAll(async () => {
    plugin = await installedPluginArchive();
    console.log(
      `archive ${basename(plugin.archive.path)}: ${Math.round(plugin.archive.bytes / 1024)} KiB, bundle ${Math.round(plugin.archive.bundleBytes / 1024)} KiB`,
    );
  });

  it("is named as Pulumi names plugin archives, for this package's version, os and arch", () => {
    const { os, arch } = thisPlatform();
    expect(basename(plugin.archive.path)).toBe(`pulumi-resource-alertpipe-v${packageVersion()}-${os}-${arch}.tar.gz`);
  });

  it("holds two executable launchers, the plugin and the alertpipe command, each with one bundled JavaScript file, and the licenses", async () => {
    const { stdout } = await run("tar", ["-tzf", plugin.archive.path]);
    expect(stdout.trim().split("\n").sort()).toEqual(
      [
        "LICENSE",
        "THIRD-PARTY-NOTICES",
        COMMAND_EXECUTABLE,
        `${COMMAND_EXECUTABLE}.js`,
        PLUGIN_EXECUTABLE,
        `${PLUGIN_EXECUTABLE}.js`,
      ].sort(),
    );
    for (const executable of [PLUGIN_EXECUTABLE, COMMAND_EXECUTABLE])
      expect(statSync(join(installedPluginDir(plugin), executable)).mode & 0o111).not.toBe(0);
  });

  it("runs `alertpipe export` from the installed folder with only node on PATH, writing an import file of the emulator's alert", async () => {
    const emu = await startEmulator();
    try {
      await byHand(emu, "POST", ALERTS_PATH, { ...LAG_ALERT, name: "Ingest lag" });
      const { stdout, stderr } = await run(join(installedPluginDir(plugin), COMMAND_EXECUTABLE), ["export"], {
        env: { PATH: await plainPath(), ...exportEnv(emu) },
      });
      const id = Object.keys(emu.snapshot().alerts)[0];
      expect(JSON.parse(stdout)).toEqual({ resources: [{ type: "alertpipe:index:Alert", name: "ingestLag", id }] });
      expect(stderr).toContain("alerts: 1 listed, 1 exported");
    } finally {
      await emu.close();
    }
  });

  it("installs with pulumi plugin install --file, listed as the resource plugin alertpipe at the package's version", async () => {
    const cli = await pulumiCli();
    const { stdout } = await run(cli.path, ["plugin", "ls", "--json"], {
      env: { PATH: await plainPath(), PULUMI_HOME: plugin.home, PULUMI_SKIP_UPDATE_CHECK: "true" },
    });
    const listed = JSON.parse(stdout) as Array<{ name: string; kind: string; version: string }>;
    expect(listed.map((p) => `${p.kind} ${p.name} ${p.version}`)).toContain(`resource alertpipe ${packageVersion()}`);
  });

  it("serves the plugin's schema from the installed folder with only node, the engine and the system on PATH", async () => {
    const cli = await pulumiCli();
    const { stdout } = await run(
      cli.path,
      ["package", "get-schema", join(installedPluginDir(plugin), PLUGIN_EXECUTABLE)],
      {
        env: { PATH: await plainPath(), PULUMI_HOME: plugin.home, PULUMI_SKIP_UPDATE_CHECK: "true" },
      },
    );
    // The CLI prints the schema as it binds it (empty lists dropped): the package, its version, resources and types are the plugin's.
    const served = JSON.parse(stdout) as {
      name: string;
      version: string;
      resources: Record<string, unknown>;
      types: Record<string, unknown>;
    };
    const expected = packageSchema();
    expect({
      name: served.name,
      version: served.version,
      resources: Object.keys(served.resources).sort(),
      types: Object.keys(served.types).sort(),
    }).toEqual({
      name: expected.name,
      version: expected.version,
      resources: Object.keys(expected.resources).sort(),
      types: Object.keys(expected.types).sort(),
    });
  });

  it("prints its port within a second of starting", async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++)
      times.push(await timeToPort(join(installedPluginDir(plugin), PLUGIN_EXECUTABLE), await plainPath()));
    console.log(`archive plugin start to port: ${times.map((t) => Math.round(t)).join(", ")} ms`);
    expect(Math.min(...times)).toBeLessThan(1000);
  });
});
