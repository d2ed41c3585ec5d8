// The API reference pages (docs/reference/) are what scripts/referenceDocs.ts writes from the committed
// schema (sdk/schema.json): a change to a resource that reaches the schema and not its page fails here
// (`npm run docs:reference` rewrites them). And the pages say what the schema says of each property.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { committedSchema, referenceDir, referencePages } from "../../scripts/referenceDocs";

describe("the API reference pages", () => {
  const pages = referencePages();

  it("are one per resource of the schema, and an index", () => {
    expect(readdirSync(referenceDir()).sort()).toEqual([...pages.keys()].sort());
    expect(pages.size).toBe(Object.keys(committedSchema().resources).length + 1);
  });

  it.each([...pages.keys()])("%s is what a regeneration from sdk/schema.json writes", (file) => {
    expect(readFileSync(join(referenceDir(), file), "utf8")).toBe(pages.get(file));
  });

  it("give a secret, replacing, enum-typed property as the schema states it", () => {
    const row = readFileSync(join(referenceDir(), "ApiKey.md"), "utf8")
      .split("\n")
      .find((l) => l.startsWith("| `keyMaterial` |"));
    expect(
      row
        ?.split("|")
        .map((c) => c.trim())
        .slice(1, 7),
    ).toEqual(["`keyMaterial`", "ApiKeyMaterial", "no", "`service`, `local`", "no", "yes"]);
  });

  it("give a range and the import id form", () => {
    const page = readFileSync(join(referenceDir(), "PipeSettings.md"), "utf8");
    expect(page).toMatch(/^\| `dbMaxThreads` \| integer \| no \| 0 – 64 \| no \| no \|/m);
    expect(page).toContain("pulumi import alertpipe:index:PipeSettings <name> <organizationId>/<serviceId>/<pipeId>");
  });
});
