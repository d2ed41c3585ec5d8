// ARCHITECTURE.md is a map a newcomer trusts: its code map must name every folder of the tree
// (top level and provider/'s subfolders) and nothing that is gone, and the product must import
// nothing from above it.

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..", "..");
// Made by tools, never written by hand, and ignored by git: not part of the map.
const GENERATED = new Set(["node_modules", "dist"]);

function folders(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !GENERATED.has(e.name))
    .map((e) => (dir === "" ? e.name : `${dir}/${e.name}`));
}

/** The folders the code map names: every `name/` in backticks of a "###" heading. */
function mappedFolders(): string[] {
  const text = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
  const names = [...text.matchAll(/^### (.+)$/gm)].flatMap((m) =>
    [...(m[1] ?? "").matchAll(/`([^`]+)\/`/g)].map((n) => n[1] ?? ""),
  );
  return names.sort();
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Relative module specifiers a file imports or requires, resolved to repo paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specs = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)["'](\.{1,2}\/[^"']*)["']/g)].map(
    (m) => m[1] ?? "",
  );
  return specs.map((s) =>
    relative(root, resolve(root, dirname(file), s))
      .split(sep)
      .join("/"),
  );
}

describe("ARCHITECTURE.md", () => {
  it("has a code map naming exactly the top-level folders and provider/'s subfolders", () => {
    const tree = [...folders(""), ...folders("provider")].sort();
    expect(mappedFolders()).toEqual(tree);
  });

  it("names every entry point package.json gives (bin and exports), by the source file it is built from", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      bin: Record<string, string>;
      exports: Record<string, string | { default: string }>;
    };
    const built = [
      ...Object.values(pkg.bin),
      ...Object.values(pkg.exports).map((e) => (typeof e === "string" ? e : e.default)),
    ].filter((p) => p.endsWith(".js") && !p.includes("*"));
    const sources = built.map((p) => p.replace(/^\.?\/?dist\//, "").replace(/\.js$/, ".ts"));
    const text = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
    expect(sources.length).toBeGreaterThan(3);
    expect(sources.filter((s) => !text.includes(s))).toEqual([]);
  });

  it("stays short enough to read at one sitting (under 260 lines, room for its invariants)", () => {
    expect(readFileSync(join(root, "ARCHITECTURE.md"), "utf8").split("\n").length).toBeLessThan(260);
  });
});

/**
 * provider/'s layers, bottom to top, as ARCHITECTURE.md states them: a file imports (types
 * included) from its own layer's same folder or file and from the layers below, never above.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["provider/serviceFacts/"],
  ["provider/words.ts", "provider/protocol/"],
  ["provider/errors.ts"],
  ["provider/runtime/"],
  ["provider/http/"],
  ["provider/creation/", "provider/reading/"],
  [
    "provider/alert/",
    "provider/apiKey/",
    "provider/pipeSettings/",
    "provider/webhook/",
    "provider/savedSearch/",
    "provider/connection/",
    "provider/source/",
    "provider/dashboard/",
    "provider/clickPipeCdcInfrastructure/",
    "provider/clickPipe/",
  ],
  ["provider/resources.ts", "provider/lookups/"],
  ["provider/dynamic/", "provider/native/", "provider/export/"],
  ["provider/index.ts"],
];

/** The state-compatibility modules existing states require: thin adapters over the front door they serve. */
const STATE_COMPATIBILITY =
  /^provider\/(alert|apiKey|pipeSettings|webhook|savedSearch|connection|source|dashboard|clickPipeCdcInfrastructure|clickPipe)\/(shim|provider)\.ts$/;

function unitOf(file: string): { layer: number; unit: string } {
  for (const [layer, units] of LAYERS.entries()) {
    const unit = units.find((u) => (u.endsWith("/") ? file.startsWith(u) : file === u));
    if (unit !== undefined) return { layer, unit };
  }
  return { layer: -1, unit: file };
}

describe("provider/'s layers", () => {
  it("place every file of provider/ in a layer", () => {
    expect(tsFiles("provider").filter((f) => unitOf(f.split(sep).join("/")).layer < 0)).toEqual([]);
  });

  it("hold: no import (type imports included) reaches a layer above, or a sibling folder of the same layer", () => {
    const wrong = tsFiles("provider").flatMap((f) => {
      const file = f.split(sep).join("/");
      const from = unitOf(file);
      return importsOf(f)
        .filter((target) => target.startsWith("provider/"))
        .map((target) => (target.endsWith(".js") ? target.replace(/\.js$/, ".ts") : `${target}.ts`))
        .filter((target) => {
          const to = unitOf(target);
          if (to.layer < from.layer || to.unit === from.unit) return false;
          return !(STATE_COMPATIBILITY.test(file) && to.unit === "provider/dynamic/");
        })
        .map((target) => `${file} -> ${target}`);
    });
    expect(wrong).toEqual([]);
  });
});

/** The files of provider/ that load a package (or a file of it) as a value: type imports, which vanish, aside. */
function valueImporters(pkg: string): string[] {
  const from = `["']${pkg}(?:/[^"']*)?["']`;
  const load = new RegExp(
    `^(?:import|export)\\s+(?!type\\b)(?:[^;]*?\\bfrom\\s+)?${from}|\\b(?:require|import)\\(\\s*${from}`,
    "m",
  );
  return tsFiles("provider")
    .map((f) => f.split(sep).join("/"))
    .filter((f) => load.test(readFileSync(join(root, f), "utf8")));
}

describe("package boundaries", () => {
  it("provider/ imports nothing from emulator/, scripts/, bench/ or test/", () => {
    const upward = tsFiles("provider").flatMap((f) =>
      importsOf(f)
        .filter((target) => /^(emulator|scripts|bench|test)(\/|$)/.test(target))
        .map((target) => `${f} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("provider/serviceFacts/ imports nothing, not even zod, so the emulator can read it and build its own schemas", () => {
    const imports = tsFiles("provider/serviceFacts").flatMap((f) =>
      [
        ...readFileSync(join(root, f), "utf8").matchAll(
          /(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*|^import\s+)["']([^"']+)["']/gm,
        ),
      ].map((m) => `${f} -> ${m[1] ?? ""}`),
    );
    expect(tsFiles("provider/serviceFacts")).not.toEqual([]);
    expect(imports).toEqual([]);
  });

  it("provider/ loads zod only through provider/protocol/zod.ts, which the build makes one light file (cold start)", () => {
    expect(valueImporters("zod").filter((f) => f !== "provider/protocol/zod.ts")).toEqual([]);
  });

  it("provider/ loads undici only in provider/http/, so every request goes through send", () => {
    expect(valueImporters("undici").filter((f) => !f.startsWith("provider/http/"))).toEqual([]);
  });
});

/** The code width (printWidth); prettier wraps code to it, but never a comment. */
const CODE_WIDTH = 120;

describe("comments", () => {
  it(`in provider/ stay within the code width (${CODE_WIDTH}), the 0.1.0 shims aside (states hold their bytes)`, () => {
    const long = tsFiles("provider")
      .map((f) => f.split(sep).join("/"))
      .filter((f) => !(STATE_COMPATIBILITY.test(f) && f.endsWith("/shim.ts")))
      .flatMap((f) =>
        readFileSync(join(root, f), "utf8")
          .split("\n")
          .flatMap((line, i) => (/^\s*(\/\/|\/\*|\*)/.test(line) && line.length > CODE_WIDTH ? [`${f}:${i + 1}`] : [])),
      );
    expect(long).toEqual([]);
  });
});
