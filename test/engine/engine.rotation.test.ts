// Key rotation with `keepers` on the real Pulumi engine (the CLI via the Automation API) against the
// emulator: a change of a keeper replaces the ApiKey, the new key made before the old one is deleted,
// so an Alert built from the key's outputs moves to the new key in the same `pulumi up` while the
// old key still works: rotation without downtime. Issue 10's done-criterion.

import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../support/engine";
import { changes, ourState, requestLog, sharedStack, statusWithKey, succeeded } from "../support/engine";
import { ORG_ID } from "../support/fixtures";
import { DEPLOYER_KEY, LAG_ALERT, expectKeyRotated, keyOutputs, keyRotationWrites } from "../support/programs";

/** The program's own config key (the project is the example's), as the README's pattern reads it. */
const ROTATION = "alertpipe-example:rotation";

interface KeyPair {
  id: string;
  keyId: string;
  keySecret: string;
  keySuffix: string;
}

/** The key's id, pair and suffix from a run's stack outputs; the secret is never printed. */
function keyFrom(result: RunResult): KeyPair {
  const text = (name: string): string => {
    const value = result.outputs[name]?.value;
    expect(typeof value, `stack output ${name}`).toBe("string");
    return value as string;
  };
  return { id: text("keyUuid"), keyId: text("keyId"), keySecret: text("keySecret"), keySuffix: text("keySuffix") };
}

describe("rotating an ApiKey by changing a keeper", () => {
  const t = sharedStack(
    "rotation",
    async ({ Alert, ApiKey }) => {
      const key = new ApiKey("deployer", {
        ...DEPLOYER_KEY,
        keepers: { rotation: new pulumi.Config().require("rotation") },
      });
      const alert = new Alert("lag", { ...LAG_ALERT, message: pulumi.interpolate`Deploy key ending ${key.keySuffix}` });
      return { ...keyOutputs(key), alertId: alert.id };
    },
    { config: { [ROTATION]: { value: "2025-01" } } },
  );
  let first: KeyPair;
  let alertId = "";
  let rotation: RunResult;

  it("creates the key and an alert naming its suffix", async () => {
    const result = succeeded(await t.stack.up());
    expect(changes(result)).toEqual(["create deployer", "create lag"]);
    first = keyFrom(result);
    alertId = String(result.outputs.alertId?.value);
    expect(Object.keys(t.emu.snapshot().keys)).toEqual([first.id]);
    expect(t.emu.snapshot().alerts[alertId]?.message).toBe(`Deploy key ending ${first.keySuffix}`);
    expect(await statusWithKey(t.emu, ORG_ID, first.keyId, first.keySecret)).toBe(200);
  });

  it("on a new keeper value, replaces the key creating the new one before deleting the old, and updates the alert between", async () => {
    t.emu.resetRequestLog();
    await t.stack.setConfig({ [ROTATION]: { value: "2025-02" } });
    rotation = succeeded(await t.stack.up());
    expectKeyRotated(rotation);
  });

  it("sends the new key's POST, then the alert's PUT, then the old key's DELETE", () => {
    expect(requestLog(t.emu, (m) => m !== "GET")).toEqual(keyRotationWrites(alertId, first.id));
  });

  it("leaves exactly one key of that name, the new one, in state, with the alert naming its suffix", () => {
    const second = keyFrom(rotation);
    const keys = Object.values(t.emu.snapshot().keys);
    expect(keys.filter((k) => k.name === "deployer").map((k) => k.id)).toEqual([second.id]);
    expect(keys.map((k) => k.id)).not.toContain(first.id);
    expect(second.id).not.toBe(first.id);
    expect(ourState(t.stack).get("deployer")?.id).toBe(second.id);
    expect(t.emu.snapshot().alerts[alertId]?.message).toBe(`Deploy key ending ${second.keySuffix}`);
  });

  it("hands out a new pair that works, and the old pair no longer does", async () => {
    const second = keyFrom(rotation);
    expect(second.keyId).not.toBe(first.keyId);
    expect(await statusWithKey(t.emu, ORG_ID, second.keyId, second.keySecret)).toBe(200);
    expect(await statusWithKey(t.emu, ORG_ID, first.keyId, first.keySecret)).toBe(401);
  });

  it("changes nothing on another up with the same keeper value", async () => {
    t.emu.resetRequestLog();
    const result = succeeded(await t.stack.up());
    expect(changes(result)).toEqual([]);
    expect(requestLog(t.emu, (m) => m !== "GET")).toEqual([]);
  });
});
