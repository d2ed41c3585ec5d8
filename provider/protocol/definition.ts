// How a resource is defined once: each property with its type, role, rules and words. The check,
// the schema, the classes' types, the docs' tables and the plain wire mapping are all read from a
// definition. No zod is loaded here: a check is a function of the rules, built on first use.

import type * as Rules from "./validation";
import type { z } from "zod";
import type { OutputRule, OutputRules } from "./outputRules";
import { memberOf } from "./properties";

/** A value's type, as the schema, the classes' types and the default check see it. */
export type TypeSpec =
  | { readonly kind: "string" | "number" | "integer" | "boolean" }
  | {
      readonly kind: "enum";
      /** The schema's and the TypeScript type's name, e.g. "ApiKeyRole". */
      readonly name: string;
      readonly description: string;
      readonly values: readonly [string, ...string[]];
      readonly meanings?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "array"; readonly items: TypeSpec }
  | { readonly kind: "map"; readonly values: TypeSpec }
  | {
      readonly kind: "object";
      readonly name: string;
      readonly description: string;
      /** Each field; an `optional` one may be left out (the schema does not require it). */
      readonly fields: Readonly<
        Record<string, { readonly type: TypeSpec; readonly description: string; readonly optional?: true }>
      >;
    }
  /** Anything the service answers; `ts` is its TypeScript type, `declares` what that type needs. */
  | { readonly kind: "any"; readonly ts: string; readonly declares?: string };

/** The rules a check is built from: zod and the shared field rules (protocol/validation.ts). */
export type CheckRules = typeof Rules;

export interface PropertyDef {
  readonly type: TypeSpec;
  readonly description: string;
  /** "input": an argument never recorded; "output": filled in by the service or the provider; "both". */
  readonly role: "input" | "output" | "both";
  /**
   * true: an input the program must set, an output every state records. "output": an output every
   * state records of an input the program may leave out (one that was required before).
   */
  readonly required?: true | "output";
  /** Secret whatever the program says. */
  readonly secret?: true;
  /** A change makes a new object. */
  readonly replaces?: true;
  /** An update cannot change it: known in its preview, stable in a diff. */
  readonly stable?: true;
  /** Compared and kept in lower case (uuids the service treats alike in any case). */
  readonly caseless?: true;
  /** The check of a value, when the type's own is not enough; optional-ness is added. */
  readonly check?: (rules: CheckRules) => z.ZodType;
  /** The form two values are compared in, where the service may store one differently. */
  readonly compared?: (value: unknown) => unknown;
  /** The name in a request body, when not the property's; false when never sent. */
  readonly wire?: string | false;
  /** The names an answer may hold it under, first found wins (default: the wire name). */
  readonly answer?: readonly string[];
  /** A value as a request body sends it. */
  readonly sent?: (value: unknown) => unknown;
  /** What an answer that nulls or leaves it out gives (protocol/outputRules.ts). */
  readonly whenAbsent?: OutputRule;
  /** The program may give null for it, to ask for "none" or "unset". */
  readonly nullable?: true;
  /** What the class's output may hold besides a value (default: absent unless required). */
  readonly outputMay?: readonly ("null" | "absent")[];
  /** The class's output type, when it is not the type's. */
  readonly outputTs?: string;
  /** Still taken, but replaced: what to use instead (the schema's deprecationMessage, a TS @deprecated). */
  readonly deprecated?: string;
}

export interface ResourceDefinition {
  /** The schema's and the class's name: the type token is `alertpipe:index:<name>`. */
  readonly name: string;
  readonly description: string;
  /** The parts of the id an import names it by, joined by "/"; left out, the one part `<name>Id` (importIdFormOf). */
  readonly importIdForm?: readonly string[];
  readonly properties: Readonly<Record<string, PropertyDef>>;
  /** What the check says when the arguments are not an object (zod's words when left out). */
  readonly notAnObject?: string;
  /** A rule over all arguments, checked once each alone passes (zod's refine). */
  readonly refine?: {
    readonly test: (args: Record<string, unknown>) => boolean;
    readonly error: string;
    /** The name the failure is reported at. */
    readonly property: string;
  };
  /** Declarations the classes' types need besides the definition's own (imports). */
  readonly tsImports?: readonly string[];
}

type Props<D extends ResourceDefinition> = D["properties"];
type Named<D extends ResourceDefinition, Role extends string> = {
  [K in keyof Props<D>]: Props<D>[K]["role"] extends Role ? K : never;
}[keyof Props<D>] &
  string;
/** A property's name; one a program may set; one a state records. Any string of ResourceDefinition's. */
export type NameOf<D extends ResourceDefinition> = keyof Props<D> & string;
export type InputNameOf<D extends ResourceDefinition> = AnyOf<D, Named<D, "input" | "both">>;
export type OutputNameOf<D extends ResourceDefinition> = AnyOf<D, Named<D, "output" | "both">>;
type AnyOf<D extends ResourceDefinition, N> = string extends NameOf<D> ? string : N;
type RequiredOf<D extends ResourceDefinition> = {
  [K in keyof Props<D>]: Props<D>[K] extends { readonly required: true } ? K : never;
}[keyof Props<D>] &
  string;

/** The TypeScript type of a value of a TypeSpec. */
export type ValueOf<T extends TypeSpec> = T extends { readonly kind: "string" }
  ? string
  : T extends { readonly kind: "number" | "integer" }
    ? number
    : T extends { readonly kind: "boolean" }
      ? boolean
      : T extends { readonly kind: "enum"; readonly values: readonly (infer V)[] }
        ? V
        : T extends { readonly kind: "array"; readonly items: infer I extends TypeSpec }
          ? ValueOf<I>[]
          : T extends { readonly kind: "map"; readonly values: infer V extends TypeSpec }
            ? Record<string, ValueOf<V>>
            : T extends { readonly kind: "object"; readonly fields: infer F }
              ? {
                  [K in keyof F]: F[K] extends { readonly type: infer FT extends TypeSpec; readonly optional: true }
                    ? ValueOf<FT> | undefined
                    : F[K] extends { readonly type: infer FT extends TypeSpec }
                      ? ValueOf<FT>
                      : never;
                }
              : unknown;

/** A resource's arguments once checked. In preview a value may still be Pulumi's unknown. */
export type ArgsOf<D extends ResourceDefinition> = {
  [K in Named<D, "input" | "both"> & RequiredOf<D>]: ValueOf<Props<D>[K]["type"]>;
} & {
  [K in Exclude<Named<D, "input" | "both">, RequiredOf<D>>]?: ValueOf<Props<D>[K]["type"]> | null | undefined;
};

/** What a state records: each output by name, its value as the service gave it. */
export type StateOf<D extends ResourceDefinition> = {
  [K in Named<D, "output" | "both">]?: ValueOf<Props<D>[K]["type"]> | null;
};

const entries = (def: ResourceDefinition) => Object.entries(def.properties);

/** The names of the properties `keep` selects, in the definition's order; N says which names those are. */
function namesWhere<N extends string>(def: ResourceDefinition, keep: (p: PropertyDef) => boolean): N[] {
  return entries(def)
    .filter(([, p]) => keep(p))
    .map(([n]) => n as N);
}

/** The parts of an import id: the definition's, else its own id alone, named for its kind (`alertId`). */
export function importIdFormOf(def: ResourceDefinition): readonly string[] {
  return def.importIdForm ?? [`${def.name.charAt(0).toLowerCase()}${def.name.slice(1)}Id`];
}

/** The properties a program may set, in the definition's order. */
export function inputNames<D extends ResourceDefinition>(def: D): InputNameOf<D>[] {
  return namesWhere(def, (p) => p.role !== "output");
}

/** The properties a state records, in the definition's order. */
export function outputNames<D extends ResourceDefinition>(def: D): OutputNameOf<D>[] {
  return namesWhere(def, (p) => p.role !== "input");
}

/** The names of the properties that have a flag. */
export function namesWith<D extends ResourceDefinition>(
  def: D,
  flag: "required" | "secret" | "replaces" | "caseless" | "stable",
): NameOf<D>[] {
  return namesWhere(def, (p) => p[flag] === true);
}

/** The form diff compares a property's values in. */
export function comparedForm(def: ResourceDefinition): (property: string, value: unknown) => unknown {
  return (property, value) => {
    const p = def.properties[property];
    if (p?.caseless === true && typeof value === "string") return value.toLowerCase();
    return p?.compared === undefined ? value : p.compared(value);
  };
}

/** Caseless inputs in lower case, the one form kept. */
export function canonicalInputs<T extends Record<string, unknown>>(def: ResourceDefinition, inputs: T): T {
  const out: Record<string, unknown> = { ...inputs };
  for (const n of namesWith(def, "caseless")) if (typeof out[n] === "string") out[n] = out[n].toLowerCase();
  return out as T;
}

/**
 * A request body of `names`: each under its wire name, as `sent` makes it; an absent value left
 * out, and a null one too unless `nulls` says it is sent (it asks for "none").
 */
export function toWire(
  def: ResourceDefinition,
  values: Readonly<Record<string, unknown>>,
  names: readonly string[],
  nulls: "send" | "drop",
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const n of names) {
    const p = def.properties[n];
    let value = values[n];
    if (p === undefined || p.wire === false || value === undefined) continue;
    if (value === null && nulls === "drop") continue;
    if (p.type.kind === "object" && typeof value === "object" && value !== null) {
      const object = value;
      value = Object.fromEntries(Object.keys(p.type.fields).map((f) => [f, memberOf(object, f)]));
    }
    body[p.wire ?? n] = p.sent === undefined ? value : p.sent(value);
  }
  return body;
}

/**
 * An answer's members under the outputs' names: the first of its answer names not null; else null
 * when one is and `nulls` keeps them (null says "unset"), else absent. The one place an answer is
 * taken as the definition types its outputs: read liberally, a value is recorded as the service gave it.
 */
export function fromWire<D extends ResourceDefinition>(
  def: D,
  answer: Readonly<Record<string, unknown>>,
  nulls: "keep" | "drop",
): StateOf<D> & Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [n, p] of entries(def)) {
    if (p.role === "input") continue;
    const names = p.answer ?? [typeof p.wire === "string" ? p.wire : n];
    const values = names.map((w) => answer[w]);
    const found =
      values.find((v) => v !== undefined && v !== null) ??
      (nulls === "keep" && values.includes(null) ? null : undefined);
    if (found !== undefined) out[n] = found;
  }
  return out as StateOf<D> & Readonly<Record<string, unknown>>;
}

/** Each output's rule for an answer that nulls or leaves it out. */
export function outputRules(def: ResourceDefinition): OutputRules<string> {
  const rules: Record<string, OutputRule> = {};
  for (const [n, p] of entries(def)) if (p.whenAbsent !== undefined) rules[n] = p.whenAbsent;
  return rules;
}
