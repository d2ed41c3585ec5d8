// An ApiKey with importId takes over an existing key instead of creating one, against the
// emulator over real HTTP: one GET, one PATCH only when the live key differs, never a POST; the
// taken-over key has no secret in state; and once taken over, importId no longer matters.

import { describe, expect, it } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { ImportNotFoundError } from "../../provider/errors";
import { resetRuntime } from "../../provider/runtime/runtime";
import { failure } from "../support/failures";
import { ORG_ID } from "../support/fixtures";
import { hashDataFor } from "../support/hashData";
import { KEYS, keyEmulatorPerTest } from "../support/keyEmulator";

const args = { organizationId: ORG_ID, name: "deployer", roles: ["developer"], __provider: "serialized" };
const MISSING_ID = "5a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d";

describe("ApiKey importId, against the emulator", () => {
  const service = keyEmulatorPerTest();

  /** A key made outside the stack, with the request log started afresh after it. */
  async function existing(body: Record<string, unknown>): Promise<string> {
    const { id } = await service.byHand(body);
    service.emulator.resetRequestLog();
    return id;
  }

  it("takes over a key that already is what the program says with one GET and nothing else", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    await provider.create({ ...args, importId: id });
    expect(service.requests()).toEqual([`GET ${KEYS}/${id}`]);
  });

  it("records the taken-over key under the id given, making no other", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const result = await provider.create({ ...args, importId: id });
    expect(result.id).toBe(id);
    expect(service.keyIds()).toEqual([id]);
  });

  it("writes the program's values with one GET and one PATCH when the live key differs", async () => {
    const id = await existing({ name: "set in the console", roles: ["admin"] });
    await provider.create({ ...args, importId: id });
    expect(service.requests()).toEqual([`GET ${KEYS}/${id}`, `PATCH ${KEYS}/${id}`]);
  });

  it("leaves the live key as the program says after a take-over that differed", async () => {
    const id = await existing({ name: "deployer", roles: ["admin", "developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    expect(service.emulator.snapshot().keys[id]?.roles).toEqual(["developer"]);
    expect(outs).toMatchObject({ roles: ["developer"], createdAt: expect.any(String) });
  });

  it("leaves alone what the program does not set (a state disabled in the console)", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"], state: "disabled" });
    await provider.create({ ...args, importId: id });
    expect(service.emulator.snapshot().keys[id]?.state).toBe("disabled");
  });

  it("records no key ID or secret, and the suffix and creation time of the GET", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    const live = service.emulator.snapshot().keys[id];
    expect(outs).toMatchObject({
      keyId: null,
      keySecret: null,
      keySuffix: live?.keySuffix,
      createdAt: live?.createdAt,
    });
  });

  it("fails naming the missing id and saying nothing was created, sending no POST", async () => {
    const err = await failure(provider.create({ ...args, importId: MISSING_ID }));
    expect(err).toBeInstanceOf(ImportNotFoundError);
    expect(String(err)).toContain(`importId "${MISSING_ID}"`);
    expect(String(err)).toContain("no API key with that id");
    expect(String(err)).toContain("Nothing was created");
    expect(service.requests()).toEqual([`GET ${KEYS}/${MISSING_ID}`]);
  });

  it("has a stable code for a missing id", async () => {
    const err = await failure(provider.create({ ...args, importId: MISSING_ID }));
    expect((err as ImportNotFoundError).code).toBe("IMPORT_NOT_FOUND");
  });

  it("sees no change when importId is changed after the take-over", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    expect(await provider.diff(id, outs ?? {}, { ...args, importId: MISSING_ID })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("sees no change when importId is removed after the take-over", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    expect(await provider.diff(id, { ...outs, importId: id }, args)).toMatchObject({ changes: false, replaces: [] });
  });

  it("refuses in diff a replacement while importId is still set, naming importId and what replaces", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    const err = await failure(provider.diff(id, outs ?? {}, { ...args, importId: id, keepers: { rotation: "2" } }));
    expect(err).toMatchObject({ code: "IMPORT_ID_ON_REPLACE" });
    expect(String(err)).toMatch(
      /importId is still set on this API key .*the change to keepers replaces it.*Remove importId/,
    );
  });

  it("replaces a taken-over key once importId is gone from the program", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    expect(await provider.diff(id, outs ?? {}, { ...args, keepers: { rotation: "2" } })).toMatchObject({
      changes: true,
      replaces: ["keepers"],
    });
  });

  it("does not record importId among the outputs", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    expect(outs).not.toHaveProperty("importId");
  });

  it("deletes the taken-over key on a later run's delete, as any other", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    resetRuntime(); // a later run is a new process
    await provider.delete(id, outs ?? {});
    expect(service.keyIds()).toEqual([]);
  });

  it("keeps a key that a replacement took over again in the same run (pulumi up --replace with importId still set)", async () => {
    const id = await existing({ name: "deployer", roles: ["developer"] });
    const { outs } = await provider.create({ ...args, importId: id });
    await provider.delete(id, outs ?? {});
    expect(service.keyIds()).toEqual([id]);
  });
});

describe("ApiKey importId in check", () => {
  // check reads the connection settings, which the emulator's environment provides.
  keyEmulatorPerTest();

  it("keeps importId for a create, which uses it", async () => {
    const result = await provider.check({}, { ...args, importId: MISSING_ID });
    expect(result.inputs).toMatchObject({ importId: MISSING_ID });
  });

  it("keeps importId once the key exists, so diff can see it", async () => {
    const result = await provider.check(args, { ...args, importId: MISSING_ID });
    expect(result.inputs).toMatchObject({ importId: MISSING_ID });
  });

  it("refuses an importId that is not a uuid, naming the property", async () => {
    const result = await provider.check({}, { ...args, importId: "deployer" });
    expect(result.failures).toEqual([
      { property: "importId", reason: "[INVALID_INPUT] importId must be a uuid (8-4-4-4-12 hex digits)" },
    ]);
  });

  it("refuses an importId that is not a string, naming the property", async () => {
    const result = await provider.check({}, { ...args, importId: 42 });
    expect(result.failures).toEqual([
      { property: "importId", reason: "[INVALID_INPUT] importId must be a uuid string" },
    ]);
  });

  it("refuses importId with hashData, naming importId", async () => {
    const result = await provider.check(
      {},
      { ...args, importId: MISSING_ID, hashData: hashDataFor("KEYIDKEYIDKEYIDKEY01", "s3cret") },
    );
    expect(result.failures).toEqual([
      { property: "importId", reason: expect.stringContaining("cannot go with hashData") },
    ]);
  });

  it('refuses importId with keyMaterial "local", naming importId', async () => {
    const result = await provider.check({}, { ...args, importId: MISSING_ID, keyMaterial: "local" });
    expect(result.failures).toEqual([
      { property: "importId", reason: expect.stringContaining('cannot go with keyMaterial "local"') },
    ]);
  });
});
