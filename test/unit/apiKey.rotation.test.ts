// ApiKey keepers: names mapped to strings, never sent, whose any change replaces the key, the new
// one made before the old one is deleted (rotation without downtime). Diff and check only: the
// engine's order is asserted end to end in engine.rotation.test.ts.

import { describe, expect, it } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { connectionEnvPerFile } from "../support/mockApi";
import { ORG_ID, storedKey } from "../support/fixtures";

const program = { organizationId: ORG_ID, name: "deployer", roles: ["developer"], __provider: "serialized" };
const stored = storedKey;

describe("ApiKey keepers in diff", () => {
  it("replaces the key when a keeper's value changes, naming keepers", async () => {
    const result = await provider.diff(
      "id",
      { ...stored, keepers: { rotation: "2025-Q1" } },
      { ...program, keepers: { rotation: "2025-Q2" } },
    );
    expect(result).toMatchObject({ changes: true, replaces: ["keepers"] });
  });

  it("makes the new key before deleting the old one (deleteBeforeReplace false)", async () => {
    const result = await provider.diff(
      "id",
      { ...stored, keepers: { rotation: "2025-Q1" } },
      { ...program, keepers: { rotation: "2025-Q2" } },
    );
    expect(result.deleteBeforeReplace).toBe(false);
  });

  it("replaces the key when a keeper is added", async () => {
    const result = await provider.diff(
      "id",
      { ...stored, keepers: { rotation: "2025-Q1" } },
      { ...program, keepers: { rotation: "2025-Q1", owner: "ci" } },
    );
    expect(result.replaces).toEqual(["keepers"]);
  });

  it("replaces the key when the keepers are removed", async () => {
    const result = await provider.diff("id", { ...stored, keepers: { rotation: "2025-Q1" } }, program);
    expect(result.replaces).toEqual(["keepers"]);
  });

  it("replaces the key when the first keepers are given", async () => {
    const result = await provider.diff("id", stored, { ...program, keepers: { rotation: "2025-Q1" } });
    expect(result.replaces).toEqual(["keepers"]);
  });

  it("sees no change from no keepers to an empty map", async () => {
    expect(await provider.diff("id", stored, { ...program, keepers: {} })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("sees no change from an empty map to no keepers", async () => {
    expect(await provider.diff("id", { ...stored, keepers: {} }, program)).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("sees no change when the keepers are the same in another order", async () => {
    const result = await provider.diff(
      "id",
      { ...stored, keepers: { a: "1", b: "2" } },
      { ...program, keepers: { b: "2", a: "1" } },
    );
    expect(result).toMatchObject({ changes: false, replaces: [] });
  });
});

describe("ApiKey keepers in check", () => {
  connectionEnvPerFile();

  it("accepts a map of strings", async () => {
    expect((await provider.check({}, { ...program, keepers: { rotation: "2025-Q1" } })).failures).toEqual([]);
  });

  it("names keepers.x when a keeper's value is not a string", async () => {
    const { failures } = await provider.check({}, { ...program, keepers: { x: 3 } });
    expect(failures).toHaveLength(1);
    expect(failures?.[0]?.reason).toMatch(/^\[INVALID_INPUT\] keepers\.x is 3: a keeper's value must be a string/);
  });

  it("refuses keepers that are not a map, naming keepers", async () => {
    const { failures } = await provider.check({}, { ...program, keepers: ["2025-Q1"] });
    expect(failures).toEqual([
      { property: "keepers", reason: expect.stringContaining("keepers must be a map of names to strings") },
    ]);
  });

  it("does not carry the key's identity into a check whose keepers replace it", async () => {
    const olds = { ...program, keepers: { rotation: "2025-Q1" }, keyId: "KEYIDABCDEFGHIJKWXYZ", keySuffix: "WXYZ" };
    const { inputs } = await provider.check(olds, { ...program, keepers: { rotation: "2025-Q2" } });
    expect(inputs).not.toHaveProperty("keyId");
  });
});
