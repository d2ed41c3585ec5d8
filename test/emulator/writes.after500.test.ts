// Idempotent writes answered 500 after the service committed them, against the emulator over real
// HTTP: each is sent again (retry.ts) and the resource's method succeeds, where before it failed and
// left the run to fail until a later one met no fault. A DELETE's retry meets the 404 of the
// deletion its 500 hid, which is its success.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { alertEmulatorPerTest } from "../support/alertEmulator";
import { emulatorPerTest } from "../support/emulatorPerTest";
import { ORG_ID, PIPE_IDS, tileAlert } from "../support/fixtures";
import { keyEmulatorPerTest } from "../support/keyEmulator";

/** A 500 after commit on the next request of `method` to a path matching `pattern`. */
const after500 = (method: string, pathPattern: RegExp) => ({ failAfterCommit: { method, pathPattern, count: 1 } });
const sent = (requests: string[], method: string) => requests.filter((r) => r.startsWith(`${method} `));

describe("Alert writes answered 500 after commit", () => {
  const service = alertEmulatorPerTest();
  const args = { ...tileAlert, __provider: "serialized" };

  it("an update's PUT is sent again and the update records the new body", async () => {
    const { id, outs } = await alert.create(args);
    service.emulator.setFaults(after500("PUT", /^\/api\/v2\/alerts\/[^/]+$/));
    const { outs: updated } = await alert.update(id, outs ?? {}, { ...args, message: "hot" });
    expect(updated).toMatchObject({ message: "hot" });
    expect(sent(service.requests(), "PUT")).toHaveLength(2);
  });

  it("a delete's DELETE is sent again, its 404 is success, and no alert is left", async () => {
    const { id, outs } = await alert.create(args);
    service.emulator.setFaults(after500("DELETE", /^\/api\/v2\/alerts\/[^/]+$/));
    await alert.delete(id, outs ?? {});
    expect(sent(service.requests(), "DELETE")).toHaveLength(2);
    expect(service.alertIds()).toEqual([]);
  });
});

describe("ApiKey writes answered 500 after commit", () => {
  const service = keyEmulatorPerTest();
  const args = { organizationId: ORG_ID, name: "deployer", roles: ["developer"], __provider: "serialized" };

  it("an update's PATCH is sent again and the update records the new roles", async () => {
    const { id, outs } = await apiKey.create(args);
    service.emulator.setFaults(after500("PATCH", /\/keys\/[^/]+$/));
    const { outs: updated } = await apiKey.update(id, outs ?? {}, { ...args, roles: ["admin"] });
    expect(updated).toMatchObject({ roles: ["admin"] });
    expect(sent(service.requests(), "PATCH")).toHaveLength(2);
  });

  it("a delete's DELETE is sent again, its 404 is success, and no key is left", async () => {
    const { id, outs } = await apiKey.create(args);
    service.emulator.setFaults(after500("DELETE", /\/keys\/[^/]+$/));
    await apiKey.delete(id, outs ?? {});
    expect(sent(service.requests(), "DELETE")).toHaveLength(2);
    expect(service.keyIds()).toEqual([]);
  });
});

describe("PipeSettings writes answered 500 after commit", () => {
  const env = emulatorPerTest({ service: "cloud", helper: "writes.after500" });

  it("the settings PUT is sent again and the create records the settings", async () => {
    env.emulator.setFaults(after500("PUT", /\/settings$/));
    const { outs } = await pipeSettings.create({ ...PIPE_IDS, dbMaxThreads: 8, __provider: "serialized" });
    expect(outs).toMatchObject({ dbMaxThreads: 8 });
    expect(sent(env.requests(), "PUT")).toHaveLength(2);
  });
});
