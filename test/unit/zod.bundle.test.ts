// The build's zod (scripts/bundleZod.ts): the builders provider/protocol/zod.ts names, zod's messages.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zod from "zod";
import { bundleZod } from "../../scripts/bundleZod";
import type { z as Ours } from "../../provider/protocol/zod";

let dir: string;
let file: string;
let bundled: typeof Ours;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "alertpipe-zod-"));
  file = await bundleZod(undefined, join(dir, "zod.js"));
  bundled = (createRequire(file)(file) as { z: typeof Ours }).z;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const messages = (result: { error?: { issues: ReadonlyArray<{ message: string }> } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe("the build's zod bundle", () => {
  it("words each kind of failure as zod's own entry point does, in English", () => {
    const cases: ReadonlyArray<[zod.ZodType, zod.ZodType, unknown]> = [
      [bundled.string(), zod.string(), 1],
      [bundled.number().min(3), zod.number().min(3), 1],
      [bundled.strictObject({ a: bundled.string() }), zod.strictObject({ a: zod.string() }), { a: "x", b: 1 }],
      [bundled.enum(["a", "b"]), zod.enum(["a", "b"]), "c"],
      [bundled.iso.datetime({ offset: true }), zod.iso.datetime({ offset: true }), "soon"],
      [bundled.array(bundled.string()).max(1), zod.array(zod.string()).max(1), ["a", "b"]],
    ];
    for (const [ours, theirs, value] of cases) {
      const got = messages(ours.safeParse(value));
      expect(got).not.toEqual([]);
      expect(got).toEqual(messages(theirs.safeParse(value)));
    }
  });

  it("leaves out the builders provider/protocol/zod.ts does not name", () => {
    const text = readFileSync(file, "utf8");
    for (const named of ["ZodObject", "ZodISODateTime"]) expect(text).toContain(named);
    for (const absent of ["ZodTemplateLiteral", "ZodPromise", "ZodFile", "ZodBigInt"])
      expect(text).not.toContain(absent);
  });
});
