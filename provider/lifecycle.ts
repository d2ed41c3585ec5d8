// What the three resources' provider methods share: how check turns zod issues into failures that
// name the property, how preview unknowns are recognised, how diff compares, and how a failure
// after the object exists keeps it in state.

import type { z } from "zod";

/** The value Pulumi's host hands a provider for an input that is not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const PROVIDER_KEY = "__provider";

/** Property bag as the dynamic-provider host passes it (plain JSON, secrets already unwrapped). */
export type PropertyMap = Record<string, unknown>;

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export interface CheckResult {
  readonly inputs: PropertyMap;
  readonly failures: CheckFailure[];
}

export interface DiffResult {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly stables: string[];
  readonly deleteBeforeReplace: boolean;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}

/** "ipAccessList[0].source" from zod's path. */
export function propertyPath(path: readonly PropertyKey[]): string {
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
    v = (v as Record<PropertyKey, unknown>)[part];
  }
  return v;
}

/** True when the value at this path, or any value it sits inside, is not known yet. */
function unknownAlong(root: unknown, path: readonly PropertyKey[]): boolean {
  for (let i = 0; i <= path.length; i++) {
    if (valueAt(root, path.slice(0, i)) === UNKNOWN) return true;
  }
  return containsUnknown(valueAt(root, path));
}

/** A value as a check failure shows it: NaN and the infinities by name, long text cut short. */
function shown(value: unknown): string {
  if (value === undefined) return "missing";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  // JSON has no text for a function or a symbol; those show as String() shows them.
  const asGiven: unknown = value;
  const text = JSON.stringify(value) ?? String(asGiven);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The failure the engine shows for one zod issue. The engine prints `property P value {V}` by
 * looking P up among the top-level inputs, so a nested path would show as `{<nil>}`: a nested
 * failure names no property and says itself where it is and what it holds. A value under one of
 * `secretInputs` is never shown; the engine cannot tell us which others the program made secret.
 */
function failureOf(path: readonly PropertyKey[], message: string, value: unknown, listsValue: boolean, secretInputs: readonly string[]): CheckFailure {
  const property = propertyPath(path);
  const secret = secretInputs.includes(String(path[0]));
  if (path.length <= 1) {
    // The engine shows NaN and Infinity as {NaN} and {+Inf}; the reason says which it was, in words.
    const nonFinite = typeof value === "number" && !Number.isFinite(value) && !secret;
    return { property, reason: nonFinite ? `${property} is ${shown(value)}: ${message}` : message };
  }
  if (!listsValue) return { property: "", reason: `${property}: ${message}` };
  const what = secret ? `not shown (${String(path[0])} is secret)` : shown(value);
  return { property: "", reason: `${property} is ${what}: ${message}` };
}

/**
 * Validates the program's inputs with a resource's zod schema. Issues about values that are still
 * unknown in preview are dropped: they are checked again once known. No request is ever sent.
 */
export function checkInputs(schema: z.ZodType, news: PropertyMap, secretInputs: readonly string[] = []): CheckResult {
  const { [PROVIDER_KEY]: _provider, ...inputs } = news;
  const parsed = schema.safeParse(inputs);
  const failures: CheckFailure[] = [];
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      // An unknown property is reported at its own name, not at the object holding it.
      const paths = issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
      for (const path of paths) {
        if (unknownAlong(inputs, path)) continue;
        const failure = failureOf(path, issue.message, valueAt(inputs, path), issue.code !== "unrecognized_keys", secretInputs);
        const key = `${failure.property}\u0000${failure.reason}`;
        if (!seen.has(key)) failures.push(failure);
        seen.add(key);
      }
    }
  }
  return { inputs: news, failures };
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Absent and null both mean "not set" once stored by the engine.
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (typeof a === "object" && typeof b === "object" && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!deepEqual((a as PropertyMap)[k], (b as PropertyMap)[k])) return false;
    return true;
  }
  return false;
}

/** The form two values of a property are compared in, where the service may store one differently. */
export type Comparable = (property: string, value: unknown) => unknown;

const asIs: Comparable = (_p, value) => value;

/**
 * Whether a property changed between its stored value and the program's: the one definition that
 * diff, check and update share. A value still unknown in preview counts as changed, so preview
 * never claims "no change" it cannot know.
 */
export function hasChanged(property: string, before: unknown, after: unknown, comparable: Comparable = asIs): boolean {
  return containsUnknown(after) || !deepEqual(comparable(property, before), comparable(property, after));
}

/**
 * Compares the program's inputs with the stored outputs, property by property. A property still
 * unknown in preview counts as changed, so preview never claims "no change" it cannot know.
 */
export function diffProperties(
  olds: PropertyMap,
  news: PropertyMap,
  properties: readonly string[],
  replaceOn: readonly string[],
  comparable: Comparable = asIs,
  /** Outputs an update cannot change: stable unless the object is replaced. */
  stableOutputs: readonly string[] = [],
): DiffResult {
  const changed: string[] = [];
  const stables: string[] = [];
  for (const p of properties) {
    if (hasChanged(p, olds[p], news[p], comparable)) changed.push(p);
    else stables.push(p);
  }
  const replaces = changed.filter((p) => replaceOn.includes(p));
  return {
    changes: changed.length > 0,
    replaces,
    // Declared for an engine that honours them; 3.248 does not (see carryStableOutputs).
    stables: replaces.length > 0 ? [] : [...stables, ...stableOutputs],
    deleteBeforeReplace: false,
  };
}

/**
 * Outputs an update cannot change (an ApiKey's keySuffix), carried in the checked inputs so that
 * preview keeps them known.
 *
 * In preview the engine cannot ask a dynamic provider what an update will return (the Node host
 * does not support provider previews), so it takes the checked inputs as the outputs; and in
 * @pulumi/pulumi 3.248 neither the host nor the engine passes a diff's `stables` on. An output that
 * is not among the inputs is then unknown in every preview of an update, and whatever the program
 * builds from it (an alert whose message names the key's suffix) previews as a change that `up`
 * never makes. So `check` copies these outputs from the stored inputs, unless the change replaces
 * the object (a new object has new values), and `read` writes them into the inputs. The engine
 * stores no inputs from a create, so the carry starts with the first refresh.
 */
export function carryStableOutputs(
  olds: PropertyMap,
  checked: PropertyMap,
  stable: readonly string[],
  replaceOn: readonly string[],
  comparable: Comparable = asIs,
): PropertyMap {
  const replaces = replaceOn.some((p) => hasChanged(p, olds[p], checked[p], comparable));
  if (replaces) return checked;
  const carried: PropertyMap = { ...checked };
  for (const name of stable) {
    if (carried[name] === undefined && olds[name] !== undefined && olds[name] !== null && !containsUnknown(olds[name])) carried[name] = olds[name];
  }
  return carried;
}

/** The outputs `read` adds to the inputs it returns, so the carry above has them to copy. */
export function stableOutputsOf(outputs: PropertyMap, stable: readonly string[]): PropertyMap {
  const out: PropertyMap = {};
  for (const name of stable) if (outputs[name] !== undefined && outputs[name] !== null) out[name] = outputs[name];
  return out;
}

/**
 * An error from create/update after the object exists. The host turns `id` and `properties` into
 * ErrorResourceInitFailed, so the engine keeps the object in state instead of orphaning it.
 */
export class PartialFailure extends Error {
  constructor(
    readonly id: string,
    readonly properties: PropertyMap,
    cause: Error,
  ) {
    super(cause.message, { cause });
    this.name = "PartialFailure";
  }

  get reasons(): string[] {
    return [this.message];
  }
}

/** The program's arguments without the serialized provider the host adds to them. */
export function withoutProvider(props: PropertyMap): PropertyMap {
  const { [PROVIDER_KEY]: _provider, ...rest } = props;
  return rest;
}

/** Drops keys whose value is undefined, since the wire and Pulumi's Struct encoding reject them. */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
