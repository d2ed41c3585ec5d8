import { describe, expect, it } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { OutcomeUnknownError, UnexpectedResponseError, PartialFailure } from "../../provider/errors";
import { UNKNOWN } from "../../provider/protocol/properties";
import { cloudAnswer, errorText, mockApiPerTest, requestId, answerOnce, readByGetPerTest } from "../support/mockApi";
import { failure } from "../support/failures";
import {
  CREATED_KEY_ID,
  CREATED_SECRET,
  KEY_PATH as keyPath,
  KEYS_PATH as keysPath,
  KEY_UUID as keyUuid,
  ORG_ID as org,
  keyInputs,
  serviceKey,
  storedKey,
} from "../support/fixtures";

const otherOrg = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const hashData = { keyIdHash: "h-id", keyIdSuffix: "WXYZ", keySecretHash: "h-secret" };

/** The key object as the service returns it. */
function wireKey(overrides: Record<string, unknown> = {}) {
  return { ...serviceKey, ...overrides };
}

/** A create's answer: the key with its credentials. */
const created = (key: Record<string, unknown> = wireKey()) =>
  cloudAnswer({ key, keyId: CREATED_KEY_ID, keySecret: CREATED_SECRET });
/** A read's or an update's answer: the key alone. */
const answered = (key: Record<string, unknown> = wireKey()) => cloudAnswer(key);

const mock = mockApiPerTest();
const seen = mock.seen;

/** One interceptor for one request, recording what was sent. */
function intercept(method: string, path: string, status: number, data: unknown) {
  answerOnce(mock.api.cloud, seen, { method, path }, status, data);
}

/** What the program passes, as the host hands it over. */
const inputs = keyInputs;

/** Outputs as create records them for `inputs` and created(). */
const stored = { ...storedKey, __provider: "serialized" };

describe("ApiKey create", () => {
  it("sends exactly one POST /v1/organizations/{organizationId}/keys", async () => {
    intercept("POST", keysPath, 200, created());
    await provider.create(inputs);
    mock.api.agent.assertNoPendingInterceptors();
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`POST ${keysPath}`]);
  });

  it("sends every argument the program sets, except organizationId, which is in the path", async () => {
    intercept("POST", keysPath, 200, created());
    const ipAccessList = [{ source: "10.0.0.0/8", description: "vpc" }];
    await provider.create({ ...inputs, expireAt: "2030-01-31T00:00:00Z", state: "disabled", ipAccessList, hashData });
    expect(seen[0]?.body).toEqual({
      name: "deployer",
      roles: ["developer"],
      expireAt: "2030-01-31T00:00:00Z",
      state: "disabled",
      ipAccessList,
      hashData,
    });
  });

  it("leaves absent optional arguments out of the body", async () => {
    intercept("POST", keysPath, 200, created());
    await provider.create({ organizationId: org, roles: ["admin"] });
    expect(seen[0]?.body).toEqual({ roles: ["admin"] });
  });

  it('sends an expiry of "" as null: both mean never', async () => {
    intercept("POST", keysPath, 200, created());
    await provider.create({ ...inputs, expireAt: "" });
    expect(seen[0]?.body).toMatchObject({ expireAt: null });
  });

  it("takes the resource id from result.key.id, not the key ID", async () => {
    intercept("POST", keysPath, 200, created());
    expect((await provider.create(inputs)).id).toBe(keyUuid);
  });

  it("returns the arguments, the returned key and its credentials as outputs", async () => {
    const key = wireKey({
      expireAt: "2030-01-31T00:00:00.000Z",
      ipAccessList: [{ source: "10.0.0.0/8", description: "vpc" }],
    });
    intercept("POST", keysPath, 200, created(key));
    const { outs } = await provider.create({
      ...inputs,
      expireAt: "2030-01-31T09:00:00+09:00",
      ipAccessList: [{ source: "10.0.0.0/8", description: "vpc" }],
      hashData,
    });
    expect(outs).toStrictEqual({
      organizationId: org,
      name: "deployer",
      roles: ["developer"],
      expireAt: "2030-01-31T00:00:00.000Z",
      state: "enabled",
      ipAccessList: [{ source: "10.0.0.0/8", description: "vpc" }],
      hashData,
      keyId: CREATED_KEY_ID,
      keySecret: CREATED_SECRET,
      keySuffix: "WXYZ",
      createdAt: "2026-11-22T09:00:00.000Z",
      usedAt: null,
      managedArgs: ["name", "roles", "expireAt", "ipAccessList"],
    });
  });

  it("records state as the program's value when the answer has no state", async () => {
    const { state: _s, ...noState } = wireKey();
    intercept("POST", keysPath, 200, created(noState));
    expect((await provider.create({ ...inputs, state: "disabled" })).outs?.state).toBe("disabled");
  });

  it("records state as enabled when neither the answer nor the program has one", async () => {
    const { state: _s, ...noState } = wireKey();
    intercept("POST", keysPath, 200, created(noState));
    expect((await provider.create(inputs)).outs?.state).toBe("enabled");
  });

  it("keeps a key whose answer lacks the secret in state by its id, with the inputs and what is known", async () => {
    intercept("POST", keysPath, 200, cloudAnswer({ key: wireKey(), keyId: CREATED_KEY_ID }));
    const err = await failure(provider.create(inputs));
    expect(err).toBeInstanceOf(PartialFailure);
    expect((err as PartialFailure).id).toBe(keyUuid);
    expect((err as PartialFailure).properties).toMatchObject({
      ...inputs,
      keyId: CREATED_KEY_ID,
      keySuffix: "WXYZ",
      state: "enabled",
    });
    expect((err as PartialFailure).properties).not.toHaveProperty("keySecret");
  });

  it("says a kept key without its secret cannot be used and that the next up replaces it", async () => {
    intercept("POST", keysPath, 200, cloudAnswer({ key: wireKey(), keyId: CREATED_KEY_ID }));
    const err = await failure(provider.create(inputs));
    expect(String(err)).toContain("without the new key's keySecret");
    expect(String(err)).toContain(`The API key ${keyUuid} was created and is kept in the stack's state`);
    expect(String(err)).toContain("the next pulumi up replaces it with a new key (created before this one is deleted)");
  });

  // Issue 8: a member's shape never fails an answer (this test used to expect a PartialFailure).
  it("takes a key whose members have unexpected shapes, keeping each value as it came and the credentials", async () => {
    intercept("POST", keysPath, 200, created(wireKey({ roles: "developer" })));
    const { id, outs } = await provider.create(inputs);
    expect(id).toBe(keyUuid);
    expect(outs).toMatchObject({ keyId: CREATED_KEY_ID, keySecret: CREATED_SECRET, roles: "developer" });
  });

  it("says a key answered without its id was created but cannot be recorded, naming it, with nothing to keep", async () => {
    intercept("POST", keysPath, 200, cloudAnswer({ keyId: CREATED_KEY_ID, keySecret: CREATED_SECRET }));
    const err = await failure(provider.create(inputs));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err).not.toBeInstanceOf(PartialFailure);
    expect(String(err)).toContain(`POST ${keysPath}: the service answered 200 without the new object's id`);
    expect(String(err)).toContain(`the API key "deployer" may have been created`);
    expect((err as OutcomeUnknownError).cause).toBeInstanceOf(UnexpectedResponseError);
    expect(errorText(err)).not.toContain(CREATED_SECRET);
  });
});

describe("ApiKey read", () => {
  readByGetPerTest();
  it("sends one GET /v1/organizations/{organizationId}/keys/{id} with no body", async () => {
    intercept("GET", keyPath, 200, answered());
    await provider.read(keyUuid, stored);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`GET ${keyPath}`]);
    expect(seen[0]?.body).toBeUndefined();
  });

  it("maps the key in result (not result.key) to outputs", async () => {
    intercept(
      "GET",
      keyPath,
      200,
      answered(
        wireKey({
          usedAt: "2026-11-22T10:00:00.000Z",
          name: "renamed",
          ipAccessList: [{ source: "10.1.0.0/16", description: "lab" }],
        }),
      ),
    );
    const { id, props } = await provider.read(keyUuid, stored);
    expect(id).toBe(keyUuid);
    expect(props).toStrictEqual({
      organizationId: org,
      name: "renamed",
      roles: ["developer"],
      expireAt: null,
      state: "enabled",
      ipAccessList: [{ source: "10.1.0.0/16", description: "lab" }],
      keyId: CREATED_KEY_ID,
      keySecret: CREATED_SECRET,
      keySuffix: "WXYZ",
      createdAt: "2026-11-22T09:00:00.000Z",
      usedAt: "2026-11-22T10:00:00.000Z",
      managedArgs: ["name", "roles"],
    });
  });

  it("keeps the stored keySecret and keyId, which are never returned again", async () => {
    intercept("GET", keyPath, 200, answered());
    const { props } = await provider.read(keyUuid, stored);
    expect(props).toMatchObject({ keySecret: CREATED_SECRET, keyId: CREATED_KEY_ID });
  });

  it("keeps the stored hashData, which the service never returns", async () => {
    intercept("GET", keyPath, 200, answered());
    const result = await provider.read(keyUuid, { ...stored, hashData });
    expect(result.props?.hashData).toEqual(hashData);
    expect(result.inputs?.hashData).toEqual(hashData);
  });

  it("keeps the stored state when the answer has none (the spec does not list it)", async () => {
    const { state: _s, ...noState } = wireKey();
    intercept("GET", keyPath, 200, answered(noState));
    expect((await provider.read(keyUuid, { ...stored, state: "disabled" })).props?.state).toBe("disabled");
  });

  it("returns as inputs only the arguments the program manages, with their live values, and the key's identity", async () => {
    const live = wireKey({ name: "renamed", state: "disabled" });
    intercept("GET", keyPath, 200, answered(live));
    const result = await provider.read(keyUuid, stored);
    const identity = { keyId: stored.keyId, keySuffix: live.keySuffix, createdAt: live.createdAt };
    expect(result.inputs).toEqual({ organizationId: org, name: "renamed", roles: ["developer"], ...identity });
    expect(result.props).toMatchObject({ state: "disabled" });
  });

  it("shows a name or IP list the service answers as null as drift, not as the stored value", async () => {
    const managed = {
      ...stored,
      ipAccessList: [{ source: "10.0.0.0/8", description: "office" }],
      managedArgs: ["name", "roles", "ipAccessList"],
    };
    intercept("GET", keyPath, 200, answered(wireKey({ name: null, ipAccessList: null })));
    const result = await provider.read(keyUuid, managed);
    expect(result.inputs).toMatchObject({ organizationId: org, name: null, roles: ["developer"], ipAccessList: null });
    expect(result.props).toMatchObject({ name: null, ipAccessList: null });
  });

  it("says the key is gone when the service answers 404", async () => {
    intercept("GET", keyPath, 404, { status: 404, error: "no such key", requestId: requestId() });
    expect(await provider.read(keyUuid, stored)).toEqual({});
  });

  it("refuses, in words and without a request, to read a key whose state has no organizationId", async () => {
    const { organizationId: _o, ...orphan } = stored;
    const err = await failure(provider.read(keyUuid, orphan));
    expect(String(err)).toContain("no organizationId");
    expect(seen).toHaveLength(0);
  });
});

describe("ApiKey diff", () => {
  const news = { organizationId: org, name: "deployer", roles: ["developer"], __provider: "serialized" };

  it("sees no change when the managed arguments equal the stored ones, and says so explicitly", async () => {
    const result = await provider.diff(keyUuid, stored, news);
    expect(result).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: false });
  });
  it("does not count a different order of roles as a change", async () => {
    expect(
      await provider.diff(
        keyUuid,
        { ...stored, roles: ["developer", "admin"] },
        { ...news, roles: ["admin", "developer"] },
      ),
    ).toMatchObject({
      changes: false,
    });
  });
  it("does not count a different order of the IP list as a change", async () => {
    const a = { source: "10.0.0.1", description: "a" };
    const b = { source: "10.0.0.2", description: "b" };
    const olds = { ...stored, ipAccessList: [a, b], managedArgs: ["name", "roles", "ipAccessList"] };
    expect(await provider.diff(keyUuid, olds, { ...news, ipAccessList: [b, a] })).toMatchObject({ changes: false });
  });
  it("compares expiries as instants, not as text", async () => {
    const olds = { ...stored, expireAt: "2030-01-31T00:00:00.000Z", managedArgs: ["name", "roles", "expireAt"] };
    expect(await provider.diff(keyUuid, olds, { ...news, expireAt: "2030-01-31T09:00:00+09:00" })).toMatchObject({
      changes: false,
    });
  });
  it('treats an expiry of "" as the stored null', async () => {
    const olds = { ...stored, managedArgs: ["name", "roles", "expireAt"] };
    expect(await provider.diff(keyUuid, olds, { ...news, expireAt: "" })).toMatchObject({ changes: false });
  });
  it.each([
    ["name", "ci"],
    ["roles", ["admin"]],
    ["state", "disabled"],
    ["expireAt", "2031-01-01T00:00:00Z"],
    ["ipAccessList", [{ source: "10.0.0.1", description: "x" }]],
  ])("changes %s in place", async (name, value) => {
    const result = await provider.diff(keyUuid, stored, { ...news, [name]: value });
    expect(result).toMatchObject({ changes: true, replaces: [] });
  });
  it("replaces the key when the organization changes", async () => {
    expect(await provider.diff(keyUuid, stored, { ...news, organizationId: otherOrg })).toMatchObject({
      changes: true,
      replaces: ["organizationId"],
    });
  });
  it("replaces the key when hashData changes", async () => {
    const olds = { ...stored, hashData };
    expect(
      await provider.diff(keyUuid, olds, { ...news, hashData: { ...hashData, keySecretHash: "other" } }),
    ).toMatchObject({
      changes: true,
      replaces: ["hashData"],
    });
  });
  it("replaces the key when hashData is added", async () => {
    expect(await provider.diff(keyUuid, stored, { ...news, hashData })).toMatchObject({ replaces: ["hashData"] });
  });
  it("counts an unknown value as a change in place", async () => {
    expect(await provider.diff(keyUuid, stored, { ...news, name: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
  it("counts an unknown organizationId as a replacement", async () => {
    expect(await provider.diff(keyUuid, stored, { ...news, organizationId: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: ["organizationId"],
    });
  });
  it("counts an argument dropped from the program only as a change of what is managed, never a replacement", async () => {
    const { name: _n, ...withoutName } = news;
    const result = await provider.diff(keyUuid, stored, withoutName);
    expect(result).toMatchObject({ changes: true, replaces: [] });
    expect(result.stables).not.toContain("managedArgs");
  });
});

describe("ApiKey update", () => {
  const news = { organizationId: org, name: "deployer", roles: ["developer"], __provider: "serialized" };

  it("sends one PATCH /v1/organizations/{organizationId}/keys/{id}", async () => {
    intercept("PATCH", keyPath, 200, answered(wireKey({ state: "disabled" })));
    await provider.update(keyUuid, stored, { ...news, state: "disabled" });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`PATCH ${keyPath}`]);
  });

  it("sends every managed argument, changed or not, so an out-of-band change to one is put back too", async () => {
    intercept("PATCH", keyPath, 200, answered(wireKey({ roles: ["admin"] })));
    await provider.update(keyUuid, { ...stored, state: "enabled" }, { ...news, roles: ["admin"], state: "enabled" });
    expect(seen.map((s) => s.body)).toEqual([{ name: "deployer", roles: ["admin"], state: "enabled" }]);
  });

  it("never sends an argument the program does not set", async () => {
    intercept("PATCH", keyPath, 200, answered(wireKey({ roles: ["admin"] })));
    await provider.update(keyUuid, stored, { organizationId: org, roles: ["admin"] });
    expect(seen.map((s) => s.body)).toEqual([{ roles: ["admin"] }]);
  });

  it("sends an expiry set to null, which asks for never", async () => {
    intercept("PATCH", keyPath, 200, answered());
    const olds = { ...stored, expireAt: "2030-01-31T00:00:00.000Z" };
    await provider.update(keyUuid, olds, { ...news, expireAt: null });
    expect(seen.map((s) => s.body)).toEqual([{ name: "deployer", roles: ["developer"], expireAt: null }]);
  });

  it("records the expiry it sent when the answer leaves expireAt out, not the stored one", async () => {
    const { expireAt: _e, ...withoutExpiry } = wireKey();
    intercept("PATCH", keyPath, 200, answered(withoutExpiry));
    const olds = { ...stored, expireAt: "2030-01-31T00:00:00.000Z" };
    const { outs } = await provider.update(keyUuid, olds, { ...news, expireAt: "2031-06-30T00:00:00.000Z" });
    expect(outs?.expireAt).toBe("2031-06-30T00:00:00.000Z");
  });

  it("maps the answer to outputs and keeps keyId and keySecret from the stored outputs", async () => {
    intercept("PATCH", keyPath, 200, answered(wireKey({ state: "disabled", usedAt: "2026-11-22T11:00:00.000Z" })));
    const { outs } = await provider.update(keyUuid, stored, { ...news, state: "disabled" });
    expect(outs).toStrictEqual({
      organizationId: org,
      name: "deployer",
      roles: ["developer"],
      expireAt: null,
      state: "disabled",
      ipAccessList: [],
      keyId: CREATED_KEY_ID,
      keySecret: CREATED_SECRET,
      keySuffix: "WXYZ",
      createdAt: "2026-11-22T09:00:00.000Z",
      usedAt: "2026-11-22T11:00:00.000Z",
      managedArgs: ["name", "roles", "state"],
    });
  });

  it("sends nothing when only the set of managed arguments changed", async () => {
    const { name: _n, ...withoutName } = news;
    await provider.update(keyUuid, stored, withoutName);
    expect(seen).toHaveLength(0);
  });

  it("records the new set of managed arguments when only it changed, keeping the stored values", async () => {
    const { name: _n, ...withoutName } = news;
    const { outs } = await provider.update(keyUuid, stored, withoutName);
    expect(outs).toMatchObject({ managedArgs: ["roles"], keySecret: CREATED_SECRET, name: "deployer" });
  });
});

describe("ApiKey delete", () => {
  it("sends one DELETE /v1/organizations/{organizationId}/keys/{id} with no body", async () => {
    intercept("DELETE", keyPath, 200, cloudAnswer({}));
    await provider.delete(keyUuid, stored);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`DELETE ${keyPath}`]);
    expect(seen[0]?.body).toBeUndefined();
  });

  it("treats a 404 as already gone", async () => {
    intercept("DELETE", keyPath, 404, { status: 404, error: "no such key", requestId: requestId() });
    await expect(provider.delete(keyUuid, stored)).resolves.toBeUndefined();
  });
});
