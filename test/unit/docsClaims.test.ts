// What the design notes say the package has or lacks agrees with its definitions.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALERT } from "../../provider/alert/definition";

const root = join(__dirname, "..", "..");

describe("docs/design/terraform-provider.md, beside the Terraform provider", () => {
  const text = readFileSync(join(root, "docs", "design", "terraform-provider.md"), "utf8").replace(/\s+/g, " ");
  const lacks = /What it lacks:([^.]*)\./.exec(text)?.[1] ?? "";
  const has = text.slice(text.indexOf("What this package has"), text.indexOf("What it lacks:"));

  it("says what the package lacks, and the 2026 alert fields are not among it", () => {
    expect(lacks).not.toBe("");
    expect(lacks).not.toMatch(/2026|alert fields/i);
  });

  it("names the 2026 alert fields the Alert has among what the package has", () => {
    const fields2026 = [
      "thresholdType",
      "thresholdMax",
      "numConsecutiveWindows",
      "scheduleOffsetMinutes",
      "scheduleStartAt",
    ];
    for (const field of fields2026) {
      expect(Object.keys(ALERT.properties), field).toContain(field);
      expect(has, field).toContain(`\`${field}`);
    }
  });
});
