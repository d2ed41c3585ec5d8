// A key whose create was answered without its secret, on the real engine: the first up keeps it in
// state with an error; the next preview proposes replacing it, saying why, instead of clearing the
// error with no request; the up after replaces it, leaving one key on the service whose pair logs
// in. The emulator always answers the secret, so a proxy in front of it drops it from the first
// POST's answer, as a faulty service would.

import type { PulumiFn } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { EngineStack, RunResult } from "../support/engine";
import {
  changes,
  emulator as startEmulator,
  installedPackage,
  ourState,
  stackOn,
  statusWithKey,
  succeeded,
  told,
} from "../support/engine";
import { ORG_ID } from "../support/fixtures";
import { DEPLOYER_KEY, keyOutputs } from "../support/programs";
import { rewritingProxy, without } from "../support/rewritingProxy";

describe("a key created without its secret, on the real engine", () => {
  let emu: RunningEmulator;
  let s: EngineStack;
  let preview: RunResult;

  beforeAll(async () => {
    emu = await startEmulator();
    // Drops the secret from the first key POST's answer only, as a faulty service would.
    let first = true;
    const url = await rewritingProxy(emu.url, (method, path, body) => {
      if (!(first && method === "POST" && path.endsWith("/keys"))) return body;
      first = false;
      return without(body, "result", "keySecret");
    });
    const { ApiKey } = installedPackage();
    const program: PulumiFn = async () => keyOutputs(new ApiKey("deployer", DEPLOYER_KEY));
    s = await stackOn(emu, "key-without-secret", { program, config: { "alertpipe:cloudUrl": { value: url } } });
  });

  it("fails the first up, keeping the key in state with an error and without a secret", async () => {
    const up = await s.up();
    expect(up.ok).toBe(false);
    const kept = ourState(s).get("deployer");
    expect(told(up)).toContain("was created and is kept in the stack's state");
    expect(Object.keys(emu.snapshot().keys)).toHaveLength(1);
    expect(kept?.id).toBe(Object.keys(emu.snapshot().keys)[0]);
    expect(kept?.initErrors?.join("\n")).toContain("the next pulumi up replaces it");
    expect(kept?.outputs?.keySecret).toBeUndefined();
  });

  it("shows a replacement of the key in the next preview, saying why", async () => {
    preview = succeeded(await s.preview());
    expect(changes(preview)).toContain("replace deployer");
    expect(told(preview)).toContain("was created without its key ID or secret in the answer, so nobody can use it");
  });

  it("replaces it on the next up: one key on the service, the one in state, whose pair logs in", async () => {
    const unusable = ourState(s).get("deployer")?.id;
    const up = succeeded(await s.up());
    const ids = Object.keys(emu.snapshot().keys);
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(unusable);
    expect(ourState(s).get("deployer")?.id).toBe(ids[0]);
    expect(await statusWithKey(emu, ORG_ID, String(up.outputs.keyId?.value), String(up.outputs.keySecret?.value))).toBe(
      200,
    );
  });

  it("changes nothing on the up after", async () => {
    expect(changes(succeeded(await s.up()))).toEqual([]);
  });
});
