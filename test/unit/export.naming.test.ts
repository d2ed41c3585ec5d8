// The names `alertpipe export` gives (provider/export/naming.ts): valid for every generator, the
// object's own name where it is its alone, stable whatever order the service lists in, unique.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NAME_PATTERN, assignNames, baseName, idSuffix, type Nameable } from "../../provider/export/naming";

const TYPE_WORDS = ["alert", "apiKey", "pipeSettings"] as const;

interface Obj extends Nameable {
  readonly key: string;
}

/** Objects with unique keys (type and id): names drawn from a small pool so that many are shared, some empty or odd. */
const objects = fc
  .uniqueArray(
    fc.record({
      typeWord: fc.constantFrom(...TYPE_WORDS),
      name: fc.option(
        fc.oneof(
          fc.constantFrom(
            "High CPU",
            "high cpu",
            "deployer",
            "",
            "  ",
            "!!!",
            "5xx errors",
            "import",
            "Café crème",
            "ci",
          ),
          fc.string({ maxLength: 70 }),
        ),
        { nil: undefined },
      ),
      id: fc.oneof(fc.uuid(), fc.stringMatching(/^[0-9a-f]{24}$/), fc.string({ minLength: 1, maxLength: 12 })),
    }),
    { selector: (o) => `${o.typeWord} ${o.id}`, maxLength: 40 },
  )
  .map((list) => list.map((o): Obj => ({ ...o, key: `${o.typeWord} ${o.id}` })));

const named = (list: readonly Obj[]) => assignNames(list, (o) => o.key);

describe("the names an export gives", () => {
  it("are valid names: a lower-case ASCII letter, then ASCII letters and digits", () => {
    fc.assert(
      fc.property(objects, (list) => {
        for (const name of named(list).values()) expect(name).toMatch(NAME_PATTERN);
      }),
    );
  });

  it("are unique, case aside", () => {
    fc.assert(
      fc.property(objects, (list) => {
        const names = [...named(list).values()].map((n) => n.toLowerCase());
        expect(new Set(names).size).toBe(list.length);
      }),
    );
  });

  it("are the same for the same objects whatever order they are listed in", () => {
    fc.assert(
      fc.property(
        objects.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length }))),
        ([list, shuffled]) => {
          expect(named(shuffled)).toEqual(named(list));
        },
      ),
    );
  });

  it("are the object's own name, made camelCase, where no other object's name gives the same", () => {
    const names = named([
      { key: "a", typeWord: "alert", name: "High CPU usage", id: "65f0c1a2b3c4d5e6f7a8b9c0" },
      { key: "k", typeWord: "apiKey", name: "deploy-bot", id: "3f2504e0-4f89-41d3-9a0c-0305e82c3301" },
    ]);
    expect([names.get("a"), names.get("k")]).toEqual(["highCpuUsage", "deployBot"]);
  });

  it("add the last six characters of the id where the object has no name", () => {
    const names = named([{ key: "a", typeWord: "alert", name: undefined, id: "65f0c1a2b3c4d5e6f7a8b9c0" }]);
    expect(names.get("a")).toBe("alerta8b9c0");
  });

  it("add the last six characters of each id where objects share a name, even across types", () => {
    const names = named([
      { key: "a", typeWord: "alert", name: "deployer", id: "65f0c1a2b3c4d5e6f7a8b9c0" },
      { key: "k", typeWord: "apiKey", name: "Deployer", id: "3f2504e0-4f89-41d3-9a0c-0305e82c3301" },
    ]);
    expect([names.get("a"), names.get("k")]).toEqual(["deployera8b9c0", "deployer2c3301"]);
  });

  it("lengthen the suffix only as far as tells two ids apart", () => {
    const names = named([
      { key: "a", typeWord: "alert", name: undefined, id: "aaaaaaa11111111" },
      { key: "b", typeWord: "alert", name: undefined, id: "bbbbbbb11111111" },
    ]);
    expect([names.get("a"), names.get("b")]).toEqual(["alerta11111111", "alertb11111111"]);
  });

  it("put the type's word before a name that starts with a digit or is a keyword of a language", () => {
    expect(baseName("alert", "5xx errors")).toBe("alert5xxErrors");
    expect(baseName("apiKey", "import")).toBe("apiKeyImport");
  });

  it("put it before a name TypeScript refuses as a variable of a module: undefined, eval, arguments, globalThis", () => {
    expect(["undefined", "eval", "arguments", "globalThis"].map((n) => baseName("alert", n))).toEqual([
      "alertUndefined",
      "alertEval",
      "alertArguments",
      "alertGlobalthis",
    ]);
  });

  it("give no base for a name without letters or digits, so the type's word and id are used", () => {
    expect(baseName("alert", "!!! ")).toBeUndefined();
    expect(idSuffix("3f2504e0-4f89-41d3-9a0c-0305e82c3301", 6)).toBe("2c3301");
  });
});
