import { describe, expect, it } from "vitest";
import { redact } from "../../provider/http/redact";

describe("redact", () => {
  it("scrubs secrets of any length, in every form", () => {
    for (const secret of ["x", "ab", "k9z", "s3cr", "a longer secret/with+marks"]) {
      const text = `echoed ${secret} and ${encodeURIComponent(secret)} and ${JSON.stringify(secret).slice(1, -1)}`;
      expect(redact(text, [secret]), secret).not.toContain(secret);
    }
  });

  it("leaves text alone for an empty secret or a value that is not text", () => {
    expect(redact("nothing to hide", ["", 42, undefined])).toBe("nothing to hide");
  });
});
