// A Pulumi YAML program for the plugin's resources, each adopting its object with the `import`
// option on the first `up`, each reference as `${name.id}`.

import { commentLines, ConfigSecret, Reference, type Program, type ProgramValue } from "./program";

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Pulumi YAML reads `${…}` in any string as a reference and `$$` as `$`: every `$` is doubled. */
function scalar(value: string | number | boolean | null): string {
  if (typeof value === "string") return JSON.stringify(value.replaceAll("$", "$$$$"));
  if (value === null) return "null";
  return String(value);
}

/** `${name.id}`, or `${name.output["key"]}` (pulumi-yaml reads `\"` in a key as a quote, nothing else). */
function reference(ref: Reference): string {
  const at = ref.at === undefined ? "id" : `${ref.at[0]}["${ref.at[1].replaceAll('"', '\\"')}"]`;
  return JSON.stringify(`\${${ref.name}.${at}}`);
}

const key = (k: string) => (PLAIN_KEY.test(k) ? k : JSON.stringify(k));

/** `value` after `head` (a key and colon, or a list's dash), in block style at `indent`. */
function lines(head: string, value: ProgramValue, indent: string): string[] {
  if (value instanceof Reference) return [`${head} ${reference(value)}`];
  if (value instanceof ConfigSecret) return [`${head} ${JSON.stringify(`\${${value.key}}`)}`];
  if (Array.isArray(value)) {
    const items = value as readonly ProgramValue[];
    if (items.length === 0) return [`${head} []`];
    return [head, ...items.flatMap((item) => listItem(item, `${indent}  `))];
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as { readonly [k: string]: ProgramValue });
    if (entries.length === 0) return [`${head} {}`];
    return [head, ...entries.flatMap(([k, v]) => lines(`${indent}  ${key(k)}:`, v, `${indent}  `))];
  }
  return [`${head} ${scalar(value)}`];
}

/** One element of a list: `- ` and the value, a mapping's first key on the dash's line. */
function listItem(item: ProgramValue, indent: string): string[] {
  const isMapping =
    typeof item === "object" &&
    item !== null &&
    !Array.isArray(item) &&
    !(item instanceof Reference) &&
    !(item instanceof ConfigSecret);
  if (!isMapping || Object.keys(item).length === 0) return lines(`${indent}-`, item, indent);
  const [first, ...rest] = lines("", item, `${indent}`).slice(1);
  return [`${indent}- ${(first ?? "").trimStart()}`, ...rest];
}

export function yamlProgram(program: Program): string {
  const out = [
    "# Written by `alertpipe export --format yaml`. Each resource adopts its object with the `import` option on the",
    "# first `pulumi up`, which only reads it; once that `up` is done the `import:` lines may go.",
    "name: adopted",
    "runtime: yaml",
    "# The plugin as `npm install` links it; leave these lines out when it is installed with `pulumi plugin install`.",
    "plugins:",
    "  providers:",
    "    - name: alertpipe",
    "      path: ./node_modules/.bin",
  ];
  const keys = program.resources.flatMap((r) => r.configKeys);
  if (keys.length > 0) {
    out.push("# Secrets the service never returns: set each with pulumi config set --secret <key> <value>.", "config:");
    for (const k of keys) out.push(`  ${k}:`, "    type: string", "    secret: true");
  }
  out.push("resources:");
  for (const r of program.resources) {
    if (r.kind.programNote !== undefined) out.push(...commentLines(r.kind.programNote, "  # "));
    for (const said of r.notes) out.push(...commentLines(said, "  # "));
    out.push(`  ${r.name}:`, `    type: ${r.kind.token}`);
    out.push(...lines("    properties:", r.inputs, "    "));
    out.push("    options:", `      import: ${scalar(r.importId)}`);
  }
  return `${out.join("\n")}\n`;
}
