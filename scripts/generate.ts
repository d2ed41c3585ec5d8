// `npm run generate`: the dynamic classes' argument and output types with their doc comments
// (provider/dynamic/generated.ts), rendered from the resources' definitions, and the lookup functions'
// (provider/dynamic/lookupTypes.ts), from the lookups'; committed so a reader and the compiler see
// them; test/unit/definitions.test.ts fails when they are not fresh.
// The docs' property tables come from the schema (scripts/referenceDocs.ts), itself from them.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RESOURCES } from "../provider/resources";
import { LOOKUPS, type LookupDefinition, type LookupField } from "../provider/lookups/definition";
import {
  inputNames,
  outputNames,
  type PropertyDef,
  type ResourceDefinition,
  type TypeSpec,
} from "../provider/protocol/definition";
import { repoRoot } from "./packedPackage";

export const GENERATED_TYPES = join("provider", "dynamic", "generated.ts");
export const GENERATED_LOOKUP_TYPES = join("provider", "dynamic", "lookupTypes.ts");

const WIDTH = 120;

/** Words wrapped at `width`. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/** A doc comment at `indent`, its words wrapped at the code width; `@deprecated` on its own line. */
function docComment(text: string, indent: string, deprecated?: string): string {
  const width = WIDTH - indent.length - 3;
  if (deprecated === undefined && text.length <= width - 4) return `${indent}/** ${text} */\n`;
  const lines = [...wrap(text, width), ...(deprecated === undefined ? [] : wrap(`@deprecated ${deprecated}`, width))];
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join("\n")}\n${indent} */\n`;
}

/** The TypeScript type a program gives (`args`) or an output holds (`out`). */
function tsOf(type: TypeSpec, side: "args" | "out"): string {
  switch (type.kind) {
    case "string":
    case "boolean":
      return type.kind;
    case "number":
    case "integer":
      return "number";
    case "any":
      return type.ts;
    case "enum":
      return type.name;
    case "object":
      return side === "args" ? `${type.name}Args` : type.name;
    case "array":
      return side === "args" ? `pulumi.Input<${tsOf(type.items, side)}>[]` : `${tsOf(type.items, side)}[]`;
    case "map":
      return side === "args"
        ? `Record<string, pulumi.Input<${tsOf(type.values, side)}>>`
        : `Record<string, ${tsOf(type.values, side)}>`;
  }
}

/** `export type Name = "a" | "b";`, broken as prettier breaks it when wider than the code. */
function unionType(name: string, values: readonly string[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  const line = `export type ${name} = ${quoted.join(" | ")};`;
  if (line.length <= WIDTH) return `${line}\n`;
  const next = `  ${quoted.join(" | ")};`;
  if (next.length <= WIDTH) return `export type ${name} =\n${next}\n`;
  return `export type ${name} =\n${quoted.map((v) => `  | ${v}`).join("\n")};\n`;
}

/** The named types a TypeSpec uses (enums, objects, declarations), each once, in the order met. */
function namedTypes(type: TypeSpec, out: Map<string, string>): void {
  if (type.kind === "array") return namedTypes(type.items, out);
  if (type.kind === "map") return namedTypes(type.values, out);
  if (type.kind === "any" && type.declares !== undefined) out.set(type.ts, `${type.declares}\n`);
  if (type.kind === "enum")
    out.set(type.name, `${docComment(type.description, "")}${unionType(type.name, type.values)}`);
  if (type.kind === "object") {
    for (const field of Object.values(type.fields)) namedTypes(field.type, out);
    const fields = (side: "args" | "out") =>
      Object.entries(type.fields)
        .map(([name, f]) => {
          const ts = tsOf(f.type, side);
          const mark = f.optional === true ? "?" : "";
          return `${docComment(f.description, "  ")}  ${name}${mark}: ${side === "args" ? `pulumi.Input<${ts}>` : ts};\n`;
        })
        .join("");
    out.set(
      type.name,
      `${docComment(type.description, "")}export interface ${type.name} {\n${fields("out")}}\n\n` +
        `${docComment(`${type.description} As a program gives it.`, "")}export interface ${type.name}Args {\n${fields("args")}}\n`,
    );
  }
}

function argLine(name: string, p: PropertyDef): string {
  const ts = `${tsOf(p.type, "args")}${p.nullable === true ? " | null" : ""}`;
  return `${docComment(p.description, "  ", p.deprecated)}  ${name}${p.required === true ? "" : "?"}: pulumi.Input<${ts}>;\n`;
}

function outputLine(name: string, p: PropertyDef): string {
  const may = p.outputMay ?? (p.required === undefined ? ["absent"] : []);
  const ts = [
    p.outputTs ?? tsOf(p.type, "out"),
    ...(may.includes("null") ? ["null"] : []),
    ...(may.includes("absent") ? ["undefined"] : []),
  ].join(" | ");
  return `${docComment(p.description, "  ", p.deprecated)}  readonly ${name}: pulumi.Output<${ts}>;\n`;
}

function resourceTypes(def: ResourceDefinition): string {
  const prop = (n: string) => def.properties[n] as PropertyDef;
  return (
    `${docComment(`The arguments of ${def.name}: ${def.description}`, "")}export interface ${def.name}Args {\n` +
    inputNames(def)
      .map((n) => argLine(n, prop(n)))
      .join("") +
    `}\n\n${docComment(`The outputs of ${def.name}.`, "")}export interface ${def.name}Outputs {\n` +
    outputNames(def)
      .map((n) => outputLine(n, prop(n)))
      .join("") +
    "}\n"
  );
}

/** provider/dynamic/generated.ts as the definitions make it. */
export function renderDynamicTypes(): string {
  const named = new Map<string, string>();
  const imports = new Set<string>();
  for (const r of RESOURCES) {
    for (const p of Object.values(r.definition.properties)) namedTypes(p.type, named);
    for (const line of r.definition.tsImports ?? []) imports.add(line);
  }
  return [
    "// Generated by `npm run generate` (scripts/generate.ts) from each resource's definition: do not edit.\n",
    ['import type * as pulumi from "@pulumi/pulumi";', ...imports].join("\n") + "\n",
    ...named.values(),
    ...RESOURCES.map((r) => resourceTypes(r.definition)),
  ].join("\n");
}

type LookupFields = LookupDefinition["outputs"];

const capital = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/**
 * A lookup's fields as an interface; a list's records that hold a one-object lookup's very fields
 * are named as that lookup's result (`GetAlertsAlert = GetAlertResult`), so no field is written twice.
 */
class LookupRenderer {
  private readonly named = new Map<LookupFields, string>();
  private readonly records: string[] = [];

  fieldsType(name: string, description: string, fields: LookupFields, side: "args" | "out"): string {
    const same = this.named.get(fields);
    if (same !== undefined) return `${docComment(description, "")}export type ${name} = ${same};\n`;
    if (side === "out") this.named.set(fields, name);
    const lines = Object.entries(fields)
      .map(([n, f]) => this.fieldLine(n, f, side))
      .join("");
    return `${docComment(description, "")}export interface ${name} {\n${lines}}\n`;
  }

  private fieldLine(name: string, field: LookupField, side: "args" | "out"): string {
    const required = field.required === true;
    const doc = docComment(field.description, "  ");
    if (side === "args") return `${doc}  ${name}${required ? "" : "?"}: string;\n`;
    const type = field.type;
    let ts: string;
    if (type.kind === "records") {
      this.records.push(this.fieldsType(type.name, type.description, type.fields, "out"));
      ts = `${type.name}[]`;
    } else ts = tsOf(type, "out");
    return `${doc}  ${name}${required ? "" : "?"}: ${required ? ts : `${ts} | null`};\n`;
  }

  lookup(def: LookupDefinition): string {
    const base = capital(def.name);
    const args = this.fieldsType(`${base}Args`, `The arguments of ${def.name}.`, def.inputs, "args");
    const result = this.fieldsType(`${base}Result`, def.description, def.outputs, "out");
    const records = this.records.splice(0);
    return [args, ...records, result].join("\n");
  }
}

/** `import type { A, B } from "./generated";`, broken as prettier breaks it when wider than the code. */
function importLine(names: readonly string[], from: string): string {
  const line = `import type { ${names.join(", ")} } from "${from}";`;
  return line.length <= WIDTH
    ? `${line}\n`
    : `import type {\n${names.map((n) => `  ${n},\n`).join("")}} from "${from}";\n`;
}

/** provider/dynamic/lookupTypes.ts as the lookups' definitions make it. */
export function renderLookupTypes(): string {
  const renderer = new LookupRenderer();
  const body = LOOKUPS.map((l) => renderer.lookup(l));
  const map = LOOKUPS.map((l) => {
    const base = capital(l.name);
    const line = `  ${l.name}: { args: ${base}Args; result: ${base}Result };`;
    // Broken as prettier breaks it when wider than the code.
    return line.length <= WIDTH
      ? `${line}\n`
      : `  ${l.name}: {\n    args: ${base}Args;\n    result: ${base}Result;\n  };\n`;
  }).join("");
  body.push(
    `${docComment("Each lookup's arguments and result, by the function's name.", "")}export interface LookupTypes {\n${map}}\n`,
  );
  // The resources' types the fields use, from generated.ts, in the order they are declared there.
  const declared = [...renderDynamicTypes().matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1] ?? "");
  const text = body.join("\n");
  const used = declared.filter((n) => new RegExp(`\\b${n}\\b`).test(text));
  return [
    "// Generated by `npm run generate` (scripts/generate.ts) from each lookup's definition: do not edit.\n",
    importLine(used, "./generated"),
    text,
  ].join("\n");
}

if (require.main === module) {
  const root = repoRoot();
  writeFileSync(join(root, GENERATED_TYPES), renderDynamicTypes());
  writeFileSync(join(root, GENERATED_LOOKUP_TYPES), renderLookupTypes());
}
