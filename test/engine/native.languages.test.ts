// A Python or Go team's route to the native plugin, on the real engine against the bundled emulator:
// the plugin archive installed with `pulumi plugin install resource alertpipe <version> --file` into
// a fresh PULUMI_HOME (no node_modules of ours anywhere, only `node` on PATH), the generated SDK of
// the language (Python: pip-installed next to PyPI's `pulumi` at our lock file's version; Go: a
// program built against sdk/go, minutes with empty Go caches, a second or two with them), and an
// Automation API inline program (test/engine/fixtures/<language>-program) making one of each
// resource, and a lookup of the alert made. Both languages meet the same specification.

import { join } from "node:path";
import { CONNECTION_SETTINGS } from "../../provider/runtime/connection";
import { emulatorConfig } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/packedPackage";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { emulator } from "../support/engine";
import { PIPE_RESOURCE_ID } from "../support/fixtures";
import {
  builtGoProgram,
  fixture,
  installedPluginArchive,
  languageStack,
  pythonWithSdk,
  type LanguageStack,
  type ProgramReport,
} from "../support/languagePrograms";
import { SECRET_SIG } from "../../scripts/engine/stack";

interface Language {
  readonly name: "python" | "go";
  /** What is made before the program can run, said in the log with its time. */
  readonly prepared: string;
  /** The command that runs the program, its SDK installed or built. */
  readonly command: () => Promise<string[]>;
  readonly setupMs: number;
}

const LANGUAGES: readonly Language[] = [
  {
    name: "python",
    prepared: "venv with pulumi and pulumi_alertpipe",
    command: async () => [await pythonWithSdk(), join(fixture("python-program"), "inline_program.py")],
    setupMs: 600_000,
  },
  { name: "go", prepared: "Go program built", command: async () => [await builtGoProgram()], setupMs: 900_000 },
];

describe.each(LANGUAGES)("a $name program using the generated SDK and the installed plugin archive", (language) => {
  let emu: RunningEmulator;
  let stack: LanguageStack;
  let up: ProgramReport;

  beforeAll(async () => {
    const t0 = Date.now();
    const [command, plugin] = await Promise.all([language.command(), installedPluginArchive()]);
    console.log(`${language.prepared} and the archive installed: ${Date.now() - t0} ms`);
    emu = await emulator({ rateLimits: { cloud: false, alerting: false } });
    stack = await languageStack(command, { project: `alertpipe-${language.name}`, stack: language.name, emu, plugin });
  }, language.setupMs);

  it("creates the pipe settings, the key and the alert", async () => {
    const t0 = Date.now();
    up = await stack.run("up");
    console.log(`${language.name} up: ${Date.now() - t0} ms`);
    expect(up.result).toBe("succeeded");
    expect(up.changes).toEqual({ create: 4 });
    const snap = emu.snapshot();
    expect(Object.keys(snap.keys)).toHaveLength(1);
    expect(Object.keys(snap.alerts)).toEqual([up.outputs.alertId?.value]);
    expect(snap.pipes[PIPE_RESOURCE_ID]?.db_max_threads).toBe(8);
  });

  it("looks the alert up through the SDK's lookup function", () => {
    expect(up.outputs.foundAlertName).toEqual({ secret: false, value: "Ingest lag" });
  });

  it("gets keySecret as a secret output", () => {
    expect(up.outputs.keySecret).toMatchObject({ secret: true, value: expect.any(String) });
    expect(up.outputs.keyId?.secret).toBe(false);
  });

  it("keeps keySecret out of the state in plain text", () => {
    const state = stack.readStateFile();
    expect(state).toContain(SECRET_SIG);
    expect(state).not.toContain(String(up.outputs.keySecret?.value));
  });

  it("destroys all three, putting the pipe's settings back", async () => {
    const down = await stack.run("destroy");
    expect(down).toMatchObject({ result: "succeeded", changes: { delete: 4 } });
    const snap = emu.snapshot();
    expect(snap.keys).toEqual({});
    expect(snap.alerts).toEqual({});
    expect(snap.pipes[PIPE_RESOURCE_ID]?.db_max_threads).toBeNull();
  });
});

/** The alert writes the emulator saw: none may come from a wrong tile. */
const alertWrites = (emu: RunningEmulator) =>
  emu.requests.filter((r) => r.path.startsWith("/api/v2/alerts") && (r.method === "POST" || r.method === "PUT"));

// Issue 45 (item 7, findings 1, 2, 11): the observability stack through the plugin, its alert on a tile
// named with tileName and the dashboard's tileIndex, on the emulator's HyperDX (2026) mode.
describe.each(LANGUAGES)("a $name program's observability stack, its alert on a tile by name", (language) => {
  let emu: RunningEmulator;
  let command: string[];
  let plugin: Awaited<ReturnType<typeof installedPluginArchive>>;
  const stackOf = (stack: string, env: Record<string, string> = {}) =>
    languageStack(command, {
      project: `alertpipe-${language.name}-obs`,
      stack,
      emu,
      plugin,
      env: { ALERTPIPE_TEST_PROGRAM: "observability", ...env },
    });

  beforeAll(async () => {
    [command, plugin] = await Promise.all([language.command(), installedPluginArchive()]);
    emu = await emulator({ mode: "2026", rateLimits: { cloud: false, alerting: false } });
  }, language.setupMs);

  it("makes Connection, Source, Dashboard, Webhook and the alert on the named tile; a preview then has nothing to do", async () => {
    const stack = await stackOf("made");
    const up = await stack.run("up");
    expect(up).toMatchObject({ result: "succeeded", changes: { create: 6 } });
    const ids = up.outputs.tileIds?.value as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual(["Error rate", "Requests"]);
    expect(up.outputs.tileId?.value).toBe(ids["Error rate"]);
    expect(emu.snapshot().alerts[String(up.outputs.alertId?.value)]).toMatchObject({ tileId: ids["Error rate"] });
    expect(await stack.run("preview")).toMatchObject({ result: "succeeded", changes: { same: 6 } });
    expect((await stack.run("destroy")).result).toBe("succeeded");
  });

  it.each([
    ["a name no tile has", "Nope", 'has no tile named "Nope"'],
    ["the table tile", "Top", 'the tile "Top" of the dashboard "Ops lang" is a table tile, which takes no alert'],
  ])(
    "fails preview of an alert on %s, naming the dashboard's tiles that take alerts, sending nothing",
    async (_what, tile, words) => {
      emu.resetRequestLog();
      const preview = await (await stackOf(`wrong-${tile}`, { ALERTPIPE_TEST_TILE: tile })).run("preview");
      expect(preview.result).toBe("failed");
      expect(preview.error).toContain("[INVALID_INPUT] tileName");
      expect(preview.error).toContain(words);
      expect(preview.error).toContain(
        'its tiles that take an alert (line, stacked_bar, number): "Error rate", "Requests"',
      );
      expect(emu.requests.filter((r) => r.method !== "GET")).toEqual([]);
    },
  );

  if (language.name === "go")
    it('never sends a tileId "" that TileIds.MapIndex gives for a missing name, in an update\'s preview or up', async () => {
      const stack = await stackOf("map-index", { ALERTPIPE_TEST_BY: "tileIds" });
      expect((await stack.run("up")).result).toBe("succeeded");
      emu.resetRequestLog();
      // The same stack, its alert now on a name TileIds lacks: Go's MapIndex gives "".
      const wrong = { ALERTPIPE_TEST_BY: "tileIds", ALERTPIPE_TEST_TILE: "Nope" };
      const preview = await stack.run("preview", wrong);
      expect(preview.result).toBe("failed");
      expect(preview.error).toContain("[INVALID_INPUT] tileId");
      await expect(stack.run("up", wrong)).rejects.toThrow(/\[INVALID_INPUT\] tileId/);
      expect(alertWrites(emu)).toEqual([]);
      expect((await stack.run("destroy")).result).toBe("succeeded");
    });
});

describe("the user's Python example (examples/python/stack.py), as its docstring runs it", () => {
  let emu: RunningEmulator;
  let stack: LanguageStack;

  beforeAll(async () => {
    const [python, plugin] = await Promise.all([pythonWithSdk(), installedPluginArchive()]);
    emu = await emulator({ rateLimits: { cloud: false, alerting: false } });
    // The example reads its connection from the provider's own variables, the emulator's address when unset.
    const config = emulatorConfig(emu);
    const env = Object.fromEntries(
      Object.values(CONNECTION_SETTINGS)
        .filter((s) => config[s.configKey] !== undefined)
        .map((s) => [s.envVar, String(config[s.configKey]?.value)]),
    );
    stack = await languageStack([python, join(repoRoot(), "examples", "python", "stack.py")], {
      project: "alertpipe-python-example",
      stack: "dev",
      emu,
      plugin,
      env,
    });
  }, 600_000);

  it("makes its one key on up, keySecret a masked secret, and deletes it on destroy", async () => {
    const up = await stack.run("up");
    expect(up).toMatchObject({ result: "succeeded", changes: { create: 2 }, outputs: { keySecret: "[secret]" } });
    expect(Object.values(emu.snapshot().keys).map((k) => k.name)).toEqual(["deployer"]);
    expect(stack.readStateFile()).toContain(SECRET_SIG);
    const down = await stack.run("destroy");
    expect(down).toMatchObject({ result: "succeeded", changes: { delete: 2 } });
    expect(emu.snapshot().keys).toEqual({});
  });
});
