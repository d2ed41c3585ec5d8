// Lost create answers recovered during `pulumi up` on the real Pulumi engine (the CLI via the
// Automation API) against the emulator's faults after commit: the service made the object but the
// answer never arrived (connection cut, or a 500). The provider looks for what it made instead of
// failing or making a second one: the up succeeds with one object on the service, in state, and
// the user is told what was recovered.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, RunResult } from "../support/engine";
import { changes, isCredentialCheck, ourState, sharedStack, statusWithKey, succeeded, told } from "../support/engine";
import { ALERTS_PATH, KEYS_PATH, ORG_ID } from "../support/fixtures";
import { DEPLOYER_KEY, LAG_ALERT, keyOutputs } from "../support/programs";

/**
 * "METHOD path status" of the requests to one area's paths, in answer order (0: cut, no answer), but
 * the credentials' checks (the check's `GET /api/v2/alerts?limit=1`), which are no part of a recovery.
 */
function answered(emu: RunningEmulator, prefix: string): string[] {
  return emu.requests
    .filter((r) => r.path.startsWith(prefix) && !isCredentialCheck(r))
    .map((r) => `${r.method} ${r.path} ${r.status}`);
}

const isWrite = (line: string) => !line.startsWith("GET ");

describe("an alert's 500 after commit and a service-made key's cut answer, recovered in one up", () => {
  const t = sharedStack("recovery", async ({ Alert, ApiKey }) => {
    const key = new ApiKey("deployer", { ...DEPLOYER_KEY, roles: ["developer", "query_endpoints"] });
    const alert = new Alert("lag", { ...LAG_ALERT, message: "Ingest is behind" });
    return { ...keyOutputs(key), alertId: alert.id };
  });
  let up: RunResult;

  beforeAll(() => {
    t.emu.setFaults({
      cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 },
      failAfterCommit: { method: "POST", pathPattern: /^\/api\/v2\/alerts$/, count: 1 },
    });
  });

  it("succeeds although both POSTs lost their answers", async () => {
    up = succeeded(await t.stack.up());
    expect(changes(up)).toEqual(["create deployer", "create lag"]);
  });

  it("finds the alert the failed POST made by listing, and sends no second POST", () => {
    const log = answered(t.emu, ALERTS_PATH);
    expect(log.filter(isWrite)).toEqual([`POST ${ALERTS_PATH} 500`]);
    expect(log.slice(0, 2)).toEqual([`POST ${ALERTS_PATH} 500`, `GET ${ALERTS_PATH} 200`]);
  });

  it("leaves exactly one alert on the service, the one in state", () => {
    const ids = Object.keys(t.emu.snapshot().alerts);
    expect(ids).toHaveLength(1);
    expect(ourState(t.stack).get("lag")?.id).toBe(ids[0]);
    expect(up.outputs.alertId?.value).toBe(ids[0]);
  });

  it("deletes the key whose secret was lost, found by listing, and makes it again once", () => {
    const log = answered(t.emu, KEYS_PATH);
    expect(log).toHaveLength(4);
    expect(log[0]).toBe(`POST ${KEYS_PATH} 0`);
    expect(log[1]).toBe(`GET ${KEYS_PATH} 200`);
    expect(log[2]).toMatch(new RegExp(`^DELETE ${KEYS_PATH}/[0-9a-f-]{36} 200$`));
    expect(log[3]).toBe(`POST ${KEYS_PATH} 200`);
  });

  it("leaves exactly one key on the service, the one made again, in state, and its secret in state works", async () => {
    const deleted = answered(t.emu, KEYS_PATH)[2]?.split(" ")[1]?.split("/").pop();
    const ids = Object.keys(t.emu.snapshot().keys);
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(deleted);
    expect(ourState(t.stack).get("deployer")?.id).toBe(ids[0]);
    expect(up.outputs.keyUuid?.value).toBe(ids[0]);
    const keyId = up.outputs.keyId?.value;
    const keySecret = up.outputs.keySecret?.value;
    expect(typeof keyId).toBe("string");
    expect(typeof keySecret).toBe("string");
    expect(await statusWithKey(t.emu, ORG_ID, String(keyId), String(keySecret))).toBe(200);
  });

  it("tells the user in the engine's output what was recovered, naming each object found", () => {
    const said = told(up);
    const deleted = answered(t.emu, KEYS_PATH)[2]?.split(" ")[1]?.split("/").pop() ?? "";
    expect(said).toContain("lost its answer");
    expect(said).toContain(Object.keys(t.emu.snapshot().alerts)[0]);
    expect(said).toContain(deleted);
    // The key found is not the key kept: the user is told it was deleted and made again.
    expect(said).toContain("making the key again");
  });

  it("changes nothing on a second up", async () => {
    t.emu.resetRequestLog();
    const result = succeeded(await t.stack.up());
    expect(changes(result)).toEqual([]);
    expect(t.emu.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("leaves the service empty after destroy", async () => {
    succeeded(await t.stack.destroy());
    expect(t.emu.snapshot().alerts).toEqual({});
    expect(t.emu.snapshot().keys).toEqual({});
  });
});

describe("a locally made key's cut answer, recovered by its suffix", () => {
  const t = sharedStack("recovery-local", async ({ ApiKey }) =>
    keyOutputs(new ApiKey("deployer", { ...DEPLOYER_KEY, keyMaterial: "local" })),
  );
  let up: RunResult;

  beforeAll(() => t.emu.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 } }));

  it("keeps the key it found, with no DELETE and no second POST", async () => {
    up = succeeded(await t.stack.up());
    expect(answered(t.emu, KEYS_PATH)).toEqual([`POST ${KEYS_PATH} 0`, `GET ${KEYS_PATH} 200`]);
  });

  it("leaves exactly one key on the service, in state, whose locally made pair works", async () => {
    const keys = Object.values(t.emu.snapshot().keys);
    expect(keys).toHaveLength(1);
    expect(ourState(t.stack).get("deployer")?.id).toBe(keys[0]?.id);
    const keyId = String(up.outputs.keyId?.value);
    expect(keys[0]?.keySuffix).toBe(keyId.slice(-4));
    expect(await statusWithKey(t.emu, ORG_ID, keyId, String(up.outputs.keySecret?.value))).toBe(200);
  });

  it("changes nothing on a second up", async () => {
    t.emu.resetRequestLog();
    const result = succeeded(await t.stack.up());
    expect(changes(result)).toEqual([]);
    expect(t.emu.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});
