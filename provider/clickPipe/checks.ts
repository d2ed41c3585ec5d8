// The ClickPipe's checks: each nested type's zod built from its TypeSpec and BOUNDS, then the rules the
// description states in prose (docs/design/clickpipes.md lists each). Loaded with the check, never by
// the definition alone.

import type { z } from "zod";
import type { CheckRules, TypeSpec } from "../protocol/definition";
import { BOUNDS, DATABASE_KINDS, SOURCE_KINDS, type SourceKind } from "./shapes";

const need = (issue: { readonly input?: unknown }, what: string) =>
  issue.input === undefined ? "is required" : `must be ${what}`;

function bounded(n: z.ZodNumber, b: { min?: number; max?: number } | undefined, words: string): z.ZodNumber {
  let out = n;
  if (b?.min !== undefined) out = out.min(b.min, { error: words });
  if (b?.max !== undefined) out = out.max(b.max, { error: words });
  return out;
}

function rangeWords(kind: string, b: { min?: number; max?: number } | undefined): string {
  const what = kind === "integer" ? "an integer" : "a number";
  if (b?.min !== undefined && b.max !== undefined) return `${what} from ${b.min} to ${b.max}`;
  if (b?.min !== undefined) return `${what} of at least ${b.min}`;
  return what;
}

/** The zod of a nested type: unknown members refused, required ones named. */
export function typeSchema(rules: CheckRules, spec: TypeSpec, owner = "", field = ""): z.ZodType {
  const { z } = rules;
  const b = BOUNDS[owner]?.[field];
  switch (spec.kind) {
    case "string": {
      const s = z.string({ error: (i) => need(i, "a string") });
      return b?.max === undefined ? s : s.max(b.max, { error: `must be at most ${b.max} characters` });
    }
    case "boolean":
      return z.boolean({ error: (i) => need(i, "true or false") });
    case "integer":
    case "number": {
      const words = `must be ${rangeWords(spec.kind, b)}`;
      const n = z.number({ error: (i) => (i.input === undefined ? "is required" : words) });
      return bounded(spec.kind === "integer" ? n.int({ error: words }) : n, b, words);
    }
    case "enum":
      return z.enum(spec.values, {
        error: (i) => need(i, `one of ${spec.values.map((v) => `"${v}"`).join(", ")}`),
      });
    case "array":
      return z.array(typeSchema(rules, spec.items, owner, field), { error: (i) => need(i, "a list") });
    case "map":
      return z.record(z.string(), typeSchema(rules, spec.values, owner, field));
    case "object": {
      const shape: Record<string, z.ZodType> = {};
      for (const [n, f] of Object.entries(spec.fields)) {
        const s = typeSchema(rules, f.type, spec.name, n);
        shape[n] = f.optional === true ? s.optional() : s;
      }
      return z.strictObject(shape, {
        error: (i) =>
          i.code === "unrecognized_keys"
            ? `unknown property; ${spec.name}'s are ${Object.keys(spec.fields).join(", ")}`
            : need(i, "an object"),
      });
    }
    case "any":
      return z.unknown();
  }
}

/** PipeSettings' own checks, one per setting, in one object. */
export function settingsSchema(rules: CheckRules, checks: ReadonlyArray<readonly [string, z.ZodType]>): z.ZodType {
  const shape = Object.fromEntries(checks.map(([n, c]) => [n, c.optional()]));
  return rules.strictObject(shape, {
    unknownProperty: `the settings are ${checks.map(([n]) => n).join(", ")}`,
    notAnObject: "settings must be an object",
  });
}

export type Obj = Readonly<Record<string, unknown>>;
export const asObj = (v: unknown): Obj | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
export const set = (o: Obj | undefined, k: string) => o !== undefined && o[k] !== undefined && o[k] !== null;
export const list = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.map(asObj).filter((x): x is Obj => x !== undefined) : [];

/** The one kind set, else undefined (none or several: a failure says which). */
export function sourceKindOf(source: unknown): SourceKind | undefined {
  const o = asObj(source);
  const kinds = SOURCE_KINDS.filter((k) => set(o, k));
  return kinds.length === 1 ? kinds[0] : undefined;
}

export const isDatabaseKind = (kind: SourceKind | undefined): boolean =>
  kind !== undefined && DATABASE_KINDS.includes(kind);
