// The ApiKey provider methods against the bundled emulator over real HTTP: the wire bodies the
// provider sends are the ones a strict server accepts, and a whole lifecycle holds together.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../emulator";
import * as provider from "../provider/apiKey/provider";
import { resetConfiguration } from "../provider/connection";
import { useDispatcher, useRetryPolicy } from "../provider/http/client";
import { resetLimiters } from "../provider/http/rateLimit";

const org = "0f8fad5b-d9cb-469f-a165-70867728950e";
const ENV_NAMES = ["ALERTPIPE_CLOUD_URL", "ALERTPIPE_CLOUD_KEY_ID", "ALERTPIPE_CLOUD_KEY_SECRET", "ALERTPIPE_CLOUD_RATE_LIMIT"] as const;

let emulator: RunningEmulator;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimits: { cloud: false, alerting: false } });
  for (const name of ENV_NAMES) saved[name] = process.env[name];
  process.env.ALERTPIPE_CLOUD_URL = emulator.url;
  process.env.ALERTPIPE_CLOUD_KEY_ID = emulator.keyId;
  process.env.ALERTPIPE_CLOUD_KEY_SECRET = emulator.keySecret;
  process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "off";
  useDispatcher(undefined);
  useRetryPolicy({ maxAttempts: 2, maxTotalMs: 2_000, baseDelayMs: 1, maxDelayMs: 5 });
  resetConfiguration();
  resetLimiters();
});

afterAll(async () => {
  for (const name of ENV_NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  useRetryPolicy(undefined);
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
    hashData: { keyIdHash: "h1", keyIdSuffix: "s1", keySecretHash: "h2" },
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
    expect(result.props).toMatchObject({ keySecret: outs.keySecret, keyId: outs.keyId, name: "deployer", roles: ["developer"] });
    expect(result.props?.usedAt).toEqual(expect.any(String)); // the authenticated GET above used it
  });

  it("updates in place with a PATCH the server accepts", async () => {
    const news = { ...args, roles: ["developer", "query_endpoints"], state: "disabled" };
    const diff = await provider.diff(id, outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const result = await provider.update(id, outs, news);
    outs = { ...result.outs, __provider: "serialized" };
    expect(outs).toMatchObject({ state: "disabled", roles: ["developer", "query_endpoints"], keySecret: expect.any(String) });
    expect(await getWith(outs.keyId, outs.keySecret, id)).toBe(401); // disabled keys do not authenticate
  });

  it("deletes the key, after which read says it is gone and a second delete succeeds", async () => {
    await provider.delete(id, outs);
    expect(await provider.read(id, outs)).toEqual({});
    await expect(provider.delete(id, outs)).resolves.toBeUndefined();
  });
});
