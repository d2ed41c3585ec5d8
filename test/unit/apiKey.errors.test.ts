import { describe, expect, it } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { ApiError, PartialFailure } from "../../provider/errors";
import {
  CANARY,
  CLOUD_AUTH,
  answerOnce,
  cloudAnswer,
  errorText,
  mockApiPerTest,
  readByGetPerTest,
} from "../support/mockApi";
import { failure } from "../support/failures";
import { unknownCreateTests } from "../support/unknownCreate";
import {
  CREATED_SECRET,
  KEY_PATH as keyPath,
  KEYS_PATH as keysPath,
  KEY_UUID as keyUuid,
  ORG_ID as org,
  keyInputs as inputs,
  storedKey as stored,
} from "../support/fixtures";

const BASIC_VALUE = CLOUD_AUTH.slice("Basic ".length);

const mock = mockApiPerTest();
const seen = mock.seen;

/** Answers one request with a JSON body. */
function answer(method: string, path: string, status: number, body: unknown) {
  answerOnce(mock.api.cloud, seen, { method, path }, status, body);
}

/** The text of an error and its causes, without a PartialFailure's properties (which become state, marked secret). */
function messages(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; Boolean(e) && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { properties: _p, ...fields } = e as Record<string, unknown>;
    parts.push(String(e), (e as Error).stack ?? "", JSON.stringify(fields));
  }
  return parts.join("\n");
}

/** A create's answer without the new key's keyId: the key is kept in state, with an error. */
const partialAnswer = cloudAnswer({
  key: { id: keyUuid, roles: ["developer"], createdAt: 7 },
  keySecret: CREATED_SECRET,
});

describe("ApiKey API errors", () => {
  readByGetPerTest();
  it("name the method, path, status, the service's words and its requestId", async () => {
    answer("POST", keysPath, 400, { status: 400, error: "roles: must hold at least 1 role", requestId: "rid-400" });
    const err = await failure(provider.create(inputs));
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toContain(
      `POST ${keysPath} failed with status 400: roles: must hold at least 1 role (requestId rid-400)`,
    );
  });

  it("never carry the configured key secret, key ID or Basic value, even when the service echoes them", async () => {
    answer("POST", keysPath, 401, {
      status: 401,
      error: `bad credentials ${CANARY.keyId}:${CANARY.keySecret} (${CLOUD_AUTH})`,
      requestId: "rid-401",
    });
    const err = await failure(provider.create(inputs));
    expect(String(err)).toContain("status 401");
    expect(errorText(err)).not.toContain(CANARY.keySecret);
    expect(errorText(err)).not.toContain(CANARY.keyId);
    expect(errorText(err)).not.toContain(BASIC_VALUE);
  });

  it("of read never carry the managed key's stored secret, even when the service echoes it", async () => {
    answer("GET", keyPath, 403, {
      status: 403,
      error: `key secret ${CREATED_SECRET} may not read this key`,
      requestId: "rid-403",
    });
    const err = await failure(provider.read(keyUuid, stored));
    expect(String(err)).toContain(`GET ${keyPath} failed with status 403`);
    expect(errorText(err)).not.toContain(CREATED_SECRET);
  });

  it("of update never carry the managed key's stored secret", async () => {
    answer("PATCH", keyPath, 400, { status: 400, error: `cannot patch key ${CREATED_SECRET}`, requestId: "rid-400" });
    const err = await failure(provider.update(keyUuid, stored, { ...inputs, state: "disabled" }));
    expect(String(err)).toContain(`PATCH ${keyPath} failed with status 400`);
    expect(errorText(err)).not.toContain(CREATED_SECRET);
  });

  it("of delete never carry the managed key's stored secret", async () => {
    answer("DELETE", keyPath, 409, { status: 409, error: `key ${CREATED_SECRET} is in use`, requestId: "rid-409" });
    const err = await failure(provider.delete(keyUuid, stored));
    expect(String(err)).toContain(`DELETE ${keyPath} failed with status 409`);
    expect(errorText(err)).not.toContain(CREATED_SECRET);
  });

  it("never carry the key's hashData, which is secret, even when the service echoes it", async () => {
    const hashData = { keyIdHash: "HASH-KEYID-1f2e3d", keyIdSuffix: "SUFX9", keySecretHash: "HASH-SECRET-4a5b6c" };
    answer("POST", keysPath, 400, {
      status: 400,
      error: `bad hash ${hashData.keySecretHash} for ${hashData.keyIdHash}/${hashData.keyIdSuffix}`,
      requestId: "rid-400",
    });
    const err = await failure(provider.create({ ...inputs, hashData }));
    expect(String(err)).toContain(`POST ${keysPath} failed with status 400`);
    for (const value of Object.values(hashData)) expect(errorText(err)).not.toContain(value);
  });

  it("after a create never carry the created key's secret, even when the answer puts it where errors look", async () => {
    // An answer without the key ID (so the key is kept, with an error) whose requestId repeats the
    // secret: the error quotes requestIds.
    answer("POST", keysPath, 200, {
      requestId: `rid-${CREATED_SECRET}`,
      status: 200,
      result: { key: { id: keyUuid, roles: ["developer"] }, keySecret: CREATED_SECRET },
    });
    const err = await failure(provider.create(inputs));
    expect(err).toBeInstanceOf(PartialFailure);
    expect(messages(err)).toContain("without the new key's keyId");
    expect(messages(err)).not.toContain(CREATED_SECRET);
    expect(messages(err)).not.toContain(CANARY.keySecret);
  });

  it("in a PartialFailure name the created key's id", async () => {
    answer("POST", keysPath, 200, partialAnswer);
    const err = (await failure(provider.create(inputs))) as PartialFailure;
    expect(err.message).toContain(keyUuid);
  });

  it("in a PartialFailure never carry the created key's secret, in the message or the reasons", async () => {
    answer("POST", keysPath, 200, partialAnswer);
    const err = (await failure(provider.create(inputs))) as PartialFailure;
    expect(err.reasons.join("\n")).not.toContain(CREATED_SECRET);
    expect(messages(err)).not.toContain(CREATED_SECRET);
  });

  it("in a PartialFailure keep the created key's secret in properties, which become state marked secret", async () => {
    answer("POST", keysPath, 200, partialAnswer);
    const err = (await failure(provider.create(inputs))) as PartialFailure;
    expect(err.properties.keySecret).toBe(CREATED_SECRET);
  });
});

describe("ApiKey create whose outcome is unknown", () => {
  unknownCreateTests({
    mock,
    area: "cloud",
    path: keysPath,
    unavailable: { status: 503, error: "upstream unavailable", requestId: "rid-503" },
    badRequest: { status: 400, error: "bad roles", requestId: "rid-400" },
    create: () => provider.create(inputs),
    named: 'the API key "deployer"',
    what: "key",
    credential: { name: "configured secret", value: CANARY.keySecret },
  });

  it("names an unnamed key by its roles and organization", async () => {
    answer("POST", keysPath, 503, { status: 503, error: "upstream unavailable", requestId: "rid-503" });
    const { name: _n, ...unnamed } = inputs;
    const err = await failure(provider.create(unnamed));
    expect(String(err)).toContain(`an unnamed API key (roles developer) in organization ${org} may have been created`);
  });
});

describe("ApiKey reads and deletes, which may be repeated", () => {
  readByGetPerTest();
  it("retry a 503 on GET and succeed", async () => {
    answer("GET", keyPath, 503, { status: 503, error: "busy", requestId: "rid-503" });
    answer("GET", keyPath, 200, cloudAnswer({ id: keyUuid, roles: ["developer"] }));
    expect((await provider.read(keyUuid, stored)).id).toBe(keyUuid);
    mock.api.agent.assertNoPendingInterceptors();
  });

  it("retry a 503 on DELETE and succeed", async () => {
    answer("DELETE", keyPath, 503, { status: 503, error: "busy", requestId: "rid-503" });
    answer("DELETE", keyPath, 200, cloudAnswer({}));
    await expect(provider.delete(keyUuid, stored)).resolves.toBeUndefined();
    mock.api.agent.assertNoPendingInterceptors();
  });
});
