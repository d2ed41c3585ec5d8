// A Python team's route to the native plugin, on the real engine against the bundled emulator:
// the plugin archive installed with `pulumi plugin install resource alertpipe <version> --file`
// into a fresh PULUMI_HOME (no node_modules of ours anywhere, only `node` on PATH), the generated
// Python SDK pip-installed next to PyPI's `pulumi` at our lock file's version, and an Automation API
// inline program (test/engine/fixtures/python-program) making one of each resource.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { emulator } from "../support/engine";
import { PIPE_RESOURCE_ID } from "../support/fixtures";
import { fixture, installedPluginArchive, languageStack, pythonWithSdk, type LanguageStack, type ProgramReport } from "../support/languagePrograms";
import { join } from "node:path";

/** The engine's marker of a secret in the state file. */
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

describe("a Python program using the generated SDK and the installed plugin archive", () => {
  let emu: RunningEmulator;
  let stack: LanguageStack;
  let up: ProgramReport;

  beforeAll(async () => {
    const t0 = Date.now();
    const [python, plugin] = await Promise.all([pythonWithSdk(), installedPluginArchive()]);
    console.log(`venv with pulumi and pulumi_alertpipe, and the archive installed: ${Date.now() - t0} ms`);
    emu = await emulator({ rateLimits: { cloud: false, alerting: false } });
    stack = await languageStack([python, join(fixture("python-program"), "inline_program.py")], { project: "alertpipe-python", stack: "python", emu, plugin });
  }, 600_000);

  it("creates the pipe settings, the key and the alert", async () => {
    const t0 = Date.now();
    up = await stack.run("up");
    console.log(`python up: ${Date.now() - t0} ms`);
    expect(up.result).toBe("succeeded");
    expect(up.changes).toEqual({ create: 4 });
    const snap = emu.snapshot();
    expect(Object.keys(snap.keys)).toHaveLength(1);
    expect(Object.keys(snap.alerts)).toEqual([up.outputs.alertId?.value]);
    expect(snap.pipes[PIPE_RESOURCE_ID]?.db_max_threads).toBe(8);
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
