// `importId` on the real Pulumi engine (the CLI via the Automation API) against the emulator: a
// program takes over an alert and a key made by hand instead of creating new ones (Pulumi cannot
// import a dynamic provider's resource), never POSTs, and manages them from then on; an id that
// names nothing fails the up in words naming it, creating nothing.

import type { PulumiFn } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunResult } from "../support/engine";
import {
  byHand,
  changes,
  installedPackage,
  ourState,
  requestLog,
  sharedStack,
  succeeded,
  told,
} from "../support/engine";
import { ALERTS_PATH, KEYS_PATH } from "../support/fixtures";
import { DEPLOYER_KEY, LAG_ALERT, keyOutputs } from "../support/programs";

/** A program of one alert and one key, taking over the ids given (none: plain resources); the key's keeper is `rotation`, "1" unless given. */
function program(ids: { alert?: string; key?: string; rotation?: string }): PulumiFn {
  return async () => {
    const { Alert, ApiKey } = installedPackage();
    const alert = new Alert("lag", { ...LAG_ALERT, ...(ids.alert !== undefined ? { importId: ids.alert } : {}) });
    const keepers = { rotation: ids.rotation ?? "1" };
    const key = new ApiKey("deployer", {
      ...DEPLOYER_KEY,
      keepers,
      ...(ids.key !== undefined ? { importId: ids.key } : {}),
    });
    return { alertId: alert.id, ...keyOutputs(key) };
  };
}

describe("taking over an alert and a key made by hand", () => {
  let alertId = "";
  let key = { id: "", keySuffix: "" };
  // Run after the objects below are made by hand, so it takes over their ids.
  const t = sharedStack("import", () => program({ alert: alertId, key: key.id })());
  let first: RunResult;

  beforeAll(async () => {
    // The alert differs from the program (threshold 100, not 300); the key is as the program has it.
    await byHand(t.emu, "POST", ALERTS_PATH, { ...LAG_ALERT, threshold: 100 });
    alertId = Object.keys(t.emu.snapshot().alerts)[0] ?? "";
    const made = (await byHand(t.emu, "POST", KEYS_PATH, { name: "deployer", roles: ["developer"] })) as {
      result: { key: { id: string; keySuffix: string } };
    };
    key = made.result.key;
    t.emu.resetRequestLog();
  });

  it("reads each, PUTs the alert that differs from the program, leaves the key that does not, and POSTs nothing", async () => {
    first = succeeded(await t.stack.up());
    expect(changes(first)).toEqual(["create deployer", "create lag"]);
    expect(requestLog(t.emu, (m) => m === "POST")).toEqual([]);
    expect(requestLog(t.emu).filter((r) => r.includes(ALERTS_PATH))).toEqual([
      `GET ${ALERTS_PATH}/${alertId}`,
      `PUT ${ALERTS_PATH}/${alertId}`,
    ]);
    expect(requestLog(t.emu).filter((r) => r.includes(KEYS_PATH))).toEqual([`GET ${KEYS_PATH}/${key.id}`]);
    expect(t.emu.snapshot().alerts[alertId]?.threshold).toBe(300);
    expect(Object.keys(t.emu.snapshot().alerts)).toEqual([alertId]);
    expect(Object.keys(t.emu.snapshot().keys)).toEqual([key.id]);
  });

  it("holds the taken-over ids in state, and the key with its suffix but no key ID or secret", () => {
    expect(ourState(t.stack).get("lag")?.id).toBe(alertId);
    expect(ourState(t.stack).get("deployer")?.id).toBe(key.id);
    const outputs = first.outputs;
    expect(outputs.keySuffix?.value).toBe(key.keySuffix);
    expect(outputs.keyId?.value ?? null).toBeNull();
    expect(outputs.keySecret?.value ?? null).toBeNull();
  });

  it("keeps the taken-over key on pulumi up --replace with importId still set: the replacement takes it over again and its delete is skipped", async () => {
    const urn = ourState(t.stack).get("deployer")?.urn ?? "";
    t.emu.resetRequestLog();
    const result = succeeded(await t.stack.up({ program: program({ alert: alertId, key: key.id }), replace: [urn] }));
    expect(changes(result)).toEqual(["replace deployer"]);
    expect(requestLog(t.emu, (m) => m !== "GET")).toEqual([]);
    expect(Object.keys(t.emu.snapshot().keys)).toEqual([key.id]);
    expect(ourState(t.stack).get("deployer")?.id).toBe(key.id);
    expect(told(result)).toContain(`the API key ${key.id} is not deleted`);
  });

  it("sees no change when importId is removed from the program", async () => {
    t.emu.resetRequestLog();
    const result = succeeded(await t.stack.up({ program: program({}) }));
    expect(changes(result)).toEqual([]);
    expect(requestLog(t.emu, (m) => m !== "GET")).toEqual([]);
    expect(ourState(t.stack).get("lag")?.id).toBe(alertId);
    expect(ourState(t.stack).get("deployer")?.id).toBe(key.id);
  });

  it("refuses in preview a keeper change while importId is still in the program, sending no write", async () => {
    // The engine checks a replacement's inputs afresh, so its create would take over the same key,
    // which the delete of the replaced one would then remove: no key left. So diff refuses, naming importId.
    t.emu.resetRequestLog();
    const result = await t.stack.up({ program: program({ alert: alertId, key: key.id, rotation: "2" }) });
    expect(result.ok).toBe(false);
    expect(result.error).toContain("importId is still set");
    expect(requestLog(t.emu, (m) => m !== "GET")).toEqual([]);
    expect(Object.keys(t.emu.snapshot().keys)).toEqual([key.id]);
  });

  it("makes a new key on a keeper change once importId is gone from the program, then deletes the taken-over one", async () => {
    t.emu.resetRequestLog();
    const result = succeeded(await t.stack.up({ program: program({ alert: alertId, rotation: "2" }) }));
    expect(changes(result)).toEqual(["replace deployer"]);
    expect(requestLog(t.emu, (m) => m !== "GET")).toEqual([`POST ${KEYS_PATH}`, `DELETE ${KEYS_PATH}/${key.id}`]);
    const keys = Object.keys(t.emu.snapshot().keys);
    expect(keys).toHaveLength(1);
    expect(keys).not.toContain(key.id);
    expect(ourState(t.stack).get("deployer")?.id).toBe(keys[0]);
  });

  it("deletes both on destroy", async () => {
    const keyNow = ourState(t.stack).get("deployer")?.id ?? "";
    t.emu.resetRequestLog();
    succeeded(await t.stack.destroy());
    expect(requestLog(t.emu, (m) => m !== "GET").sort()).toEqual(
      [`DELETE ${ALERTS_PATH}/${alertId}`, `DELETE ${KEYS_PATH}/${keyNow}`].sort(),
    );
    expect(t.emu.snapshot().alerts).toEqual({});
    expect(t.emu.snapshot().keys).toEqual({});
  });
});

describe("an importId that names nothing", () => {
  const MISSING_ALERT = "0123456789abcdef01234567";
  const MISSING_KEY = "5a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d";
  const t = sharedStack("import-missing", async () => ({}));

  it.each([
    { what: "an alert", id: MISSING_ALERT, made: "alerts" as const },
    { what: "a key", id: MISSING_KEY, made: "keys" as const },
  ])("fails the up for $what, naming the id, with no POST and nothing in state", async ({ id, made }) => {
    const { Alert, ApiKey } = installedPackage();
    t.emu.resetRequestLog();
    const result = await t.stack.up({
      program: async () => {
        if (made === "alerts") new Alert("lag", { ...LAG_ALERT, importId: id });
        else new ApiKey("deployer", { ...DEPLOYER_KEY, importId: id });
      },
    });
    expect(result.ok).toBe(false);
    expect(result.error).toContain(id);
    expect(requestLog(t.emu, (m) => m === "POST")).toEqual([]);
    expect(t.emu.snapshot()[made]).toEqual({});
    expect(ourState(t.stack).size).toBe(0);
  });
});
