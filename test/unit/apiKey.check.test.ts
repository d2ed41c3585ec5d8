import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { hashDataFor } from "../support/hashData";
import { UNKNOWN } from "../../provider/protocol/properties";
import { checkFailures, where } from "../support/failures";
import { connectionEnvPerFile } from "../support/mockApi";
import { ORG_ID } from "../support/fixtures";
import { useRuntime } from "../../provider/runtime/runtime";

connectionEnvPerFile();

const valid = { organizationId: ORG_ID, roles: ["developer"] };

const failuresFor = checkFailures(provider.check, valid);

async function propertiesRefused(props: Record<string, unknown>): Promise<string[]> {
  return (await failuresFor(props)).map((f) => where(f));
}

describe("ApiKey check: roles", () => {
  it("accepts a single role", async () => {
    expect(await failuresFor({ roles: ["admin"] })).toEqual([]);
  });
  it("accepts all three roles", async () => {
    expect(await failuresFor({ roles: ["admin", "developer", "query_endpoints"] })).toEqual([]);
  });
  it("refuses an empty list, naming the allowed roles", async () => {
    const [f] = await failuresFor({ roles: [] });
    expect(where(f)).toBe("roles");
    expect(f?.reason).toContain('"admin", "developer", "query_endpoints"');
  });
  it("refuses an empty list, naming assignedRoleIds, the way that is not deprecated", async () => {
    const [f] = await failuresFor({ roles: [] });
    expect(f?.reason).toContain("assignedRoleIds");
  });
  it("refuses an unknown role at its index, naming the allowed roles", async () => {
    const failures = await failuresFor({ roles: ["developer", "owner"] });
    expect(failures.map((f) => where(f))).toEqual(["roles[1]"]);
    expect(failures[0]?.reason).toContain('"admin", "developer", "query_endpoints"');
  });
  it("refuses a repeated role", async () => {
    const failures = await failuresFor({ roles: ["admin", "admin"] });
    expect(failures).toEqual([{ property: "roles", reason: expect.stringContaining("must not repeat") }]);
  });
  it("refuses a key with neither roles nor assignedRoleIds, at assignedRoleIds", async () => {
    const { roles: _omit, ...rest } = valid;
    const failures = (await provider.check({}, rest)).failures ?? [];
    expect(failures.map((f) => where(f))).toEqual(["assignedRoleIds"]);
  });
  it("refuses roles given as a single string instead of a list", async () => {
    expect(await propertiesRefused({ roles: "admin" })).toEqual(["roles"]);
  });
});

describe("ApiKey check: state", () => {
  it.each(["enabled", "disabled"])("accepts %s", async (state) => {
    expect(await failuresFor({ state })).toEqual([]);
  });
  it("refuses anything else, naming both values", async () => {
    const [f] = await failuresFor({ state: "paused" });
    expect(f).toEqual({ property: "state", reason: 'state must be one of "enabled", "disabled"' });
  });
});

describe("ApiKey check: expireAt", () => {
  it("accepts a date-time in UTC (Z)", async () => {
    expect(await failuresFor({ expireAt: "2030-01-31T00:00:00Z" })).toEqual([]);
  });
  it("accepts a date-time with an offset", async () => {
    expect(await failuresFor({ expireAt: "2030-01-31T09:00:00+09:00" })).toEqual([]);
    expect(await failuresFor({ expireAt: "2030-01-31T09:00:00.123-05:30" })).toEqual([]);
  });
  it("accepts null for a key that never expires", async () => {
    expect(await failuresFor({ expireAt: null })).toEqual([]);
  });
  it('accepts "" for a key that never expires', async () => {
    expect(await failuresFor({ expireAt: "" })).toEqual([]);
  });
  it("refuses a time already past on a new key, naming the time and now", async () => {
    const [f] = await failuresFor({ expireAt: "2020-01-31T00:00:00Z" });
    expect(f?.property).toBe("expireAt");
    expect(f?.reason).toMatch(/^expireAt 2020-01-31T00:00:00Z is in the past \(it is now \d{4}-\d\d-\d\dT/);
  });
  it("refuses a change to a time already past", async () => {
    const olds = { ...valid, expireAt: "2030-01-31T00:00:00Z" };
    const { failures = [] } = await provider.check(olds, { ...valid, expireAt: "2020-01-31T00:00:00Z" });
    expect(failures.map((f) => f.property)).toEqual(["expireAt"]);
  });
  it("takes a key that has expired since, its expiry unchanged (in any notation), and diff says it has expired", async () => {
    const olds = { ...valid, expireAt: "2020-01-31T09:00:00+09:00" };
    const { failures = [] } = await provider.check(olds, { ...valid, expireAt: "2020-01-31T00:00:00Z" });
    expect(failures).toEqual([]);
    const said: string[] = [];
    useRuntime({ notices: (line) => said.push(line) });
    await provider.diff("k-1", olds, { ...valid, expireAt: "2020-01-31T00:00:00Z" });
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringContaining("the API key k-1 has expired (expireAt 2020-01-31T09:00:00+09:00)"),
      ]),
    );
  });
  it("refuses a date-time without a time zone, naming the form", async () => {
    const [f] = await failuresFor({ expireAt: "2030-01-31T00:00:00" });
    expect(where(f)).toBe("expireAt");
    expect(f?.reason).toContain("ISO 8601 date-time with seconds and a time zone");
  });
  it("refuses a date alone", async () => {
    expect(await propertiesRefused({ expireAt: "2030-01-31" })).toEqual(["expireAt"]);
  });
  it("refuses a date-time without seconds (the spec's date-time is RFC 3339)", async () => {
    expect(await propertiesRefused({ expireAt: "2030-01-31T09:00Z" })).toEqual(["expireAt"]);
  });
  it.each(["2030-02-30T00:00:00Z", "2030-01-31T24:00:00Z", "2030-01-31T09:00:00+24:00"])(
    "refuses %s, which is not a real instant",
    async (expireAt) => {
      expect(await propertiesRefused({ expireAt })).toEqual(["expireAt"]);
    },
  );
  it.each(["tomorrow", 1893456000])("refuses %s", async (expireAt) => {
    expect(await propertiesRefused({ expireAt })).toEqual(["expireAt"]);
  });
});

describe("ApiKey check: ipAccessList", () => {
  const entry = (source: unknown) => ({ ipAccessList: [{ source, description: "office" }] });
  it("accepts a single IPv4 address", async () => {
    expect(await failuresFor(entry("203.0.113.7"))).toEqual([]);
  });
  it("accepts the highest octet, 255", async () => {
    expect(await failuresFor(entry("255.255.255.255"))).toEqual([]);
  });
  it("refuses an octet of 256, naming the path and the form", async () => {
    const failures = await failuresFor(entry("256.1.1.1"));
    expect(failures.map((f) => where(f))).toEqual(["ipAccessList[0].source"]);
    expect(failures[0]?.reason).toContain("IPv4 address or CIDR range");
  });
  it.each(["10.0.0.0/8", "0.0.0.0/0", "203.0.113.7/32"])("accepts the CIDR range %s (/0 to /32)", async (source) => {
    expect(await failuresFor(entry(source))).toEqual([]);
  });
  it("refuses a CIDR prefix of /33", async () => {
    expect(await propertiesRefused(entry("10.0.0.0/33"))).toEqual(["ipAccessList[0].source"]);
  });
  it.each(["::1", "2001:db8::/32"])("refuses the IPv6 source %s", async (source) => {
    expect(await propertiesRefused(entry(source))).toEqual(["ipAccessList[0].source"]);
  });
  it.each(["10.0.0/8", "01.2.3.4", "10.0.0.1/", ""])("refuses the malformed source %j", async (source) => {
    expect(await propertiesRefused(entry(source))).toEqual(["ipAccessList[0].source"]);
  });
  it("names the index of the bad entry", async () => {
    const list = [
      { source: "10.0.0.1", description: "a" },
      { source: "10.0.0.300", description: "b" },
    ];
    expect(await propertiesRefused({ ipAccessList: list })).toEqual(["ipAccessList[1].source"]);
  });
  it("refuses an empty list, saying it would lock every caller out", async () => {
    const [f] = await failuresFor({ ipAccessList: [] });
    expect(where(f)).toBe("ipAccessList");
    expect(f?.reason).toContain("lock every caller out");
  });
  it("refuses an entry without a description", async () => {
    expect(await propertiesRefused({ ipAccessList: [{ source: "10.0.0.1" }] })).toEqual([
      "ipAccessList[0].description",
    ]);
  });
  it("accepts an empty description", async () => {
    expect(await failuresFor({ ipAccessList: [{ source: "10.0.0.1", description: "" }] })).toEqual([]);
  });
  it("refuses an unknown property of an entry by name", async () => {
    expect(await propertiesRefused({ ipAccessList: [{ source: "10.0.0.1", description: "", cidr: true }] })).toEqual([
      "ipAccessList[0].cidr",
    ]);
  });
});

describe("ApiKey check: hashData", () => {
  const hashData = hashDataFor("AKIDMADEBYTHEPROGRAM", "a-secret-the-program-made-and-keeps");
  it("accepts the hashes and suffix of a pair the program made", async () => {
    expect(await failuresFor({ hashData })).toEqual([]);
  });
  it("refuses a missing field, naming it", async () => {
    const { keySecretHash: _s, ...partial } = hashData;
    expect(await propertiesRefused({ hashData: partial })).toEqual(["hashData.keySecretHash"]);
  });
  it("refuses a hash that is not the padded base64 of a SHA-256 digest, as the service would at create", async () => {
    const hex = createHash("sha256").update("AKIDMADEBYTHEPROGRAM").digest("hex");
    const failures = await failuresFor({ hashData: { ...hashData, keyIdHash: hex } });
    expect(failures.map((f) => f.reason).join(" ")).toContain(
      "the standard base64 (padded, 44 characters) of a SHA-256 digest",
    );
  });
  it("refuses a secret hash of the wrong length, naming keySecretHash", async () => {
    expect(
      await propertiesRefused({ hashData: { ...hashData, keySecretHash: Buffer.alloc(20).toString("base64") } }),
    ).toEqual(["hashData.keySecretHash"]);
  });
  it("refuses a suffix that is not the last 4 characters of a key ID", async () => {
    expect(await propertiesRefused({ hashData: { ...hashData, keyIdSuffix: "GRAM5" } })).toEqual([
      "hashData.keyIdSuffix",
    ]);
  });
  it("refuses a field that is not a string", async () => {
    expect(await propertiesRefused({ hashData: { ...hashData, keyIdSuffix: 42 } })).toEqual(["hashData.keyIdSuffix"]);
  });
  it("refuses hashData that is not an object", async () => {
    expect(await propertiesRefused({ hashData: "abc" })).toEqual(["hashData"]);
  });
});

describe("ApiKey check: other properties", () => {
  it("refuses a missing organizationId", async () => {
    const failures = (await provider.check({}, { roles: ["admin"] })).failures ?? [];
    expect(failures.map((f) => where(f))).toEqual(["organizationId"]);
  });
  it("refuses an organizationId that is not a uuid", async () => {
    const failures = await failuresFor({ organizationId: "acme" });
    expect(failures).toEqual([{ property: "organizationId", reason: expect.stringContaining("uuid") }]);
  });
  it("refuses a name that is not a string", async () => {
    expect(await propertiesRefused({ name: 7 })).toEqual(["name"]);
  });
  it("refuses an unknown property by name", async () => {
    expect(await propertiesRefused({ role: "admin" })).toEqual(["role"]);
  });
  it("refuses output-only properties set as arguments", async () => {
    expect(await propertiesRefused({ keySecret: "s" })).toEqual(["keySecret"]);
  });
  it("lets values unknown during preview pass", async () => {
    const unknowns = {
      organizationId: UNKNOWN,
      roles: UNKNOWN,
      expireAt: UNKNOWN,
      state: UNKNOWN,
      name: UNKNOWN,
      hashData: UNKNOWN,
      ipAccessList: [{ source: UNKNOWN, description: "x" }],
    };
    expect(await failuresFor(unknowns)).toEqual([]);
  });
  it("lets an unknown element of roles pass", async () => {
    expect(await failuresFor({ roles: ["admin", UNKNOWN] })).toEqual([]);
  });
  it("returns the inputs unchanged, __provider included", async () => {
    const news = { ...valid, name: "ci", __provider: "serialized" };
    expect((await provider.check({}, news)).inputs).toEqual(news);
  });
});

// In preview the engine takes a dynamic resource's checked inputs as the outputs of an update, so
// the key's identity must be among them for what is built from it to stay known.
describe("ApiKey check: carrying what an update cannot change", () => {
  const identity = { keyId: "AKID0000000000000001", keySuffix: "0001", createdAt: "2026-11-22T09:00:00.000Z" };
  const storedInputs = { ...valid, ...identity };

  it("carries the key's ID, suffix and creation time from the stored inputs into an update's inputs", async () => {
    const result = await provider.check(storedInputs, { ...valid, name: "renamed" });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toMatchObject({ name: "renamed", ...identity });
  });

  it("carries nothing into a change that replaces the key, whose identity will be new", async () => {
    const result = await provider.check(storedInputs, {
      ...valid,
      organizationId: "5f1d7c1e-0000-4000-8000-000000000000",
    });
    for (const name of Object.keys(identity)) expect(result.inputs).not.toHaveProperty(name);
  });

  it("carries nothing into a change whose replacing property is not known yet", async () => {
    const result = await provider.check(storedInputs, { ...valid, organizationId: UNKNOWN });
    expect(result.inputs).not.toHaveProperty("keySuffix");
  });

  it("carries nothing into a create, which has no stored inputs", async () => {
    const result = await provider.check({}, valid);
    expect(result.inputs).not.toHaveProperty("keySuffix");
  });
});
