// A resource defined once; check, schema, class types, docs and the plain wire mapping read it.
// No zod is loaded here: a check is a function of the rules, built on first use.

import type * as Rules from "./validation";
import type { z } from "zod";
import type { OutputRule, OutputRules } from "./outputRules";
import { memberOf } from "./properties";

export type TypeSpec =
  | { readonly kind: "string" | "number" | "integer" | "boolean" }
  | {
      readonly kind: "enum";
      /** The schema's and TypeScript's name. */
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
      readonly fields: Readonly<
        Record<string, { readonly type: TypeSpec; readonly description: string; readonly optional?: true }>
      >;
    }
  /** `declares`: what the `ts` type needs. */
  | { readonly kind: "any"; readonly ts: string; readonly declares?: string };

export type CheckRules = typeof Rules;

export interface PropertyDef {
  readonly type: TypeSpec;
  readonly description: string;
  /** "input" is never recorded; "output" is filled in by the service or the provider. */
  readonly role: "input" | "output" | "both";
  /** "output": every state records it, though the program may leave it out (once required). */
  readonly required?: true | "output";
  /** Secret whatever the program says. */
  readonly secret?: true;
  readonly replaces?: true;
  /** An update cannot change it, so it is known in preview. */
  readonly stable?: true;
  /** Kept in lower case: the service treats uuids alike in any case. */
  readonly caseless?: true;
  /** When the type's own check is not enough; optional-ness is added. */
  readonly check?: (rules: CheckRules) => z.ZodType;
  /** Where the service may store a value in another form. */
  readonly compared?: (value: unknown) => unknown;
  /**
   * A change is told the engine member by member (`tiles[0].x`), in the compared form: what the service
   * fills in or keeps (a default, an id) is no change, and a moved item shows only what moved.
   */
  readonly diffByPath?: true;
  /** False when never sent. */
  readonly wire?: string | false;
  /** First found wins; default: the wire name. */
  readonly answer?: readonly string[];
  readonly sent?: (value: unknown) => unknown;
  /** When an answer nulls or leaves it out. */
  readonly whenAbsent?: OutputRule;
  /** Null asks for "none" or "unset". */
  readonly nullable?: true;
  /** Besides a value; default: absent unless required. */
  readonly outputMay?: readonly ("null" | "absent")[];
  readonly outputTs?: string;
  /** What to use instead; still taken. */
  readonly deprecated?: string;
}

export interface ResourceDefinition {
  /** The type token is `alertpipe:index:<name>`. */
  readonly name: string;
  readonly description: string;
  /** Joined by "/"; default: `<name>Id` alone. */
  readonly importIdForm?: readonly string[];
  readonly properties: Readonly<Record<string, PropertyDef>>;
  /** When the arguments are not an object; zod's words if left out. */
  readonly notAnObject?: string;
  /** Checked once each argument alone passes. */
  readonly refine?: {
    readonly test: (args: Record<string, unknown>) => boolean;
    readonly error: string;
    readonly property: string;
  };
  /** Declarations the classes' types need besides the definition's own. */
  readonly tsImports?: readonly string[];
}

type Props<D extends ResourceDefinition> = D["properties"];
type Named<D extends ResourceDefinition, Role extends string> = {
  [K in keyof Props<D>]: Props<D>[K]["role"] extends Role ? K : never;
}[keyof Props<D>] &
  string;
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

/** In preview a value may still be Pulumi's unknown. */
export type ArgsOf<D extends ResourceDefinition> = {
  [K in Named<D, "input" | "both"> & RequiredOf<D>]: ValueOf<Props<D>[K]["type"]>;
} & {
  [K in Exclude<Named<D, "input" | "both">, RequiredOf<D>>]?: ValueOf<Props<D>[K]["type"]> | null | undefined;
};

/** Each value as the service gave it. */
export type StateOf<D extends ResourceDefinition> = {
  [K in Named<D, "output" | "both">]?: ValueOf<Props<D>[K]["type"]> | null;
};

const entries = (def: ResourceDefinition) => Object.entries(def.properties);

/** In the definition's order. */
function namesWhere<N extends string>(def: ResourceDefinition, keep: (p: PropertyDef) => boolean): N[] {
  return entries(def)
    .filter(([, p]) => keep(p))
    .map(([n]) => n as N);
}

/** Default: the kind's own id alone (`alertId`). */
export function importIdFormOf(def: ResourceDefinition): readonly string[] {
  return def.importIdForm ?? [`${def.name.charAt(0).toLowerCase()}${def.name.slice(1)}Id`];
}

export function inputNames<D extends ResourceDefinition>(def: D): InputNameOf<D>[] {
  return namesWhere(def, (p) => p.role !== "output");
}

export function outputNames<D extends ResourceDefinition>(def: D): OutputNameOf<D>[] {
  return namesWhere(def, (p) => p.role !== "input");
}

export function namesWith<D extends ResourceDefinition>(
  def: D,
  flag: "required" | "secret" | "replaces" | "caseless" | "stable" | "diffByPath",
): NameOf<D>[] {
  return namesWhere(def, (p) => p[flag] === true);
}

export function comparedForm(def: ResourceDefinition): (property: string, value: unknown) => unknown {
  return (property, value) => {
    const p = def.properties[property];
    if (p?.caseless === true && typeof value === "string") return value.toLowerCase();
    return p?.compared === undefined ? value : p.compared(value);
  };
}

/** The one form kept. */
export function canonicalInputs<T extends Record<string, unknown>>(def: ResourceDefinition, inputs: T): T {
  const out: Record<string, unknown> = { ...inputs };
  for (const n of namesWith(def, "caseless")) if (typeof out[n] === "string") out[n] = out[n].toLowerCase();
  return out as T;
}

/** Absent values are left out, and nulls unless `nulls` sends them (asking for "none"). */
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
 * The first answer name not null; else null if `nulls` keeps it, else absent. The one place an
 * untyped answer becomes typed outputs: read liberally, values recorded as the service gave them.
 */
export function fromWire<D extends ResourceDefinition>(
  def: D,
  answer: Readonly<Record<string, unknown>>,
  nulls: "keep" | "drop",
): StateOf<D> & Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const { name, answerNames } of answeredOutputs(def)) {
    let found: unknown = undefined;
    let sawNull = false;
    for (const w of answerNames) {
      const v = answer[w];
      if (v !== undefined && v !== null) {
        found = v;
        break;
      }
      if (v === null) sawNull = true;
    }
    if (found === undefined && nulls === "keep" && sawNull) found = null;
    if (found !== undefined) out[name] = found;
  }
  return out as StateOf<D> & Readonly<Record<string, unknown>>;
}

/** Each output and the answer's names for it, worked out once per definition: a refresh maps a thousand answers. */
const answered = new WeakMap<ResourceDefinition, ReadonlyArray<{ name: string; answerNames: readonly string[] }>>();

function answeredOutputs(def: ResourceDefinition): ReadonlyArray<{ name: string; answerNames: readonly string[] }> {
  let held = answered.get(def);
  if (held === undefined) {
    held = entries(def)
      .filter(([, p]) => p.role !== "input")
      .map(([name, p]) => ({ name, answerNames: p.answer ?? [typeof p.wire === "string" ? p.wire : name] }));
    answered.set(def, held);
  }
  return held;
}

export function outputRules(def: ResourceDefinition): OutputRules<string> {
  const rules: Record<string, OutputRule> = {};
  for (const [n, p] of entries(def)) if (p.whenAbsent !== undefined) rules[n] = p.whenAbsent;
  return rules;
}
