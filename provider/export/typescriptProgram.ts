// A TypeScript program for the dynamic classes, each adopting its object by `importId` on the first
// `up`, each reference a variable's `id`.

import { commentLines, Reference, type Program, type ProgramValue } from "./program";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A map output's value at a key (a tile's id in tileIds): an Output of a map cannot be indexed as one. */
const KEYED_HELPER = "valueAt";
const KEYED_HELPER_LINES = [
  "",
  "/** The value of a map output at a key (a tile's id in a dashboard's tileIds); a missing key fails the run. */",
  `function ${KEYED_HELPER}(map: pulumi.Output<Record<string, string> | undefined>, key: string): pulumi.Output<string> {`,
  "  return map.apply((values) => {",
  "    const value = values?.[key];",
  "    if (value === undefined) throw new Error(`no ${JSON.stringify(key)} in the map (a tile of that name that takes an alert)`);",
  "    return value;",
  "  });",
  "}",
];

const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));

function literal(value: ProgramValue, indent: string): string {
  if (value instanceof Reference)
    return value.at === undefined
      ? `${value.name}.id`
      : `${KEYED_HELPER}(${value.name}.${value.at[0]}, ${JSON.stringify(value.at[1])})`;
  if (Array.isArray(value)) {
    const items = value as readonly ProgramValue[];
    if (items.length === 0) return "[]";
    return `[\n${items.map((v) => `${indent}  ${literal(v, `${indent}  `)},`).join("\n")}\n${indent}]`;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as { readonly [k: string]: ProgramValue });
    if (entries.length === 0) return "{}";
    const body = entries.map(([k, v]) => `${indent}  ${key(k)}: ${literal(v, `${indent}  `)},`);
    return `{\n${body.join("\n")}\n${indent}}`;
  }
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

function hasKeyed(value: ProgramValue): boolean {
  if (value instanceof Reference) return value.at !== undefined;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value as { readonly [k: string]: ProgramValue }).some(hasKeyed);
}

export function typescriptProgram(program: Program): string {
  const classes = [...new Set(program.resources.map((r) => r.kind.type))].sort();
  const out = [
    "// Written by `alertpipe export --format typescript`. Each resource takes its object over by importId on the",
    "// first `pulumi up`, which writes nothing where the program holds what the service holds; once that `up` is",
    "// done the importId lines may go (and should before a change that replaces a resource: docs/guides/importing.md).",
  ];
  const keyed = program.resources.some((r) => hasKeyed(r.inputs));
  if (keyed) out.push('import * as pulumi from "@pulumi/pulumi";');
  out.push(`import { ${classes.join(", ")} } from "pulumi-alertpipe";`);
  if (keyed) out.push(...KEYED_HELPER_LINES);
  for (const r of program.resources) {
    out.push("");
    if (r.kind.programNote !== undefined) out.push(...commentLines(r.kind.programNote, "// "));
    for (const said of r.notes) out.push(...commentLines(said, "// "));
    const inputs: { [key: string]: ProgramValue } = {};
    if (r.dynamicImportId !== undefined) inputs.importId = r.dynamicImportId;
    else
      out.push(
        ...commentLines(
          `${r.kind.type} has no importId: the first up sends one PUT of these values, which the service already holds.`,
          "// ",
        ),
      );
    Object.assign(inputs, r.inputs);
    out.push(`const ${r.name} = new ${r.kind.type}(${JSON.stringify(r.name)}, ${literal(inputs, "")});`);
  }
  return `${out.join("\n")}\n`;
}
