// The three operations the seed contract shows (spec/interfaces.md: A1 create alert, B1 update pipe
// settings, B2 create API key) as JSON Schemas, read from the contract's own tables, so a request of
// the contract's dialect is checked against the contract and not against our reading of it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../../scripts/packedPackage";

export interface ContractOperation {
  /** e.g. "A1. Create alert". */
  name: string;
  method: string;
  /** The path template without the base URL, e.g. /v1/organizations/{organizationId}/keys. */
  template: string;
  /** "Bearer" or "Basic". */
  scheme: string;
  body: JsonSchema;
}

export type JsonSchema = Record<string, unknown>;

/** Which table of "Resources and their fields" holds each operation's request body. */
const BODY_TABLES: Record<string, string> = {
  "A1. Create alert": "Alert: request body of create",
  "B1. Update pipe settings": "Pipe settings object",
  "B2. Create API key": "API key: request body of create",
};

export function contractOperations(text = readFileSync(join(repoRoot(), "spec", "interfaces.md"), "utf8")) {
  return Object.entries(BODY_TABLES).map(([name, table]): ContractOperation => {
    const section = sectionOf(text, `### ${name}`);
    const endpoint = /Method and path: `(\w+) \{\w+\}(\S+)`/.exec(section);
    const scheme = /`Authorization: (\w+) /.exec(section);
    if (endpoint?.[1] === undefined || endpoint[2] === undefined || scheme?.[1] === undefined)
      throw new Error(`spec/interfaces.md: no method, path or Authorization under "### ${name}"`);
    return {
      name,
      method: endpoint[1],
      template: endpoint[2],
      scheme: scheme[1],
      body: objectOf(rowsOf(sectionOf(text, `### ${table}`))),
    };
  });
}

function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`spec/interfaces.md has no "${heading}"`);
  const next = text.indexOf("\n#", start + heading.length);
  return text.slice(start, next < 0 ? undefined : next);
}

interface Row {
  field: string;
  type: string;
  required: boolean;
  notes: string;
}

/** The section's first table: Field | Type | then Required (yes/no) or Range | notes. */
function rowsOf(section: string): Row[] {
  const lines = section.split("\n").filter((l) => l.startsWith("|"));
  const header = cells(lines[0] ?? "");
  return lines.slice(2).map((line) => {
    const [field = "", type = "", third = "", notes = ""] = cells(line);
    const required = header[2] === "Required" && /yes/.test(third);
    return { field, type, required, notes: header[2] === "Range" ? `${third}|${notes}` : `${third} ${notes}` };
  });
}

function cells(line: string): string[] {
  return line
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());
}

function objectOf(rows: Row[]): JsonSchema {
  const required = rows.filter((r) => r.required).map((r) => r.field);
  return {
    type: "object",
    properties: Object.fromEntries(rows.map((r) => [r.field, schemaOf(r)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

const quoted = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");

function schemaOf(row: Row): JsonSchema {
  const { type, notes } = row;
  const range = /^(\d+) to (\d+)\|/.exec(notes);
  const bounds = range ? { minimum: Number(range[1]), maximum: Number(range[2]) } : {};
  switch (type) {
    case "number":
      return { type: "number" };
    case "string":
      return { type: "string" };
    case "string enum":
      return { type: "string", enum: quoted(notes) };
    case "integer or null":
      return { type: ["integer", "null"], ...bounds };
    case "boolean or null":
      return { type: ["boolean", "null"] };
    case "string, date-time (ISO 8601) or null":
      return { type: ["string", "null"] };
    case "array of string enum":
      return {
        type: "array",
        minItems: /at least 1/.test(notes) ? 1 : 0,
        items: { type: "string", enum: quoted(notes) },
      };
    case "object":
      return closedObject(notes);
    case "array of objects":
      return { type: "array", items: closedObject(notes) };
    default:
      throw new Error(`spec/interfaces.md: a type this reading does not know, "${type}" (${row.field})`);
  }
}

/** "fields `type` (string) and `webhookId` (string)", "fields `a`, `b`, `c`, all strings", "each item has …". */
function closedObject(notes: string): JsonSchema {
  const typed = [...notes.matchAll(/`(\w+)` \((\w+)\)/g)].map((m) => m[1] ?? "");
  const all = /fields ((?:`\w+`,? ?)+)all strings/.exec(notes);
  const names = typed.length > 0 ? typed : all?.[1] !== undefined ? quoted(all[1]) : [];
  if (names.length === 0)
    throw new Error(`spec/interfaces.md: an object whose fields this reading cannot find: ${notes}`);
  return {
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
    additionalProperties: false,
  };
}
