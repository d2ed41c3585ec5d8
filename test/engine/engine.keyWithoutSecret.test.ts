// A key whose create was answered without its secret, on the real engine: the first up keeps it in
// state with an error; the next preview proposes replacing it, saying why, instead of clearing the
// error with no request; the up after replaces it, leaving one key on the service whose pair logs
// in. The emulator always answers the secret, so a proxy in front of it drops it from the first
// POST's answer, as a faulty service would.

import { describe, expect, it } from "vitest";
import { changes, ourState, sharedStack, statusWithKey, succeeded, told, type RunResult } from "../support/engine";
import { ORG_ID } from "../support/fixtures";
import { DEPLOYER_KEY, keyOutputs } from "../support/programs";
import { rewritingProxy, without } from "../support/rewritingProxy";

describe("a key created without its secret, on the real engine", () => {
  const t = sharedStack("key-without-secret", async ({ ApiKey }) => keyOutputs(new ApiKey("deployer", DEPLOYER_KEY)), {
    // Drops the secret from the first key POST's answer only, as a faulty service would.
    config: async (emu) => {
      let first = true;
      const url = await rewritingProxy(emu.url, (method, path, body) => {
        if (!(first && method === "POST" && path.endsWith("/keys"))) return body;
        first = false;
        return without(body, "result", "keySecret");
      });
      return { "alertpipe:cloudUrl": { value: url } };
    },
  });
  let preview: RunResult;

  it("fails the first up, keeping the key in state with an error and without a secret", async () => {
    const up = await t.stack.up();
    expect(up.ok).toBe(false);
    const kept = ourState(t.stack).get("deployer");
    expect(told(up)).toContain("was created and is kept in the stack's state");
    expect(Object.keys(t.emu.snapshot().keys)).toHaveLength(1);
    expect(kept?.id).toBe(Object.keys(t.emu.snapshot().keys)[0]);
    expect(kept?.initErrors?.join("\n")).toContain("the next pulumi up replaces it");
    expect(kept?.outputs?.keySecret).toBeUndefined();
  });

  it("shows a replacement of the key in the next preview, saying why", async () => {
    preview = succeeded(await t.stack.preview());
    expect(changes(preview)).toContain("replace deployer");
    expect(told(preview)).toContain("was created without its key ID or secret in the answer, so nobody can use it");
  });

  it("replaces it on the next up: one key on the service, the one in state, whose pair logs in", async () => {
    const unusable = ourState(t.stack).get("deployer")?.id;
    const up = succeeded(await t.stack.up());
    const ids = Object.keys(t.emu.snapshot().keys);
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(unusable);
    expect(ourState(t.stack).get("deployer")?.id).toBe(ids[0]);
    expect(
      await statusWithKey(t.emu, ORG_ID, String(up.outputs.keyId?.value), String(up.outputs.keySecret?.value)),
    ).toBe(200);
  });

  it("changes nothing on the up after", async () => {
    expect(changes(succeeded(await t.stack.up()))).toEqual([]);
  });
});
