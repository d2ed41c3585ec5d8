// How a provider's diff compares stored outputs with the program's inputs, and how outputs an
// update cannot change stay known in preview.

import type * as pulumi from "@pulumi/pulumi";
import { containsUnknown, type PropertyMap } from "./properties";

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Absent and null both mean "not set" once stored by the engine.
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (
    typeof a === "object" &&
    typeof b === "object" &&
    a !== null &&
    b !== null &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!deepEqual((a as PropertyMap)[k], (b as PropertyMap)[k])) return false;
    return true;
  }
  return false;
}

/** The form two values of a property are compared in, where the service may store one differently. */
type ComparedForm = (property: string, value: unknown) => unknown;

const asIs: ComparedForm = (_p, value) => value;

/**
 * Whether a property changed between its stored value and the program's: the one definition that
 * diff, check and update share. A value still unknown in preview counts as changed, so preview
 * never claims "no change" it cannot know.
 */
export function hasChanged(
  property: string,
  before: unknown,
  after: unknown,
  comparedForm: ComparedForm = asIs,
): boolean {
  return containsUnknown(after) || !deepEqual(comparedForm(property, before), comparedForm(property, after));
}

/** How one property changes: set where it was not, unset where it was, or another value. */
export type ChangeKind = "add" | "delete" | "update";

export interface PropertyChange {
  readonly kind: ChangeKind;
  /** Whether this change alone replaces the object. */
  readonly replaces: boolean;
}

/**
 * A diff as both front doors need it. The dynamic host reads `changes`, `replaces` and
 * `deleteBeforeReplace`; the native plugin also sends `detailedDiff`, without which the engine
 * silently ignores `replaceOnChanges` and `--diff` names no property.
 */
export interface Diff extends Required<pulumi.dynamic.DiffResult> {
  readonly detailedDiff: Readonly<Record<string, PropertyChange>>;
}

const isSet = (value: unknown) => value !== undefined && value !== null;

export function changeOf(before: unknown, after: unknown, replaces: boolean): PropertyChange {
  return {
    kind: !isSet(before) && isSet(after) ? "add" : isSet(before) && !isSet(after) ? "delete" : "update",
    replaces,
  };
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
  comparedForm: ComparedForm = asIs,
  /** Outputs an update cannot change: stable unless the object is replaced. */
  stableOutputs: readonly string[] = [],
): Diff {
  const changed: string[] = [];
  const stables: string[] = [];
  for (const p of properties) {
    if (hasChanged(p, olds[p], news[p], comparedForm)) changed.push(p);
    else stables.push(p);
  }
  const replaces = changed.filter((p) => replaceOn.includes(p));
  return {
    changes: changed.length > 0,
    replaces,
    // Declared for an engine that honours them; 3.248 does not (see carryStableOutputs).
    stables: replaces.length > 0 ? [] : [...stables, ...stableOutputs],
    deleteBeforeReplace: false,
    detailedDiff: Object.fromEntries(changed.map((p) => [p, changeOf(olds[p], news[p], replaceOn.includes(p))])),
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
  comparedForm: ComparedForm = asIs,
): PropertyMap {
  const replaces = replaceOn.some((p) => hasChanged(p, olds[p], checked[p], comparedForm));
  if (replaces) return checked;
  const carried: PropertyMap = { ...checked };
  for (const name of stable) {
    if (carried[name] === undefined && olds[name] !== undefined && olds[name] !== null && !containsUnknown(olds[name]))
      carried[name] = olds[name];
  }
  return carried;
}

/** The outputs `read` adds to the inputs it returns, so the carry above has them to copy. */
export function stableOutputsOf(outputs: PropertyMap, stable: readonly string[]): PropertyMap {
  const out: PropertyMap = {};
  for (const name of stable) if (outputs[name] !== undefined && outputs[name] !== null) out[name] = outputs[name];
  return out;
}
