import { describe, expect, it } from "vitest";
import * as provider from "../provider/apiKey/provider";
import { UNKNOWN } from "../provider/lifecycle";

const valid = { organizationId: "0f8fad5b-d9cb-469f-a165-70867728950e", roles: ["developer"] };

async function failuresFor(props: Record<string, unknown>) {
  return (await provider.check({}, { ...valid, ...props })).failures ?? [];
}

async function propertiesRefused(props: Record<string, unknown>): Promise<string[]> {
  return (await failuresFor(props)).map((f) => f.property);
}

describe("ApiKey check: roles", () => {
  it("accepts one role and all three", async () => {
    expect(await failuresFor({ roles: ["admin"] })).toEqual([]);
    expect(await failuresFor({ roles: ["admin", "developer", "query_endpoints"] })).toEqual([]);
  });
  it("refuses an empty list, naming the allowed roles", async () => {
    const [f] = await failuresFor({ roles: [] });
    expect(f?.property).toBe("roles");
    expect(f?.reason).toContain('"admin", "developer", "query_endpoints"');
  });
  it("refuses an unknown role at its index", async () => {
    expect(await propertiesRefused({ roles: ["developer", "owner"] })).toEqual(["roles[1]"]);
  });
  it("refuses a repeated role", async () => {
    expect(await propertiesRefused({ roles: ["admin", "admin"] })).toEqual(["roles"]);
  });
  it("refuses missing roles", async () => {
    const { roles: _omit, ...rest } = valid;
    const failures = (await provider.check({}, rest)).failures ?? [];
    expect(failures.map((f) => f.property)).toEqual(["roles"]);
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
  it.each(["2030-01-31T00:00:00Z", "2030-01-31T09:00:00+09:00", "2030-01-31T09:00:00.123-05:30", "2030-01-31T09:00Z", null, ""])("accepts %s", async (expireAt) => {
    expect(await failuresFor({ expireAt })).toEqual([]);
  });
  it.each(["2030-01-31T00:00:00", "2030-01-31", "2030-02-30T00:00:00Z", "2030-01-31T24:00:00Z", "tomorrow", 1893456000])("refuses %s, naming the form", async (expireAt) => {
    const [f] = await failuresFor({ expireAt });
    expect(f?.property).toBe("expireAt");
    expect(f?.reason).toContain("ISO 8601 date-time with a time zone");
  });
});

describe("ApiKey check: ipAccessList", () => {
  const entry = (source: unknown) => ({ ipAccessList: [{ source, description: "office" }] });
  it.each(["203.0.113.7", "10.0.0.0/8", "0.0.0.0/0", "255.255.255.255/32"])("accepts %s", async (source) => {
    expect(await failuresFor(entry(source))).toEqual([]);
  });
  it.each(["256.1.1.1", "10.0.0.0/33", "10.0.0/8", "::1", "2001:db8::/32", "01.2.3.4", ""])("refuses %s at its path", async (source) => {
    expect(await propertiesRefused(entry(source))).toEqual(["ipAccessList[0].source"]);
  });
  it("refuses an empty list, saying it would lock every caller out", async () => {
    const [f] = await failuresFor({ ipAccessList: [] });
    expect(f?.property).toBe("ipAccessList");
    expect(f?.reason).toContain("lock every caller out");
  });
  it("refuses an entry without a description", async () => {
    expect(await propertiesRefused({ ipAccessList: [{ source: "10.0.0.1" }] })).toEqual(["ipAccessList[0].description"]);
  });
});

describe("ApiKey check: other properties", () => {
  it("refuses an organizationId that is not a uuid", async () => {
    expect(await propertiesRefused({ organizationId: "acme" })).toEqual(["organizationId"]);
  });
  it("accepts complete hashData and refuses a missing field", async () => {
    const hashData = { keyIdHash: "a", keyIdSuffix: "b", keySecretHash: "c" };
    expect(await failuresFor({ hashData })).toEqual([]);
    expect(await propertiesRefused({ hashData: { keyIdHash: "a", keyIdSuffix: "b" } })).toEqual(["hashData.keySecretHash"]);
  });
  it("refuses an unknown property by name", async () => {
    expect(await propertiesRefused({ role: "admin" })).toEqual(["role"]);
  });
  it("lets values unknown during preview pass", async () => {
    expect(await failuresFor({ organizationId: UNKNOWN, roles: UNKNOWN, expireAt: UNKNOWN, ipAccessList: [{ source: UNKNOWN, description: "x" }] })).toEqual([]);
  });
});
