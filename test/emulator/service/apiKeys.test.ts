import { createHash, randomUUID } from "node:crypto";
import type { RunningEmulator } from "../../../emulator/index";
import { describe, expect, it } from "vitest";
import {
  ISO_MS_UTC,
  basic,
  cloud,
  createKey,
  deliberately,
  result,
  settingsPath,
  start,
  type PublicKey,
} from "./helpers";

const keysPath = (org: string) => `/v1/organizations/${org}/keys`;

/** An emulator, and a key made in a fresh organization with `body` added to its create. */
async function startWithKey(body?: Record<string, unknown>) {
  const emu = await start();
  const org = randomUUID();
  return { emu, org, created: await createKey(emu, org, body) };
}

/** The status of a read of the organization's settings with the key's ID and `secret` (its own by default). */
async function settingsStatus(
  emu: RunningEmulator,
  org: string,
  created: { keyId: string; keySecret: string },
  secret = created.keySecret,
): Promise<number> {
  return (await cloud(emu, "GET", settingsPath(org), undefined, basic(created.keyId, secret))).status;
}

describe("API key create", () => {
  it("answers {key, keyId, keySecret} with the key's public fields", async () => {
    const emu = await start();
    const org = randomUUID();
    const answer = await cloud(emu, "POST", keysPath(org), {
      name: "ci",
      roles: ["developer", "query_endpoints"],
      expireAt: "2999-01-01T00:00:00Z",
      ipAccessList: [{ source: "10.0.0.0/8", description: "office" }],
    });
    expect(answer.status).toBe(200);
    const created = result<{ key: PublicKey; keyId: string; keySecret: string }>(answer);
    expect(Object.keys(created).sort()).toEqual(["key", "keyId", "keySecret"]);
    expect(created.key).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "ci",
      state: "enabled",
      roles: ["developer", "query_endpoints"],
      expireAt: "2999-01-01T00:00:00.000Z",
      usedAt: null,
      createdAt: expect.stringMatching(ISO_MS_UTC),
      keySuffix: created.keyId.slice(-4),
      ipAccessList: [{ source: "10.0.0.0/8", description: "office" }],
    });
    expect(created.keySecret.length).toBeGreaterThanOrEqual(20);
  });

  it("defaults to enabled, never expiring and an empty IP access list", async () => {
    const emu = await start();
    const { key } = await createKey(emu, randomUUID());
    expect(key).toMatchObject({ state: "enabled", expireAt: null, ipAccessList: [] });
  });

  it('creates a disabled key when state is "disabled"', async () => {
    const emu = await start();
    const { key } = await createKey(emu, randomUUID(), { state: "disabled" });
    expect(key.state).toBe("disabled");
  });

  it.each([null, ""])("treats expireAt %j as never expiring", async (expireAt) => {
    const emu = await start();
    const { key } = await createKey(emu, randomUUID(), { expireAt });
    expect(key.expireAt).toBeNull();
  });

  it("accepts expireAt with an offset and answers it in UTC", async () => {
    const emu = await start();
    const { key } = await createKey(emu, randomUUID(), { expireAt: "2999-01-01T02:00:00.5+02:00" });
    expect(key.expireAt).toBe("2999-01-01T00:00:00.500Z");
  });

  it("keeps the secret only as a hash", async () => {
    const emu = await start();
    const created = await createKey(emu, randomUUID());
    expect(JSON.stringify(emu.snapshot())).not.toContain(created.keySecret);
  });

  // Issue 8: as the real service, a hashData key gets no credentials in the answer (the caller
  // made them) and authenticates by hashing the pair presented.
  it("with hashData returns no credentials, stores the hashes, and takes the caller's own pair", async () => {
    const emu = await start();
    const org = randomUUID();
    const b64 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
    const hashData = {
      keyIdHash: b64("CALLERKEYID000000001"),
      keyIdSuffix: "0001",
      keySecretHash: b64("caller-secret"),
    };
    const created = await createKey(emu, org, { hashData });
    expect(created).not.toHaveProperty("keyId");
    expect(created).not.toHaveProperty("keySecret");
    expect(created.key).not.toHaveProperty("hashData");
    expect(created.key.keySuffix).toBe("0001");
    expect(emu.snapshot().keys[created.key.id]?.hashData).toEqual(hashData);
    const get = async (id: string, secret: string) =>
      (
        await fetch(`${emu.url}/v1/organizations/${org}/keys/${created.key.id}`, {
          headers: { authorization: basic(id, secret) },
        })
      ).status;
    expect(await get("CALLERKEYID000000001", "caller-secret")).toBe(200);
    expect(await get("CALLERKEYID000000001", "wrong")).toBe(401);
    expect(await get("", "")).toBe(401);
  });

  it.each([
    ["a hex digest", createHash("sha256").update("x").digest("hex")],
    ["base64 of a shorter digest", createHash("sha1").update("x").digest("base64")],
    ["unpadded base64", createHash("sha256").update("x").digest("base64").slice(0, 43)],
    ["plain text", "a"],
  ])("refuses a hashData hash that is %s, in the service's words", async (_label, hash) => {
    const emu = await start();
    const good = createHash("sha256").update("y").digest("base64");
    const answer = await cloud(emu, "POST", `/v1/organizations/${randomUUID()}/keys`, {
      roles: ["admin"],
      hashData: { keyIdHash: hash, keyIdSuffix: "abcd", keySecretHash: good },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: "hashData.keyIdHash: Not a sha256sum" });
  });
});

describe("API key validation (400)", () => {
  const invalid: Array<[string, Record<string, unknown>]> = [
    ["no roles member", { name: "x" }],
    ["an empty roles list", { roles: [] }],
    ["an unknown role", { roles: ["owner"] }],
    ["a repeated role", { roles: ["admin", "admin"] }],
    ["an unknown state", { roles: ["admin"], state: "paused" }],
    ["expireAt without a time", { roles: ["admin"], expireAt: "2999-01-01" }],
    ["expireAt without Z or offset", { roles: ["admin"], expireAt: "2999-01-01T00:00:00" }],
    ["an impossible expireAt date", { roles: ["admin"], expireAt: "2999-02-30T00:00:00Z" }],
    [
      "an IP source that is a hostname",
      { roles: ["admin"], ipAccessList: [{ source: "example.com", description: "" }] },
    ],
    ["an IP source out of range", { roles: ["admin"], ipAccessList: [{ source: "256.0.0.1", description: "" }] }],
    ["a CIDR prefix above 32", { roles: ["admin"], ipAccessList: [{ source: "10.0.0.0/33", description: "" }] }],
    ["an IP entry without description", { roles: ["admin"], ipAccessList: [{ source: "10.0.0.1" }] }],
    ["hashData missing a field", { roles: ["admin"], hashData: { keyIdHash: "a", keyIdSuffix: "b" } }],
    ["an unknown member", { roles: ["admin"], owner: "me" }],
    ["a name that is not a string", { roles: ["admin"], name: 5 }],
  ];

  it.each(invalid)(
    "rejects %s",
    deliberately(async (_what, body) => {
      const emu = await start({ rateLimits: { cloud: false } });
      const answer = await cloud(emu, "POST", keysPath(randomUUID()), body);
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ status: 400, error: expect.any(String) });
    }),
  );

  it.each(["0.0.0.0/0", "192.168.1.7", "192.168.1.7/32"])("accepts IP source %s", async (source) => {
    const emu = await start();
    const { key } = await createKey(emu, randomUUID(), { ipAccessList: [{ source, description: "d" }] });
    expect(key.ipAccessList).toEqual([{ source, description: "d" }]);
  });

  it("answers 400 when the organization id is not a uuid", async () => {
    const emu = await start();
    expect((await cloud(emu, "POST", keysPath("acme"), { roles: ["admin"] })).status).toBe(400);
  });
});

describe("API key read, patch, delete", () => {
  it("GET answers the key object itself, never the secret", async () => {
    const { emu, org, created } = await startWithKey();
    const answer = await cloud(emu, "GET", `${keysPath(org)}/${created.key.id}`);
    expect(result(answer)).toEqual(created.key);
  });

  it("GET of an unknown key answers 404", async () => {
    const emu = await start();
    const org = randomUUID();
    expect((await cloud(emu, "GET", `${keysPath(org)}/${randomUUID()}`)).status).toBe(404);
  });

  it("GET of another organization's key answers 404", async () => {
    const emu = await start();
    const created = await createKey(emu, randomUUID());
    expect((await cloud(emu, "GET", `${keysPath(randomUUID())}/${created.key.id}`)).status).toBe(404);
  });

  it("PATCH changes only the members sent and answers the key", async () => {
    const { emu, org, created } = await startWithKey({
      name: "old",
      ipAccessList: [{ source: "10.0.0.1", description: "a" }],
    });
    const answer = await cloud(emu, "PATCH", `${keysPath(org)}/${created.key.id}`, {
      name: "new",
      roles: ["developer"],
    });
    expect(answer.status).toBe(200);
    expect(result(answer)).toEqual({ ...created.key, name: "new", roles: ["developer"] });
  });

  it("PATCH with expireAt null removes the expiry", async () => {
    const { emu, org, created } = await startWithKey({ expireAt: "2999-01-01T00:00:00Z" });
    const answer = await cloud(emu, "PATCH", `${keysPath(org)}/${created.key.id}`, { expireAt: null });
    expect(result<PublicKey>(answer).expireAt).toBeNull();
  });

  it.each([
    ["an empty body", {}],
    ["an empty roles list", { roles: [] }],
    ["hashData", { hashData: { keyIdHash: "a", keyIdSuffix: "b", keySecretHash: "c" } }],
    ["an invalid state", { state: "on" }],
  ])(
    "PATCH rejects %s with 400",
    deliberately(async (_what, body) => {
      const { emu, org, created } = await startWithKey();
      expect((await cloud(emu, "PATCH", `${keysPath(org)}/${created.key.id}`, body)).status).toBe(400);
    }),
  );

  it("DELETE answers result {} and the key is gone", async () => {
    const { emu, org, created } = await startWithKey();
    const answer = await cloud(emu, "DELETE", `${keysPath(org)}/${created.key.id}`);
    expect(answer.status).toBe(200);
    expect(result(answer)).toEqual({});
    expect((await cloud(emu, "GET", `${keysPath(org)}/${created.key.id}`)).status).toBe(404);
  });
});

describe("authentication with created keys", () => {
  it("accepts an enabled key and records its usedAt", async () => {
    const { emu, org, created } = await startWithKey();
    const auth = basic(created.keyId, created.keySecret);
    expect((await cloud(emu, "GET", settingsPath(org), undefined, auth)).status).toBe(200);
    const key = result<PublicKey>(await cloud(emu, "GET", `${keysPath(org)}/${created.key.id}`));
    expect(key.usedAt).toMatch(ISO_MS_UTC);
  });

  it("rejects a key created disabled with 401", async () => {
    const { emu, org, created } = await startWithKey({ state: "disabled" });
    expect(await settingsStatus(emu, org, created)).toBe(401);
  });

  it("rejects a key disabled by PATCH with 401", async () => {
    const { emu, org, created } = await startWithKey();
    await cloud(emu, "PATCH", `${keysPath(org)}/${created.key.id}`, { state: "disabled" });
    expect(await settingsStatus(emu, org, created)).toBe(401);
  });

  it("rejects a key past its expireAt with 401", async () => {
    const { emu, org, created } = await startWithKey({ expireAt: new Date(Date.now() - 1000).toISOString() });
    expect(await settingsStatus(emu, org, created)).toBe(401);
  });

  it("rejects a deleted key with 401", async () => {
    const { emu, org, created } = await startWithKey();
    await cloud(emu, "DELETE", `${keysPath(org)}/${created.key.id}`);
    expect(await settingsStatus(emu, org, created)).toBe(401);
  });

  it("rejects a created key with a wrong secret with 401", async () => {
    const { emu, org, created } = await startWithKey();
    expect(await settingsStatus(emu, org, created, `${created.keySecret}x`)).toBe(401);
  });

  it("answers 403 when the client address is not in the key's IP access list", async () => {
    const { emu, org, created } = await startWithKey({
      ipAccessList: [{ source: "10.0.0.0/8", description: "office" }],
    });
    expect(await settingsStatus(emu, org, created)).toBe(403);
  });

  it("accepts the key when the client address matches an IP access list entry", async () => {
    const { emu, org, created } = await startWithKey({
      ipAccessList: [
        { source: "10.0.0.0/8", description: "office" },
        { source: "127.0.0.0/8", description: "loopback" },
      ],
    });
    expect(await settingsStatus(emu, org, created)).toBe(200);
  });

  it("answers 403 when a created key is used on another organization", async () => {
    const emu = await start();
    const created = await createKey(emu, randomUUID());
    expect(
      (await cloud(emu, "GET", settingsPath(randomUUID()), undefined, basic(created.keyId, created.keySecret))).status,
    ).toBe(403);
  });

  it("a created key can create further keys in its organization", async () => {
    const { emu, org, created } = await startWithKey();
    const answer = await cloud(
      emu,
      "POST",
      keysPath(org),
      { roles: ["developer"] },
      basic(created.keyId, created.keySecret),
    );
    expect(answer.status).toBe(200);
  });
});
