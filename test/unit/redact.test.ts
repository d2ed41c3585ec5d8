import { describe, expect, it } from "vitest";
import { redact } from "../../provider/http/redact";

describe("redact", () => {
  it("scrubs secrets of any length, in every form", () => {
    for (const secret of ["x", "ab", "k9z", "s3cr", "a longer secret/with+marks"]) {
      const text = `echoed ${secret} and ${encodeURIComponent(secret)} and ${JSON.stringify(secret).slice(1, -1)}`;
      expect(redact(text, [secret]), secret).not.toContain(secret);
    }
  });

  it("replaces the whole word around a match, so a short secret's letters are not given away", () => {
    expect(redact("not a match", ["t"])).toBe("[redacted] a [redacted]");
  });

  it("matches in any letter case", () => {
    expect(redact("bad token S3CRET-VALUE-1234 (echoed)", ["s3cret-value-1234"])).toBe("bad token [redacted] (echoed)");
  });

  it("finds a secret holding a tab in words whose white space was folded", () => {
    expect(redact("header=[Bearer Tok en-5ecret-9f3a]", ["Tok\ten-5ecret-9f3a"])).toBe("header=[Bearer [redacted]]");
  });

  it("leaves text alone for an empty secret or a value that is not text", () => {
    expect(redact("nothing to hide", ["", 42, undefined])).toBe("nothing to hide");
  });
});
