import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as provider from "../provider/apiKey/provider";
import { PartialFailure, UNKNOWN } from "../provider/lifecycle";
import { OutcomeUnknownError } from "../provider/http/errors";
import { CANARY, CLOUD_AUTH, errorText, mockApi, requestId, type MockApi } from "./support/mockApi";

const org = "0f8fad5b-d9cb-469f-a165-70867728950e";
const keyUuid = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const keysPath = `/v1/organizations/${org}/keys`;
const keyPath = `${keysPath}/${keyUuid}`;
const CREATED_SECRET = "created-key-secret-CANARY-0b5e";

function wireKey(overrides: Record<string, unknown> = {}) {
  return {
    id: keyUuid,
    name: "deployer",
    state: "enabled",
    roles: ["developer"],
    expireAt: null,
    usedAt: null,
    createdAt: "2026-11-22T09:00:00.000Z",
    keySuffix: "WXYZ",
    ipAccessList: [],
    ...overrides,
  };
}

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

let api: MockApi;
let seen: Seen[];

beforeEach(() => {
  api = mockApi();
  seen = [];
});
afterEach(async () => {
  await api.close();
});

function intercept(method: string, path: string, status: number, data: unknown) {
  api.cloud.intercept({ path, method }).reply((opts) => {
    const body = typeof opts.body === "string" ? (JSON.parse(opts.body) as unknown) : undefined;
    seen.push({ method: opts.method, path: opts.path, headers: opts.headers as Record<string, string>, body });
    return { statusCode: status, data: JSON.stringify(data), responseOptions: { headers: { "content-type": "application/json" } } };
  });
}

const created = (key = wireKey()) => ({ requestId: requestId(), status: 200, result: { key, keyId: "KEYIDABCDEFGHIJWXYZ", keySecret: CREATED_SECRET } });
const answered = (key = wireKey()) => ({ requestId: requestId(), status: 200, result: key });

const inputs = { organizationId: org, name: "deployer", roles: ["developer"], __provider: "serialized" };

describe("ApiKey create", () => {
  it("sends one POST with the arguments the program sets, with Basic auth", async () => {
    intercept("POST", keysPath, 200, created());
    await provider.create({ ...inputs, expireAt: "", ipAccessList: [{ source: "10.0.0.0/8", description: "vpc" }] });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.body).toEqual({ name: "deployer", roles: ["developer"], expireAt: null, ipAccessList: [{ source: "10.0.0.0/8", description: "vpc" }] });
    expect(seen[0]?.headers.authorization).toBe(CLOUD_AUTH);
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    expect(seen[0]?.headers["user-agent"]).toMatch(/^pulumi-alertpipe\//);
  });

  it("uses the key's uuid as id and keeps keyId and keySecret in outputs", async () => {
    intercept("POST", keysPath, 200, created());
    const result = await provider.create(inputs);
    expect(result.id).toBe(keyUuid);
    expect(result.outs).toMatchObject({ keyId: "KEYIDABCDEFGHIJWXYZ", keySecret: CREATED_SECRET, keySuffix: "WXYZ", state: "enabled", roles: ["developer"], managedArgs: ["name", "roles"] });
  });

  it("keeps hashData in outputs (the class marks it secret)", async () => {
    intercept("POST", keysPath, 200, created());
    const hashData = { keyIdHash: "h1", keyIdSuffix: "s", keySecretHash: "h2" };
    const result = await provider.create({ ...inputs, hashData });
    expect(seen[0]?.body).toMatchObject({ hashData });
    expect(result.outs?.hashData).toEqual(hashData);
  });

  it("keeps a created key whose answer lacks the secret in state, by id, instead of orphaning it", async () => {
    intercept("POST", keysPath, 200, { requestId: requestId(), status: 200, result: { key: wireKey(), keyId: "KEYID" } });
    const err = await provider.create(inputs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartialFailure);
    expect((err as PartialFailure).id).toBe(keyUuid);
    expect((err as PartialFailure).properties).toMatchObject({ organizationId: org, name: "deployer", __provider: "serialized" });
  });

  it("does not retry a POST answered 503 and says the named key may have been created", async () => {
    intercept("POST", keysPath, 503, { status: 503, error: "unavailable", requestId: "rid-503" });
    const err = await provider.create(inputs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(String(err)).toContain('the API key "deployer" may have been created');
    expect(seen).toHaveLength(1);
  });

  it("names the method, path, status, message and requestId of a refusal, never the credentials", async () => {
    intercept("POST", keysPath, 400, { status: 400, error: `roles: invalid (auth was ${CLOUD_AUTH})`, requestId: "rid-400" });
    const err = await provider.create(inputs).catch((e: unknown) => e);
    expect(String(err)).toMatch(new RegExp(`POST ${keysPath} failed with status 400: roles: invalid .*rid-400`));
    expect(errorText(err)).not.toContain(CANARY.keySecret);
    expect(errorText(err)).not.toContain(CLOUD_AUTH.slice(6));
  });
});

const stored = {
  organizationId: org,
  name: "deployer",
  roles: ["developer"],
  expireAt: null,
  state: "enabled",
  ipAccessList: [],
  keyId: "KEYIDABCDEFGHIJWXYZ",
  keySecret: CREATED_SECRET,
  keySuffix: "WXYZ",
  createdAt: "2026-11-22T09:00:00.000Z",
  usedAt: null,
  managedArgs: ["name", "roles"],
};

describe("ApiKey read", () => {
  it("GETs the key and keeps the stored secret, which is never returned again", async () => {
    intercept("GET", keyPath, 200, answered(wireKey({ usedAt: "2026-11-22T10:00:00.000Z" })));
    const result = await provider.read(keyUuid, stored);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`GET ${keyPath}`]);
    expect(result.props).toMatchObject({ keySecret: CREATED_SECRET, keyId: "KEYIDABCDEFGHIJWXYZ", usedAt: "2026-11-22T10:00:00.000Z" });
  });

  it("reports drift through inputs only for the arguments the program manages", async () => {
    intercept("GET", keyPath, 200, answered(wireKey({ name: "renamed", state: "disabled" })));
    const result = await provider.read(keyUuid, stored);
    expect(result.inputs).toEqual({ organizationId: org, name: "renamed", roles: ["developer"] });
    expect(result.props).toMatchObject({ state: "disabled" });
  });

  it("says the key is gone when the service answers 404", async () => {
    intercept("GET", keyPath, 404, { status: 404, error: "no such key", requestId: "rid" });
    expect(await provider.read(keyUuid, stored)).toEqual({});
  });
});

describe("ApiKey diff", () => {
  const news = { organizationId: org, name: "deployer", roles: ["developer"] };

  it("sees no change when the managed arguments equal the stored ones", async () => {
    expect(await provider.diff(keyUuid, stored, news)).toMatchObject({ changes: false, replaces: [] });
  });
  it("changes in place when roles change, whatever their order", async () => {
    expect(await provider.diff(keyUuid, { ...stored, roles: ["developer", "admin"] }, { ...news, roles: ["admin", "developer"] })).toMatchObject({ changes: false });
    expect(await provider.diff(keyUuid, stored, { ...news, roles: ["admin"] })).toMatchObject({ changes: true, replaces: [] });
  });
  it("compares expiries as instants, not as text", async () => {
    const olds = { ...stored, expireAt: "2030-01-31T00:00:00.000Z", managedArgs: ["name", "roles", "expireAt"] };
    expect(await provider.diff(keyUuid, olds, { ...news, expireAt: "2030-01-31T09:00:00+09:00" })).toMatchObject({ changes: false });
  });
  it("replaces when the organization changes", async () => {
    expect(await provider.diff(keyUuid, stored, { ...news, organizationId: "7c9e6679-7425-40de-944b-e07fc1f90ae7" })).toMatchObject({ changes: true, replaces: ["organizationId"] });
  });
  it("replaces when hashData changes", async () => {
    expect(await provider.diff(keyUuid, stored, { ...news, hashData: { keyIdHash: "a", keyIdSuffix: "b", keySecretHash: "c" } })).toMatchObject({ replaces: ["hashData"] });
  });
  it("counts an unknown value as a change", async () => {
    expect(await provider.diff(keyUuid, stored, { ...news, name: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("ApiKey update", () => {
  it("PATCHes only the managed arguments that changed", async () => {
    intercept("PATCH", keyPath, 200, answered(wireKey({ state: "disabled" })));
    const result = await provider.update(keyUuid, stored, { organizationId: org, name: "deployer", roles: ["developer"], state: "disabled" });
    expect(seen.map((s) => s.body)).toEqual([{ state: "disabled" }]);
    expect(result.outs).toMatchObject({ state: "disabled", keySecret: CREATED_SECRET, managedArgs: ["name", "roles", "state"] });
  });

  it("never sends an argument removed from the program", async () => {
    intercept("PATCH", keyPath, 200, answered(wireKey({ roles: ["admin"] })));
    await provider.update(keyUuid, stored, { organizationId: org, roles: ["admin"] });
    expect(seen.map((s) => s.body)).toEqual([{ roles: ["admin"] }]);
  });
});

describe("ApiKey delete", () => {
  it("DELETEs the key", async () => {
    intercept("DELETE", keyPath, 200, { requestId: requestId(), status: 200, result: {} });
    await provider.delete(keyUuid, stored);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`DELETE ${keyPath}`]);
  });
  it("treats a 404 as already gone", async () => {
    intercept("DELETE", keyPath, 404, { status: 404, error: "no such key", requestId: "rid" });
    await expect(provider.delete(keyUuid, stored)).resolves.toBeUndefined();
  });
  it("never puts the stored key secret in an error", async () => {
    intercept("DELETE", keyPath, 500, { status: 500, error: "boom", requestId: "rid" });
    const err = await provider.delete(keyUuid, stored).catch((e: unknown) => e);
    expect(String(err)).toContain("500");
    expect(errorText(err)).not.toContain(CREATED_SECRET);
  });
});
