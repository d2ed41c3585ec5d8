// When a read may hand the engine back its own Struct: only when ours would carry the same values.

import { describe, expect, it } from "vitest";
import { carriedAs } from "../../provider/native/values";

describe("carriedAs: the outputs would go out as the Struct came in", () => {
  it("holds for the same members in another order, nested", () => {
    expect(carriedAs({ a: 1, b: { c: ["x", { d: true }] } }, { b: { c: ["x", { d: true }] }, a: 1 })).toBe(true);
  });

  it("ignores a member set to undefined, as the Struct drops it", () => {
    expect(carriedAs({ a: 1, gone: undefined }, { a: 1 })).toBe(true);
  });

  it("tells null from absent: the engine stores a null", () => {
    expect(carriedAs({ a: 1, expireAt: null }, { a: 1 })).toBe(false);
    expect(carriedAs({ a: 1 }, { a: 1, expireAt: null })).toBe(false);
  });

  it("fails on a changed, added or removed value, at any depth", () => {
    expect(carriedAs({ threshold: 90 }, { threshold: 50 })).toBe(false);
    expect(carriedAs({ channel: { webhookId: "a" } }, { channel: { webhookId: "b" } })).toBe(false);
    expect(carriedAs({ roles: ["admin", "developer"] }, { roles: ["admin"] })).toBe(false);
    expect(carriedAs({ roles: ["admin"] }, { roles: ["admin"], name: "k" })).toBe(false);
  });

  it("tells a list from an object and a number from its text", () => {
    expect(carriedAs({ l: [] }, { l: {} })).toBe(false);
    expect(carriedAs({ n: 1 }, { n: "1" })).toBe(false);
  });

  it("counts an undefined list item as the null the Struct carries", () => {
    expect(carriedAs({ l: [undefined] }, { l: [null] })).toBe(true);
  });
});
