// What the README and docs/ say of the package's own set of resources and lookups is read from the
// registry (provider/resources.ts, provider/lookups/definition.ts), never written down here: a new
// resource or lookup makes these tests fail until the documents say so, and needs nothing changed here.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../provider/resources";
import { LOOKUPS } from "../../provider/lookups/definition";

const root = resolve(__dirname, "..", "..");

/** The README and every page of docs/ but the generated reference (held to the schema elsewhere). */
function documents(): string[] {
  const docs = readdirSync(join(root, "docs"), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((p) => !p.startsWith(join("docs", "reference")));
  return ["README.md", ...docs.sort()];
}

function prose(doc: string): string {
  return readFileSync(join(root, doc), "utf8").replace(/```[\s\S]*?```/g, "");
}

const NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
  "twenty",
] as const;

const COUNTED = [
  { what: "resources", count: RESOURCES.length },
  { what: "lookup functions", count: LOOKUPS.length },
  { what: "lookups", count: LOOKUPS.length },
] as const;

/** "<number word> <what>" wherever it stands: a count of something else is written otherwise. */
function countsOf(text: string, what: string): string[] {
  const pattern = new RegExp(`\\b(${NUMBER_WORDS.join("|")}) ${what}\\b`, "gi");
  return [...text.matchAll(pattern)].map((m) => (m[1] ?? "").toLowerCase());
}

/** The first cells of each table whose first header is `header`, rows until the table ends. */
function firstColumns(text: string, header: string): string[][] {
  const lines = text.split("\n");
  const tables: string[][] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith(`| ${header} |`)) return;
    const cells: string[] = [];
    for (const row of lines.slice(i + 2)) {
      if (!row.startsWith("|")) break;
      cells.push(row.split("|")[1]?.trim() ?? "");
    }
    tables.push(cells);
  });
  return tables;
}

const backticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");

describe("counts of the package's resources and lookups in the documents", () => {
  it.each(documents())("%s counts them as the registry does", (doc) => {
    const text = prose(doc);
    for (const { what, count } of COUNTED)
      for (const said of countsOf(text, what)) expect(`${said} ${what}`).toBe(`${NUMBER_WORDS[count]} ${what}`);
  });
});

describe("tables of the package's resources and lookups", () => {
  const resourceTables = documents().flatMap((doc) =>
    firstColumns(prose(doc), "Resource").map((cells): [string, string[]] => [doc, cells]),
  );
  const lookupTables = documents().flatMap((doc) =>
    firstColumns(prose(doc), "Function").map((cells): [string, string[]] => [doc, cells]),
  );

  it("are found, the README's among them", () => {
    expect(resourceTables.map(([doc]) => doc)).toContain("README.md");
    expect(lookupTables.map(([doc]) => doc)).toContain(join("docs", "guides", "lookups.md"));
  });

  it.each(resourceTables)("%s: a table of resources names each resource of the registry once", (_doc, cells) => {
    const named = cells.flatMap(backticked);
    expect([...named].sort()).toEqual(RESOURCES.map((r) => r.definition.name).sort());
  });

  it.each(lookupTables)("%s: a table of functions names each lookup of the registry, in its order", (_doc, cells) => {
    expect(cells.flatMap(backticked)).toEqual(LOOKUPS.map((l) => l.name));
  });
});
