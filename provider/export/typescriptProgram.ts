// A TypeScript program for the dynamic classes, each adopting its object by `importId` on the first
// `up`, each reference a variable's `id`.

import { commentLines, ConfigSecret, Reference, type Program, type ProgramValue } from "./program";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));

function literal(value: ProgramValue, indent: string): string {
  if (value instanceof ConfigSecret) return `config.requireSecret(${JSON.stringify(value.key)})`;
  if (value instanceof Reference)
    return value.at === undefined
      ? `${value.name}.id`
      : // A tile's id by its name: the class checks the name against the dashboard's tiles (issue 45).
        `${value.name}.tile(${JSON.stringify(value.at[1])})`;
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

export function typescriptProgram(program: Program): string {
  const adoptable = program.resources.filter((r) => r.kind.dynamicAdoptable !== false);
  const classes = [...new Set(adoptable.map((r) => r.kind.type))].sort();
  const needsConfig = adoptable.some((r) => r.configKeys.length > 0);
  const out = [
    "// Written by `alertpipe export --format typescript`. Each resource takes its object over by importId on the",
    "// first `pulumi up`, which writes nothing where the program holds what the service holds; once that `up` is",
    "// done the importId lines may go (and should before a change that replaces a resource: docs/guides/importing.md).",
  ];
  if (needsConfig) out.push('import * as pulumi from "@pulumi/pulumi";');
  if (classes.length > 0) out.push(`import { ${classes.join(", ")} } from "pulumi-alertpipe";`);
  if (needsConfig) out.push("", "const config = new pulumi.Config();");
  for (const r of program.resources) {
    out.push("");
    if (r.kind.dynamicAdoptable === false) {
      // Written for reading only: without importId, an up would create a second object.
      out.push(
        ...commentLines(
          `${r.kind.type} ${r.name} is left out: its dynamic class cannot take an existing object over (no importId), so ` +
            "an up would make a second one. Adopt it with --format yaml or the import file (the plugin). As the service holds it:",
          "// ",
        ),
      );
      out.push(
        ...literal(r.inputs, "")
          .split("\n")
          .map((line) => `//   ${line}`),
      );
      continue;
    }
    if (r.kind.programNote !== undefined) out.push(...commentLines(r.kind.programNote, "// "));
    for (const said of r.notes) out.push(...commentLines(said, "// "));
    const inputs: { [key: string]: ProgramValue } = {};
    if (r.dynamicImportId !== undefined) inputs.importId = r.dynamicImportId;
    else
      out.push(
        ...commentLines(
          `${r.kind.type} has no importId: the first up sends one ${r.kind.firstWrite ?? "PUT"} of these values, which the service already holds.`,
          "// ",
        ),
      );
    Object.assign(inputs, r.inputs);
    out.push(`const ${r.name} = new ${r.kind.type}(${JSON.stringify(r.name)}, ${literal(inputs, "")});`);
  }
  return `${out.join("\n")}\n`;
}
