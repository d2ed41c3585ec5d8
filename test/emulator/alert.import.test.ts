// An Alert with importId takes over an existing alert instead of creating one, against the
// emulator over real HTTP: one GET, one PUT only when the live alert differs, never a POST; and
// once taken over, importId no longer matters.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as provider from "../../provider/alert/provider";
import { ImportNotFoundError } from "../../provider/errors";
import { resetRuntime } from "../../provider/runtime/runtime";
import { alertEmulatorPerTest } from "../support/alertEmulator";
import { setEnv } from "../support/emulatorPerTest";
import { failure } from "../support/failures";
import { tileAlert } from "../support/fixtures";

const args = { ...tileAlert, __provider: "serialized" };
const MISSING_ID = "0123456789abcdef01234567";

describe("Alert importId, against the emulator", () => {
  const service = alertEmulatorPerTest();
  // The contract's service, said in the config: its dashboards are outside its API, so a tile alert
  // asks nothing before its write (issue 45).
  let restore: () => void = () => undefined;
  beforeEach(() => {
    restore = setEnv({ ALERTPIPE_ALERTING_DIALECT: "contract" });
  });
  afterEach(() => restore());

  /** An alert made outside the stack, with the request log started afresh after it. */
  async function existing(body: Record<string, unknown>): Promise<string> {
    const id = await service.byHand(body);
    service.emulator.resetRequestLog();
    return id;
  }

  it("takes over an alert that already is what the program says with one GET and nothing else", async () => {
    const id = await existing(tileAlert);
    await provider.create({ ...args, importId: id });
    expect(service.requests()).toEqual([`GET /api/v2/alerts/${id}`]);
  });

  it("records the taken-over alert under the id given, making no other", async () => {
    const id = await existing(tileAlert);
    const result = await provider.create({ ...args, importId: id });
    expect(result.id).toBe(id);
    expect(service.alertIds()).toEqual([id]);
  });

  it("writes the program's values with one GET and one PUT when the live alert differs", async () => {
    const id = await existing({ ...tileAlert, threshold: 50, message: "set in the UI" });
    await provider.create({ ...args, importId: id });
    expect(service.requests()).toEqual([`GET /api/v2/alerts/${id}`, `PUT /api/v2/alerts/${id}`]);
  });

  it("leaves the live alert as the program says after a take-over that differed", async () => {
    const id = await existing({ ...tileAlert, threshold: 50 });
    const { outs } = await provider.create({ ...args, importId: id });
    expect(service.emulator.snapshot().alerts[id]).toMatchObject({ threshold: 90 });
    expect(outs).toMatchObject({ threshold: 90, createdAt: expect.any(String) });
  });

  it("fails naming the missing id and saying nothing was created, sending no POST", async () => {
    const err = await failure(provider.create({ ...args, importId: MISSING_ID }));
    expect(err).toBeInstanceOf(ImportNotFoundError);
    expect(String(err)).toContain(`importId "${MISSING_ID}"`);
    expect(String(err)).toContain("Nothing was created");
    expect(service.requests()).toEqual([`GET /api/v2/alerts/${MISSING_ID}`]);
  });

  it("has a stable code for a missing id", async () => {
    const err = await failure(provider.create({ ...args, importId: MISSING_ID }));
    expect((err as ImportNotFoundError).code).toBe("IMPORT_NOT_FOUND");
  });

  it("sees no change when importId is changed after the take-over", async () => {
    const id = await existing(tileAlert);
    const { outs } = await provider.create({ ...args, importId: id });
    expect(await provider.diff(id, outs, { ...args, importId: MISSING_ID })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("sees no change when importId is removed after the take-over", async () => {
    const id = await existing(tileAlert);
    const { outs } = await provider.create({ ...args, importId: id });
    expect(await provider.diff(id, { ...outs, importId: id }, args)).toMatchObject({ changes: false, replaces: [] });
  });

  it("keeps an alert that a replacement took over again in the same run (pulumi up --replace with importId still set)", async () => {
    const id = await existing(tileAlert);
    await provider.create({ ...args, importId: id });
    await provider.delete(id, {});
    expect(service.alertIds()).toEqual([id]);
  });

  it("deletes the taken-over alert on a later run's delete", async () => {
    const id = await existing(tileAlert);
    await provider.create({ ...args, importId: id });
    resetRuntime(); // a later run is a new process
    await provider.delete(id, {});
    expect(service.alertIds()).toEqual([]);
  });

  it("does not record importId among the outputs", async () => {
    const id = await existing(tileAlert);
    const { outs } = await provider.create({ ...args, importId: id });
    expect(outs).not.toHaveProperty("importId");
  });
});

describe("Alert importId in check", () => {
  // check reads the connection settings, which the emulator's environment provides.
  alertEmulatorPerTest();

  it("keeps importId for a create, which uses it", async () => {
    const result = await provider.check({}, { ...args, importId: "65f0c1a2b3c4d5e6f7a8b9c0" });
    expect(result.inputs).toMatchObject({ importId: "65f0c1a2b3c4d5e6f7a8b9c0" });
  });

  it("keeps importId once the alert exists, as for a create (diff never compares it)", async () => {
    const result = await provider.check(args, { ...args, importId: "65f0c1a2b3c4d5e6f7a8b9c0" });
    expect(result.inputs).toMatchObject({ importId: "65f0c1a2b3c4d5e6f7a8b9c0" });
  });

  it("refuses an empty importId, naming the property", async () => {
    const result = await provider.check({}, { ...args, importId: "" });
    expect(result.failures).toEqual([
      { property: "importId", reason: "[INVALID_INPUT] importId must be a non-empty string" },
    ]);
  });

  it("refuses an importId that is not a string, naming the property", async () => {
    const result = await provider.check({}, { ...args, importId: 42 });
    expect(result.failures).toEqual([
      { property: "importId", reason: "[INVALID_INPUT] importId must be a non-empty string" },
    ]);
  });
});
