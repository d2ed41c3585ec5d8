// How a provider's diff compares stored outputs with the program's inputs, and how outputs an
// update cannot change stay known in preview.

import { containsUnknown, memberOf, type Values } from "./properties";

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
    for (const k of keys) if (!deepEqual(memberOf(a, k), memberOf(b, k))) return false;
    return true;
  }
  return false;
}

/** The form two values of a property are compared in, where the service may store one differently. */
export type ComparedForm = (property: string, value: unknown) => unknown;

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
export interface Diff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly stables: string[];
  readonly deleteBeforeReplace: boolean;
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
  olds: Values,
  news: Values,
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
    // Declared for an engine that honours them; 3.248 does not (see dynamic/carry.ts).
    stables: replaces.length > 0 ? [] : [...stables, ...stableOutputs],
    deleteBeforeReplace: false,
    detailedDiff: Object.fromEntries(changed.map((p) => [p, changeOf(olds[p], news[p], replaceOn.includes(p))])),
  };
}
