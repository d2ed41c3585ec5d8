// The ApiKey provider methods against the bundled emulator over real HTTP: the wire bodies the
// provider sends are the ones a strict server accepts, and a whole lifecycle holds together.

import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as provider from "../../provider/apiKey/provider";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { FAST_RETRIES, envFor, setEnv } from "../support/emulatorPerTest";
import { ORG_ID } from "../support/fixtures";

const org = ORG_ID;

let emulator: RunningEmulator;
let restoreEnv = (): void => {};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimits: { cloud: false, alerting: false } });
  restoreEnv = setEnv(envFor("cloud", emulator));
  resetRuntime();
  useRuntime({ retryPolicy: FAST_RETRIES });
});

afterAll(async () => {
  restoreEnv();
  resetRuntime();
  await emulator.close();
});

/** Calls the emulator with the created key's own credentials. */
async function getWith(keyId: unknown, keySecret: unknown, id: string): Promise<number> {
  const res = await fetch(`${emulator.url}/v1/organizations/${org}/keys/${id}`, {
    headers: { authorization: `Basic ${Buffer.from(`${String(keyId)}:${String(keySecret)}`).toString("base64")}` },
  });
  await res.arrayBuffer();
  return res.status;
}

describe("ApiKey against the emulator", () => {
  const args = {
    organizationId: org,
    name: "deployer",
    roles: ["developer"],
    expireAt: "2099-01-31T09:00:00+09:00",
    state: "enabled",
    ipAccessList: [{ source: "127.0.0.1/32", description: "this machine" }],
    __provider: "serialized",
  };
  let id = "";
  let outs: Record<string, unknown> = {};

  it("creates a key whose returned credentials authenticate", async () => {
    const result = await provider.create(args);
    id = result.id;
    outs = { ...result.outs, __provider: "serialized" };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(outs.keyId).not.toBe(id);
    expect(await getWith(outs.keyId, outs.keySecret, id)).toBe(200);
  });

  it("sees no change right after create, though the service rewrote the expiry in UTC", async () => {
    expect(outs.expireAt).toBe("2099-01-31T00:00:00.000Z");
    expect(await provider.diff(id, outs, args)).toMatchObject({ changes: false, replaces: [] });
  });

  it("reads the key back, keeping the secret it no longer returns", async () => {
    const result = await provider.read(id, outs);
    expect(result.id).toBe(id);
    expect(result.props).toMatchObject({
      keySecret: outs.keySecret,
      keyId: outs.keyId,
      name: "deployer",
      roles: ["developer"],
    });
    expect(result.props?.usedAt).toEqual(expect.any(String)); // the authenticated GET above used it
  });

  it("updates in place with a PATCH the server accepts", async () => {
    const news = { ...args, roles: ["developer", "query_endpoints"], state: "disabled" };
    const diff = await provider.diff(id, outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const result = await provider.update(id, outs, news);
    outs = { ...result.outs, __provider: "serialized" };
    expect(outs).toMatchObject({
      state: "disabled",
      roles: ["developer", "query_endpoints"],
      keySecret: expect.any(String),
    });
    expect(await getWith(outs.keyId, outs.keySecret, id)).toBe(401); // disabled keys do not authenticate
  });

  it("deletes the key, after which read says it is gone and a second delete succeeds", async () => {
    await provider.delete(id, outs);
    expect(await provider.read(id, outs)).toEqual({});
    await expect(provider.delete(id, outs)).resolves.toBeUndefined();
  });
});

/** The real service's hash: standard base64 of the raw SHA-256 digest of the UTF-8 text. */
const sha256Base64 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("ApiKey with hashData against the emulator (the program makes the pair)", () => {
  const keyId = "MYKEYID0000000000042";
  const keySecret = "my-own-secret-made-by-the-program";
  const args = {
    organizationId: org,
    name: "hashed",
    roles: ["developer"],
    hashData: { keyIdHash: sha256Base64(keyId), keyIdSuffix: keyId.slice(-4), keySecretHash: sha256Base64(keySecret) },
    __provider: "serialized",
  };

  it("creates the key without credentials in the answer or the outputs; the pair the program made authenticates", async () => {
    const { id, outs } = await provider.create(args);
    expect(outs).not.toHaveProperty("keyId");
    expect(outs).not.toHaveProperty("keySecret");
    expect(outs).toMatchObject({ keySuffix: "0042", hashData: args.hashData });
    expect(await getWith(keyId, keySecret, id)).toBe(200);
    expect(await getWith(keyId, "another-secret", id)).toBe(401);
    expect(await getWith("OTHERKEYID0000000042", keySecret, id)).toBe(401);
    // Read keeps what it cannot learn again and adds no credentials.
    const read = await provider.read(id, { ...outs, __provider: "serialized" });
    expect(read.props).not.toHaveProperty("keySecret");
    expect(read.props).toMatchObject({ keySuffix: "0042", name: "hashed" });
    await provider.delete(id, outs);
  });

  it("is refused, in the service's words, when a hash is not the base64 of a SHA-256 digest", async () => {
    const bad = {
      ...args,
      hashData: { ...args.hashData, keyIdHash: createHash("sha256").update(keyId).digest("hex") },
    };
    const err = await provider.create(bad).then(
      () => expect.fail("expected the create to fail"),
      (e: unknown) => e,
    );
    expect(String(err)).toContain("failed with status 400: hashData.keyIdHash: Not a sha256sum");
  });
});
