// When a read may hand the engine back its own Struct: only when ours would carry the same values.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { typeOfUrn } from "../../provider/native/resources";
import { carriedAs, fromStruct } from "../../provider/native/values";
import { secret, struct } from "../support/nativeProvider";

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

describe("fromStruct: the engine's values as plain ones", () => {
  it("unwraps a secret at any depth, in lists and objects", () => {
    const sent = struct({ keySecret: secret("s3"), nested: { list: [secret({ a: secret(1) }), "x"] } });
    expect(fromStruct(sent)).toEqual({ keySecret: "s3", nested: { list: [{ a: 1 }, "x"] } });
  });

  it("leaves the Struct as it came: a second reading gives the same values", () => {
    const sent = struct({ keySecret: secret("s3"), roles: ["admin"] });
    fromStruct(sent);
    expect(fromStruct(sent)).toEqual({ keySecret: "s3", roles: ["admin"] });
  });
});

describe("typeOfUrn: the type a call's URN names", () => {
  it("is the URN's third part, after a parent type's `$`", () => {
    expect(typeOfUrn("urn:pulumi:dev::proj::alertpipe:index:Alert::a")).toBe("alertpipe:index:Alert");
    expect(typeOfUrn("urn:pulumi:dev::proj::my:Component$alertpipe:index:ApiKey::k::x")).toBe("alertpipe:index:ApiKey");
  });

  it("reads any URN as splitting it on `::` and `$` would", () => {
    const part = fc.stringMatching(/^[a-z:$]{0,12}$/);
    fc.assert(
      fc.property(fc.array(part, { minLength: 0, maxLength: 5 }), (parts) => {
        const urn = parts.join("::");
        expect(typeOfUrn(urn)).toBe((urn.split("::")[2] ?? "").split("$").pop() ?? "");
      }),
    );
  });
});
