// The API reference, one Markdown page per resource under docs/reference/, written from the plugin's
// schema (sdk/schema.json, what `npm run sdk` commits), so a change to a resource reaches its page by
// way of the schema; only PipeSettings' wire names, which the schema does not hold, come from
// provider/serviceFacts/pipeSettings.ts. For each property: its type, whether a program
// must set it, its allowed values (an enum's) or range (as its description states it), whether it is
// secret and whether a change replaces the resource; then the resource's import id form.
// `npm run docs:reference` rewrites the pages; test/unit/referenceDocs.test.ts fails when they differ.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PIPE_SETTINGS } from "../provider/serviceFacts/pipeSettings";
import { repoRoot } from "./packedPackage";

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  deprecationMessage?: string;
}

interface Schema {
  name: string;
  version: string;
  resources: Record<
    string,
    {
      description: string;
      properties: Record<string, Property>;
      inputProperties: Record<string, Property>;
      requiredInputs: string[];
    }
  >;
  functions?: Record<
    string,
    {
      description: string;
      inputs: { properties: Record<string, Property>; required: string[] };
      outputs: { properties: Record<string, Property>; required: string[] };
    }
  >;
  types: Record<
    string,
    {
      type: string;
      description?: string;
      enum?: Array<{ value: string }>;
      properties?: Record<string, Property>;
      required?: string[];
    }
  >;
}

export function referenceDir(): string {
  return join(repoRoot(), "docs", "reference");
}

export function committedSchema(): Schema {
  return JSON.parse(readFileSync(join(repoRoot(), "sdk", "schema.json"), "utf8")) as Schema;
}

const nameOf = (token: string): string => token.split(":").pop() ?? token;
const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n+/g, " ");

function typeOf(p: Property): string {
  if (p.$ref !== undefined) return nameOf(p.$ref);
  if (p.type === "array" && p.items !== undefined) return `${typeOf(p.items)}[]`;
  if (p.type === "object" && p.additionalProperties !== undefined) return `map of ${typeOf(p.additionalProperties)}`;
  return p.type ?? "any";
}

/** A property's description, and when it is deprecated what to use instead. */
function described(p: Property): string {
  const words = p.description ?? "";
  return p.deprecationMessage === undefined ? words : `${words} **Deprecated:** ${p.deprecationMessage}`;
}

/** An enum's values, or the range the description states ("from 0 to 64"), or nothing said. */
function allowed(schema: Schema, p: Property): string {
  const ref = p.$ref ?? p.items?.$ref;
  const values = ref === undefined ? undefined : schema.types[ref.replace(/^#\/types\//, "")]?.enum;
  if (values !== undefined) return values.map((v) => `\`${v.value}\``).join(", ");
  const range = /from (-?[\d.]+) to (-?[\d.]+)/.exec(p.description ?? "");
  return range === null ? "" : `${range[1]} – ${range[2]}`;
}

function propertyTable(schema: Schema, props: Record<string, Property>, required: readonly string[]): string[] {
  const rows = Object.entries(props).map(
    ([name, p]) =>
      `| \`${name}\` | ${cell(typeOf(p))} | ${required.includes(name) ? "yes" : "no"} | ${cell(allowed(schema, p))} | ${p.secret === true ? "yes" : "no"} | ${p.willReplaceOnChanges === true ? "yes" : "no"} | ${cell(described(p))} |`,
  );
  return [
    "| Property | Type | Required | Allowed values or range | Secret | Replaces on change | Description |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ];
}

/** The object types a resource's properties name, each once, in the order first named. */
function objectTypesOf(schema: Schema, props: Iterable<Property>): string[] {
  const found: string[] = [];
  const visit = (p: Property): void => {
    const ref = (p.$ref ?? p.items?.$ref)?.replace(/^#\/types\//, "");
    const t = ref === undefined ? undefined : schema.types[ref];
    if (ref === undefined || t?.properties === undefined || found.includes(ref)) return;
    found.push(ref);
    for (const inner of Object.values(t.properties)) visit(inner);
  };
  for (const p of props) visit(p);
  return found;
}

/** The page of one resource, by its token. */
export function referencePage(schema: Schema, token: string): string {
  const r = schema.resources[token];
  if (r === undefined) throw new Error(`the schema has no resource ${token}`);
  const [summary = "", importPart] = r.description.split(/\n## Import\n/);
  const outputs = Object.fromEntries(Object.entries(r.properties).filter(([n]) => !(n in r.inputProperties)));
  const lines = [
    `# ${nameOf(token)}`,
    "",
    `<!-- Generated from sdk/schema.json (${schema.name} ${schema.version}) by scripts/referenceDocs.ts: npm run docs:reference. -->`,
    "",
    summary.trim(),
    "",
    `Type token: \`${token}\`. Examples and installation: [overview](../_index.md), [installation and configuration](../installation-configuration.md).`,
    "",
    "## Arguments",
    "",
    ...propertyTable(schema, r.inputProperties, r.requiredInputs),
    "",
    "## Outputs",
    "",
    "Every argument is an output too. Besides:",
    "",
    ...propertyTable(schema, outputs, []),
  ];
  for (const ref of objectTypesOf(schema, Object.values(r.properties))) {
    const t = schema.types[ref];
    lines.push("", `### ${nameOf(ref)}`, "", t?.description ?? "", "");
    lines.push(...propertyTable(schema, t?.properties ?? {}, t?.required ?? []));
  }
  if (token === "alertpipe:index:PipeSettings") lines.push("", ...wireNames());
  if (importPart !== undefined) lines.push("", "## Import", "", importPart.trim());
  return `${lines.join("\n")}\n`;
}

/** The lookup functions' page: each one's arguments and result, and the item types its lists hold. */
export function functionsPage(schema: Schema): string {
  const functions = Object.entries(schema.functions ?? {});
  const lines = [
    "# Functions",
    "",
    `<!-- Generated from sdk/schema.json (${schema.name} ${schema.version}) by scripts/referenceDocs.ts: npm run docs:reference. -->`,
    "",
    "Lookups of what the service holds, never a secret ([guide](../guides/lookups.md)).",
  ];
  for (const [token, f] of functions) {
    lines.push("", `## ${nameOf(token)}`, "", f.description, "", `Token: \`${token}\`.`, "", "### Arguments", "");
    lines.push(...propertyTable(schema, f.inputs.properties, f.inputs.required), "", "### Result", "");
    lines.push(...propertyTable(schema, f.outputs.properties, f.outputs.required));
    for (const ref of objectTypesOf(schema, Object.values(f.outputs.properties))) {
      const t = schema.types[ref];
      lines.push("", `#### ${nameOf(ref)}`, "", t?.description ?? "", "");
      lines.push(...propertyTable(schema, t?.properties ?? {}, t?.required ?? []));
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The settings as the service names them: what an API error or the service's own docs call each one. */
function wireNames(): string[] {
  return [
    "## Wire names",
    "",
    "The name each setting has on the wire, in API errors and in the service's documentation: the contract's,",
    "and ClickHouse Cloud's where `alertpipe:cloudDialect` is `clickhouse` ([why](../design/cloud-api-clickhouse.md)).",
    "",
    "| Setting | Wire name | ClickHouse Cloud | Range |",
    "|---|---|---|---|",
    ...Object.entries(PIPE_SETTINGS).map(([name, fact]) => {
      const range = fact.kind === "integer" ? `${fact.min} – ${fact.max}` : "`true`, `false`";
      return `| \`${name}\` | \`${fact.wire}\` | \`${fact.cloudWire}\` | ${range} |`;
    }),
  ];
}

/** Every page, file name to text, with the index of them. */
export function referencePages(schema: Schema = committedSchema()): Map<string, string> {
  const pages = new Map<string, string>();
  const tokens = Object.keys(schema.resources).sort();
  for (const token of tokens) pages.set(`${nameOf(token)}.md`, referencePage(schema, token));
  pages.set("functions.md", functionsPage(schema));
  const index = [
    "# API reference",
    "",
    `<!-- Generated from sdk/schema.json (${schema.name} ${schema.version}) by scripts/referenceDocs.ts: npm run docs:reference. -->`,
    "",
    "One page per resource, from the schema the plugin serves. Property names are as in TypeScript and",
    "YAML; the Python SDK spells them in snake_case (`db_max_threads`), the Go SDK in PascalCase (`DbMaxThreads`).",
    "",
    ...tokens.map(
      (t) => `- [\`${nameOf(t)}\`](${nameOf(t)}.md): ${schema.resources[t]?.description.split("\n")[0] ?? ""}`,
    ),
    "",
    `Functions: [${Object.keys(schema.functions ?? {})
      .map((t) => `\`${nameOf(t)}\``)
      .join(", ")}](functions.md).`,
  ];
  pages.set("README.md", `${index.join("\n")}\n`);
  return pages;
}

if (require.main === module) {
  const dir = referenceDir();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of referencePages()) writeFileSync(join(dir, file), text);
  console.log(`reference pages written to ${dir}`);
}
