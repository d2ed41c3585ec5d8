// Stacks made by earlier releases keep working (issue 25): each recording kept under
// test/engine/recorded/<version>/<door>/ (test/support/recordings.ts) loaded into a fresh stack, run with
// what the tree builds now (the packed package in examples/node_modules, its plugin for the YAML door),
// against an emulator started on the recording's objects. Like pulumi/providertest's upgrade tests on
// recorded baselines: nothing to do, no write, the keys' secrets kept, refresh quiet, an edit one update,
// and destroy clean.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { examplesDir } from "../../scripts/exampleStack";
import { SECRET_SIG, SIG_KEY } from "../../scripts/engine/stack";
import {
  afterFile,
  changes,
  emulator,
  isOurType,
  ourExported,
  requestLog,
  statusWithKey,
  succeeded,
  type RunResult,
  type StateResource,
} from "../support/engine";
import { FILES, openDoorStack, recordings, type DoorStack, type Recording } from "../support/recordings";

const KEYS = ["reader", "deployer"];
const isWrite = (method: string) => method !== "GET";

/** A secret as `stack export --show-secrets` shows it: its value, or undefined when it is not a secret. */
function shownSecret(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  return v[SIG_KEY] === SECRET_SIG && typeof v.plaintext === "string"
    ? (JSON.parse(v.plaintext) as unknown)
    : undefined;
}

/**
 * What a refresh did to our resources' inputs: "<name>.<input> changed" for an input the state held
 * that moved or went, "<name>.<input> added" for a new one that is not a copy of the resource's own
 * output (the dynamic door's read copies outputs an update cannot change, an ApiKey's keySuffix, into
 * the inputs on purpose: carryStableOutputs in provider/protocol/diff.ts).
 */
function inputChanges(held: Map<string, StateResource>, now: Map<string, StateResource>): string[] {
  const found: string[] = [];
  for (const [name, r] of now) {
    const was = held.get(name)?.inputs ?? {};
    const is = r.inputs ?? {};
    for (const k of new Set([...Object.keys(was), ...Object.keys(is)])) {
      if (k in was) {
        if (!isDeepStrictEqual(was[k], is[k])) found.push(`${name}.${k} changed`);
      } else if (!isDeepStrictEqual(is[k], r.outputs?.[k])) found.push(`${name}.${k} added`);
    }
  }
  return found.sort();
}

/** Every step of a run, ours named by their op; the providers' are left out (the default may move to the new version). */
function ourSteps(result: RunResult): string[] {
  return result.steps
    .filter((s) => isOurType(s.type))
    .map((s) => `${s.op} ${s.name}`)
    .sort();
}

it("keeps the recordings of 0.1.0 through both front doors", () => {
  expect(recordings().map((r) => `${r.facts.version}/${r.facts.door}`)).toEqual(
    expect.arrayContaining(["0.1.0/dynamic", "0.1.0/yaml"]),
  );
});

describe.each(recordings().map((r) => [`${r.facts.version}/${r.facts.door}`, r] as const))(
  "the stack recorded as %s, run with the tree's build",
  (_, recording: Recording) => {
    const { facts, dir } = recording;
    const recorded = (file: string) => readFileSync(join(dir, file), "utf8");
    let emu: RunningEmulator;
    let stack: DoorStack;
    /** The recorded state's resources, secrets shown. */
    let before: Map<string, StateResource>;
    const same = () => [...before.keys()].map((name) => `same ${name}`).sort();

    beforeAll(async () => {
      // The emulator writes its file back on every change: a copy, so the recording stays as made.
      const scratch = mkdtempSync(join(tmpdir(), "alertpipe-upgrade-"));
      afterFile(() => rmSync(scratch, { recursive: true, force: true }));
      copyFileSync(join(dir, FILES.emulator), join(scratch, FILES.emulator));
      emu = await emulator({ dataFile: join(scratch, FILES.emulator), rateLimits: { cloud: false, alerting: false } });
      stack = await openDoorStack(facts.door, emu, { programFolder: dir, packageDir: examplesDir(), ...facts });
      // The emulator's URL is the one thing that moves: rewritten in the config and the state alike.
      const moved = (text: string) => text.split(facts.emulatorUrl).join(emu.url);
      writeFileSync(stack.configFile, moved(recorded(FILES.config)));
      await stack.importState(moved(recorded(FILES.state)));
      before = ourExported(await stack.exportState(true));
      emu.resetRequestLog();
    }, 300_000);

    it("loads the recording's objects on the emulator and its resources into the stack", () => {
      const objects = emu.snapshot();
      expect(Object.keys(objects.alerts)).toHaveLength(2);
      expect(Object.keys(objects.keys)).toHaveLength(2);
      expect([...before.values()].map((r) => r.id).sort()).toEqual(
        [...Object.keys(objects.alerts), ...Object.keys(objects.keys), ...Object.keys(objects.pipes)].sort(),
      );
    });

    it("previews nothing to do: every resource of ours same", async () => {
      const preview = succeeded(await stack.run("preview"));
      expect(ourSteps(preview)).toEqual(same());
      expect(changes(preview)).toEqual([]);
      expect(requestLog(emu, isWrite)).toEqual([]);
    });

    it("runs up sending no write", async () => {
      emu.resetRequestLog();
      const up = succeeded(await stack.run("up"));
      expect(ourSteps(up)).toEqual(same());
      expect(requestLog(emu, isWrite)).toEqual([]);
    });

    it("keeps both keys' keySecret, still a secret in state, and each still works on the service", async () => {
      const after = ourExported(await stack.exportState(true));
      const plain = stack.readStateFile();
      for (const name of KEYS) {
        const secret = shownSecret(before.get(name)?.outputs?.keySecret);
        expect(secret, name).toEqual(expect.any(String));
        expect(shownSecret(after.get(name)?.outputs?.keySecret), name).toBe(secret);
        expect(plain).not.toContain(String(secret));
        const keyId = String(after.get(name)?.outputs?.keyId);
        expect(await statusWithKey(emu, String(after.get(name)?.inputs?.organizationId), keyId, String(secret))).toBe(
          200,
        );
      }
    });

    it("refreshes changing no input, and the preview after it has nothing to do", async () => {
      const held = ourExported(await stack.exportState(true));
      emu.resetRequestLog();
      succeeded(await stack.run("refresh"));
      expect(requestLog(emu, isWrite)).toEqual([]);
      const now = ourExported(await stack.exportState(true));
      expect([...now.keys()].sort()).toEqual([...held.keys()].sort());
      expect(inputChanges(held, now)).toEqual([]);
      const preview = succeeded(await stack.run("preview"));
      expect(ourSteps(preview)).toEqual(same());
    });

    it("makes a changed threshold one in-place update with one write", async () => {
      const [name, alert] = [...before].find(([, r]) => r.inputs?.source === "search") ?? [];
      await stack.setConfig({ [`${facts.project}:lagThreshold`]: { value: "600" } });
      emu.resetRequestLog();
      const up = succeeded(await stack.run("up"));
      expect(changes(up)).toEqual([`update ${name}`]);
      expect(requestLog(emu, isWrite)).toEqual([`PUT /api/v2/alerts/${alert?.id}`]);
      expect(emu.snapshot().alerts[alert?.id ?? ""]?.threshold).toBe(600);
    });

    it("destroys leaving nothing on the emulator", async () => {
      succeeded(await stack.run("destroy"));
      const left = emu.snapshot();
      expect(left.alerts).toEqual({});
      expect(left.keys).toEqual({});
      for (const settings of Object.values(left.pipes))
        expect(Object.values(settings).every((v) => v === null)).toBe(true);
      expect(ourExported(await stack.exportState())).toEqual(new Map());
    });
  },
);
