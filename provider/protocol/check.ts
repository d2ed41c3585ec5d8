// Zod issues become failures naming the property; what preview does not know yet is left alone.

import type { z } from "zod";
import { UNKNOWN, containsUnknown, memberOf, type RawInputs } from "./properties";
import * as rules from "./validation";
import { canonicalInputs, inputNames, namesWith, type ResourceDefinition, type TypeSpec } from "./definition";

/** "ipAccessList[0].source" from zod's path. */
function propertyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const part of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = memberOf(v, part);
  }
  return v;
}

/** Also when a value it sits inside is unknown. */
function unknownAlong(root: unknown, path: readonly PropertyKey[]): boolean {
  for (let i = 0; i <= path.length; i++) {
    if (valueAt(root, path.slice(0, i)) === UNKNOWN) return true;
  }
  return containsUnknown(valueAt(root, path));
}

/** NaN and the infinities by name, long text cut short. */
function shown(value: unknown): string {
  if (value === undefined) return "missing";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  // JSON has no text for a function or a symbol.
  const asGiven: unknown = value;
  const text = JSON.stringify(value) ?? String(asGiven);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The engine prints `property P value {V}` looking P up among top-level inputs, so a nested failure
 * names no property and says itself where it is. Values of `secretInputs` are never shown.
 */
function failureOf(
  path: readonly PropertyKey[],
  message: string,
  value: unknown,
  listsValue: boolean,
  secretInputs: readonly string[],
): CheckFailure {
  const property = propertyPath(path);
  const secret = secretInputs.includes(String(path[0]));
  if (path.length <= 1) {
    if (secret) return atSecret({ property, reason: message });
    // The engine shows {NaN} and {+Inf}; the reason says which, in words.
    const nonFinite = typeof value === "number" && !Number.isFinite(value) && !secret;
    return { property, reason: nonFinite ? `${property} is ${shown(value)}: ${message}` : message };
  }
  if (!listsValue) return { property: "", reason: `${property}: ${message}` };
  const valueText = secret ? `not shown (${String(path[0])} is secret)` : shown(value);
  return { property: "", reason: `${property} is ${valueText}: ${message}` };
}

/** No property for the engine to look up, since it prints that property's value, secret or not. */
function atSecret(f: CheckFailure): CheckFailure {
  return { property: "", reason: f.reason.startsWith(`${f.property} `) ? f.reason : `${f.property}: ${f.reason}` };
}

/** Issues about values unknown in preview are dropped: checked again once known. */
function checkInputs(
  schema: z.ZodType,
  inputs: RawInputs,
  secretInputs: readonly string[] = [],
): { inputs: RawInputs; failures: CheckFailure[] } {
  const parsed = schema.safeParse(inputs);
  const failures: CheckFailure[] = [];
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      // At its own name, not at the object holding it.
      const paths = issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
      for (const path of paths) {
        if (unknownAlong(inputs, path)) continue;
        const failure = failureOf(
          path,
          issue.message,
          valueAt(inputs, path),
          issue.code !== "unrecognized_keys",
          secretInputs,
        );
        const key = `${failure.property}\u0000${failure.reason}`;
        if (!seen.has(key)) failures.push(failure);
        seen.add(key);
      }
    }
  }
  return { inputs, failures };
}

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export type Checked<A> =
  | { readonly ok: true; readonly inputs: A }
  | { readonly ok: false; readonly inputs: RawInputs; readonly failures: readonly CheckFailure[] };

function typeCheck(name: string, type: TypeSpec): z.ZodType {
  if (type.kind === "string") return rules.z.string({ error: `${name} must be a string` });
  if (type.kind === "boolean") return rules.z.boolean({ error: `${name} must be true or false` });
  if (type.kind === "enum") return rules.oneOf(name, type.values);
  throw new Error(`the definition gives ${name} (${type.kind}) no check`);
}

const schemas = new WeakMap<ResourceDefinition, z.ZodType>();

/** Built once per definition. */
export function argsSchema(def: ResourceDefinition): z.ZodType {
  const known = schemas.get(def);
  if (known !== undefined) return known;
  const names = inputNames(def);
  const shape: Record<string, z.ZodType> = {};
  for (const n of names) {
    const p = def.properties[n];
    if (p === undefined) continue;
    const check = p.check === undefined ? typeCheck(n, p.type) : p.check(rules);
    shape[n] = p.required === true ? check : check.optional();
  }
  const object = rules.strictObject(shape, {
    unknownProperty: `the properties are ${names.join(", ")}`,
    ...(def.notAnObject === undefined ? {} : { notAnObject: def.notAnObject }),
  });
  const refine = def.refine;
  const schema =
    refine === undefined
      ? object
      : object.refine((args) => refine.test(args), { error: refine.error, path: [refine.property] });
  schemas.set(def, schema);
  return schema;
}

/**
 * What the engine prints after "has a problem:" starts with this code (ERROR_CODES' INVALID_INPUT,
 * docs/errors.md): the engine's own words before it are not ours to change.
 */
export const INVALID_INPUT = "[INVALID_INPUT] ";

/**
 * The definition, then rules across arguments (none repeating a failing property), each coded
 * INVALID_INPUT; then `more`, coded already (the connection's settings, CONFIG). Caseless values are
 * kept in lower case.
 */
export function checkArgs<A>(
  def: ResourceDefinition,
  news: RawInputs,
  crossField: (inputs: RawInputs) => readonly CheckFailure[],
  more: readonly CheckFailure[],
): Checked<A> {
  const secret = namesWith(def, "secret");
  const result = checkInputs(argsSchema(def), news, secret);
  const failures: CheckFailure[] = [...result.failures];
  const failing = (name: string) =>
    failures.some(
      (x) =>
        x.property === name ||
        (x.property === "" && (x.reason.startsWith(`${name} `) || x.reason.startsWith(`${name}:`))),
    );
  for (const f of crossField(news))
    if (!failing(f.property)) failures.push(secret.includes(f.property) ? atSecret(f) : f);
  const all = [...failures.map((f) => ({ property: f.property, reason: INVALID_INPUT + f.reason })), ...more];
  if (all.length > 0) return { ok: false, inputs: news, failures: all };
  // Past here the inputs are typed arguments.
  return { ok: true, inputs: canonicalInputs(def, news) as A };
}
