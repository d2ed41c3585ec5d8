// ApiKey keyMaterial "local": the provider makes the key ID and secret and sends only their hashes,
// against the emulator over real HTTP with every request body captured on the way out: the secret
// never crosses the network, and the pair works against the service.

import { describe, expect, it } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { ORG_ID, storedKey } from "../support/fixtures";
import { hashDataFor, sha256Base64 } from "../support/hashData";
import { KEYS, keyEmulatorPerTest } from "../support/keyEmulator";

const args = {
  organizationId: ORG_ID,
  name: "ci",
  roles: ["developer"],
  keyMaterial: "local",
  __provider: "serialized",
};

/** The created key's pair, as outputs hold it. */
async function createLocal(): Promise<{ id: string; keyId: string; keySecret: string; outs: Record<string, unknown> }> {
  const { id, outs = {} } = await provider.create(args);
  return { id, keyId: String(outs.keyId), keySecret: String(outs.keySecret), outs };
}

describe('ApiKey keyMaterial "local", against the emulator', () => {
  const service = keyEmulatorPerTest();

  it("outputs a key ID of 20 characters of A-Z and 0-9", async () => {
    const { keyId } = await createLocal();
    expect(keyId).toMatch(/^[A-Z0-9]{20}$/);
  });

  it("outputs a secret of at least 40 URL-safe characters", async () => {
    const { keySecret } = await createLocal();
    expect(/^[A-Za-z0-9_-]{40,}$/.test(keySecret), "the secret is 40+ characters of A-Z a-z 0-9 _ -").toBe(true);
  });

  it("sends one POST whose body holds hashData of the pair and neither the key ID nor the secret", async () => {
    const { keyId, keySecret } = await createLocal();
    expect(service.requests()).toEqual([`POST ${KEYS}`]);
    expect(service.bodies).toHaveLength(1);
    const body = JSON.parse(service.bodies[0] ?? "{}") as Record<string, unknown>;
    expect(body.hashData).toEqual(hashDataFor(keyId, keySecret));
    expect(Object.keys(body).sort()).toEqual(["hashData", "name", "roles"]);
  });

  it("never puts the secret or the key ID in any request body, through a lost answer's recovery too", async () => {
    service.emulator.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 } });
    const { keyId, keySecret } = await createLocal();
    expect(service.bodies.length).toBeGreaterThan(0);
    for (const body of service.bodies) {
      expect(body.includes(keySecret), "the secret in a request body").toBe(false);
      expect(body.includes(keyId), "the key ID in a request body").toBe(false);
    }
  });

  it("makes a pair the service accepts for login", async () => {
    const { keyId, keySecret } = await createLocal();
    expect(await service.statusWithKey(keyId, keySecret)).toBe(200);
  });

  it("records keyMaterial and the suffix of the key ID, and not hashData, which is derived", async () => {
    const { keyId, outs } = await createLocal();
    expect(outs).toMatchObject({ keyMaterial: "local", keySuffix: keyId.slice(-4) });
    expect(outs).not.toHaveProperty("hashData");
  });

  it("gives a different pair to each create", async () => {
    const first = await createLocal();
    const second = await createLocal();
    expect(second.keyId).not.toBe(first.keyId);
    expect(second.keySecret === first.keySecret, "the same secret twice").toBe(false);
  });

  it("sees no change on a diff of the same program after create", async () => {
    const { id, outs } = await createLocal();
    expect(await provider.diff(id, outs, args)).toMatchObject({ changes: false, replaces: [] });
  });

  it("keeps the pair through a read, which the service never returns", async () => {
    const { id, keyId, keySecret, outs } = await createLocal();
    const { props } = await provider.read(id, outs);
    expect(props).toMatchObject({ keyId, keyMaterial: "local" });
    expect(props?.keySecret === keySecret, "the secret kept").toBe(true);
  });

  it("keeps the stored hashes of the pair on the service, not the pair", async () => {
    const { id, keySecret } = await createLocal();
    const stored = service.emulator.snapshot().keys[id];
    expect(stored?.keySecretSha256).toBe("");
    expect(
      stored?.hashData?.keySecretHash === sha256Base64(keySecret),
      "the stored secret hash is the output secret's",
    ).toBe(true);
  });
});

describe("ApiKey keyMaterial in diff and check", () => {
  keyEmulatorPerTest();
  const program = { organizationId: ORG_ID, name: "deployer", roles: ["developer"], __provider: "serialized" };

  it("replaces the key when keyMaterial changes, creating before deleting", async () => {
    const result = await provider.diff("id", storedKey, { ...program, keyMaterial: "local" });
    expect(result).toMatchObject({ changes: true, replaces: ["keyMaterial"], deleteBeforeReplace: false });
  });

  it("replaces the key when keyMaterial goes back to the service", async () => {
    const result = await provider.diff("id", { ...storedKey, keyMaterial: "local" }, program);
    expect(result.replaces).toEqual(["keyMaterial"]);
  });

  it('sees no change from no keyMaterial to "service", the default', async () => {
    expect(await provider.diff("id", storedKey, { ...program, keyMaterial: "service" })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it('refuses keyMaterial "local" with hashData, naming keyMaterial', async () => {
    const { failures } = await provider.check(
      {},
      { ...program, keyMaterial: "local", hashData: hashDataFor("KEYIDKEYIDKEYIDKEY01", "s3cret") },
    );
    expect(failures).toEqual([{ property: "keyMaterial", reason: expect.stringContaining("cannot go with hashData") }]);
  });

  it("refuses a keyMaterial other than service or local, naming the values", async () => {
    const { failures } = await provider.check({}, { ...program, keyMaterial: "client" });
    expect(failures).toEqual([
      { property: "keyMaterial", reason: '[INVALID_INPUT] keyMaterial must be one of "service", "local"' },
    ]);
  });
});
