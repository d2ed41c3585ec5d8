// The self-contained plugin archive (npm run plugin:pack) for teams with no Node project: named as
// Pulumi names plugin archives, holding the launcher and one bundled JavaScript file, installed by
// `pulumi plugin install resource alertpipe <version> --file <archive>`, and run by the engine from
// PULUMI_HOME with only `node` on PATH. The Python and Go tests run whole programs on it; here a
// Pulumi YAML program (the guide's archive example) runs on it against the archive's own emulator.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pulumiCli } from "../../scripts/engine/pulumiCli";
import {
  COMMAND_EXECUTABLE,
  EMULATOR_EXECUTABLE,
  PLUGIN_EXECUTABLE,
  packageVersion,
  thisPlatform,
} from "../../scripts/pluginArchive";
import { packageSchema } from "../../provider/native/schema";
import { afterFile, byHand, emulator as startEmulator } from "../support/engine";
import { ALERTS_PATH, KEYS_PATH } from "../support/fixtures";
import { LAG_ALERT } from "../support/programs";
import { exportEnv } from "../support/exportRuns";
import {
  installedPluginArchive,
  installedPluginDir,
  plainPath,
  run,
  scratch,
  type InstalledPlugin,
} from "../support/languagePrograms";
import { documentedYamlProgram, yamlStack } from "../support/yamlStack";

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

/** The archive's emulator, started as a user starts it: reached by what it prints, stopped by its pid file. */
interface ArchiveEmulator {
  readonly url: string;
  readonly token: string;
  readonly keyId: string;
  readonly keySecret: string;
  readonly pidFile: string;
  readonly child: ChildProcess;
  /** `kill $(cat <pid file>)`; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Runs the installed `alertpipe-emulator` on a free port with only `path` on PATH, until its lines are printed. */
function archiveEmulator(executable: string, path: string): Promise<ArchiveEmulator> {
  const pidFile = join(scratch("emulator"), "emulator.pid");
  const child = spawn(executable, ["--port", "0", "--quiet", "--pid-file", pidFile], {
    env: { PATH: path },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  afterFile(() => (child.exitCode === null ? (child.kill(), exited) : undefined));
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.once("exit", (code) => reject(new Error(`the archive's emulator exited ${code}: ${err}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      const token = /token: (\S+)/.exec(out)?.[1];
      const keys = /key id: (\S+)\s+key secret: (\S+)/.exec(out);
      if (url === undefined || token === undefined || keys?.[1] === undefined || keys[2] === undefined) return;
      resolve({
        url,
        token,
        keyId: keys[1],
        keySecret: keys[2],
        pidFile,
        child,
        stop: () => {
          process.kill(Number(readFileSync(pidFile, "utf8")), "SIGTERM");
          return exited;
        },
      });
    });
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

  it("holds three executable launchers, the plugin, the alertpipe command and the emulator, each with one bundled JavaScript file, and the licenses", async () => {
    const { stdout } = await run("tar", ["-tzf", plugin.archive.path]);
    expect(stdout.trim().split("\n").sort()).toEqual(
      [
        "LICENSE",
        "THIRD-PARTY-NOTICES",
        COMMAND_EXECUTABLE,
        `${COMMAND_EXECUTABLE}.js`,
        EMULATOR_EXECUTABLE,
        `${EMULATOR_EXECUTABLE}.js`,
        PLUGIN_EXECUTABLE,
        `${PLUGIN_EXECUTABLE}.js`,
      ].sort(),
    );
    for (const executable of [PLUGIN_EXECUTABLE, COMMAND_EXECUTABLE, EMULATOR_EXECUTABLE])
      expect(statSync(join(installedPluginDir(plugin), executable)).mode & 0o111).not.toBe(0);
  });

  it("runs `alertpipe export` from the installed folder with only node on PATH, writing an import file of the emulator's alert", async () => {
    const emu = await startEmulator();
    try {
      await byHand(emu, "POST", ALERTS_PATH, { ...LAG_ALERT, name: "Ingest lag" });
      // --type Alert: the emulator's seeded connection and sources would be listed too.
      const args = ["export", "--type", "Alert"];
      const { stdout, stderr } = await run(join(installedPluginDir(plugin), COMMAND_EXECUTABLE), args, {
        env: { PATH: await plainPath(), ...exportEnv(emu) },
      });
      const id = Object.keys(emu.snapshot().alerts)[0];
      expect(JSON.parse(stdout)).toEqual({ resources: [{ type: "alertpipe:index:Alert", name: "ingestLag", id }] });
      expect(stderr).toContain("alerts: 1 listed, 1 exported");
    } finally {
      await emu.close();
    }
  });

  it("runs the emulator from the installed folder with only node on PATH: it answers with the credentials it prints, and stops by its pid file", async () => {
    const emu = await archiveEmulator(join(installedPluginDir(plugin), EMULATOR_EXECUTABLE), await plainPath());
    await byHand(emu, "POST", ALERTS_PATH, { ...LAG_ALERT, name: "Ingest lag" });
    expect(await byHand(emu, "GET", ALERTS_PATH)).toMatchObject({ data: [{ name: "Ingest lag" }] });
    expect(await byHand(emu, "GET", KEYS_PATH)).toMatchObject({ result: [] });
    await emu.stop();
    expect(emu.child.exitCode).toBe(0);
    expect(existsSync(emu.pidFile)).toBe(false);
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

describe("the guide's Pulumi YAML program for the archive, on the archive's plugin and emulator alone", () => {
  it("is installed by `pulumi plugin install`, needs no plugins entry, and goes up and down with keySecret a secret", async () => {
    const plugin = await installedPluginArchive();
    const emu = await archiveEmulator(join(installedPluginDir(plugin), EMULATOR_EXECUTABLE), await plainPath());
    const yaml = await yamlStack(emu, documentedYamlProgram(undefined, "alertpipe-yaml-archive"), {
      installPlugin: false,
      // Only the plugin cache: a pulumi-resource-alertpipe on this repository's PATH must not be taken.
      env: { PULUMI_IGNORE_AMBIENT_PLUGINS: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
    });
    // The stack's PULUMI_HOME, as a user installs into their own.
    const cli = await pulumiCli();
    await run(
      cli.path,
      ["plugin", "install", "resource", "alertpipe", plugin.archive.version, "--file", plugin.archive.path],
      {
        env: { PATH: await plainPath(), PULUMI_HOME: join(yaml.stack.root, "home"), PULUMI_SKIP_UPDATE_CHECK: "true" },
      },
    );
    const up = await yaml.stack.run(["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect(((await byHand(emu, "GET", KEYS_PATH)) as { result: unknown[] }).result).toHaveLength(1);
    expect(await byHand(emu, "GET", ALERTS_PATH)).toMatchObject({ data: [{ name: "Ingest lag" }] });
    const outputs = await yaml.stack.run(["stack", "output", "--json"]);
    expect(JSON.parse(outputs.stdout)).toMatchObject({ deployerKeySecret: "[secret]" });
    const down = await yaml.stack.run(["destroy", "--yes"]);
    expect(down.code, down.output).toBe(0);
    expect(await byHand(emu, "GET", KEYS_PATH)).toMatchObject({ result: [] });
    expect(await byHand(emu, "GET", ALERTS_PATH)).toMatchObject({ data: [] });
    await emu.stop();
  }, 900_000);
});
