// Each resource is written once: its definition states every property, and everything else reads
// it. So a property is named in code (an identifier, or a string that is the name alone) in at most
// two hand-written files of provider/ besides its resource's behaviour file. What the definitions
// render as text (the classes' types, the docs' tables) is committed and must be a fresh rendering.

import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../provider/resources";
import { GENERATED_LOOKUP_TYPES, GENERATED_TYPES, renderDynamicTypes, renderLookupTypes } from "../../scripts/generate";

const root = resolve(__dirname, "..", "..");

/**
 * Names left out, since they name other things too: common words (a zod option, an entry's field,
 * a member of an answer), and concepts the shared layers hold for every resource: the id a create
 * takes over (creation/importing.ts), a key's credentials (also the connection's, runtime/),
 * the organization of every cloud path, and the create time recovery reads of a listed object.
 * And the words of HTTP itself, which a webhook's properties reuse: a request's body, headers and
 * url, the service a connection addresses, and `where` in the words of an answer. Last, a resource's own
 * name, which the registry and the export name as a kind: Alert's output `savedSearch` is SavedSearch's.
 */
const COMMON = new Set([
  "name",
  "state",
  "source",
  "message",
  "description",
  "type",
  "id",
  "importId",
  "keyId",
  "keySecret",
  "organizationId",
  "createdAt",
  "body",
  "headers",
  "url",
  "service",
  "where",
  "savedSearch",
]);

/** The files the definitions render, and how. */
const RENDERED = [
  [GENERATED_TYPES, renderDynamicTypes],
  [GENERATED_LOOKUP_TYPES, renderLookupTypes],
] as const;

/** The most files besides the behaviour that may name a property: its definition, and one that treats it specially. */
const MOST = 2;

function providerFiles(): string[] {
  return readdirSync(join(root, "provider"), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"))
    .filter((f) => !RENDERED.some(([path]) => f === path.split("\\").join("/")));
}

/**
 * The code of a file as words: comments and the text of strings dropped; a string that is one
 * identifier alone kept as that word (`"hashData"` names the property as surely as `.hashData`).
 */
function codeWords(text: string): Set<string> {
  const out: string[] = [];
  let i = 0;
  let code = "";
  const flush = () => {
    out.push(...(code.match(/[A-Za-z_$][\w$]*/g) ?? []));
    code = "";
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      i = text.indexOf("\n", i);
      if (i < 0) break;
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i) + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      flush();
      let j = i + 1;
      let literal = "";
      while (j < text.length && text[j] !== c) {
        if (text[j] === "\\") j++;
        else if (c === "`" && text[j] === "$" && text[j + 1] === "{") {
          const end = text.indexOf("}", j);
          code += ` ${text.slice(j + 2, end)} `;
          j = end;
        } else literal += text[j];
        j++;
      }
      if (/^[A-Za-z_$][\w$]*$/.test(literal)) out.push(literal);
      i = j + 1;
    } else {
      code += c;
      i++;
    }
  }
  flush();
  return new Set(out);
}

describe("one definition per resource", () => {
  const files = new Map(providerFiles().map((f) => [f, codeWords(readFileSync(join(root, f), "utf8"))]));

  for (const resource of RESOURCES) {
    const own = `provider/${resource.kind}/`;
    const others = RESOURCES.filter((r) => r !== resource).map((r) => `provider/${r.kind}/`);
    it(`names each of ${resource.definition.name}'s properties in at most ${MOST} files besides its behaviour`, () => {
      const over: Record<string, string[]> = {};
      for (const property of Object.keys(resource.definition.properties)) {
        if (COMMON.has(property)) continue;
        const naming = [...files]
          .filter(
            ([f, words]) => words.has(property) && f !== `${own}behaviour.ts` && !others.some((o) => f.startsWith(o)),
          )
          .map(([f]) => f);
        if (naming.length > MOST) over[property] = naming;
      }
      expect(over).toEqual({});
    });
  }
});

describe("what the definitions render", () => {
  it.each(RENDERED)("%s is a fresh rendering (npm run generate)", (path, render) => {
    expect(readFileSync(join(root, path), "utf8")).toBe(render());
  });
});
