// Stored outputs against the program's inputs; outputs an update cannot change stay known in preview.

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

/** Where the service may store a value in another form. */
export type ComparedForm = (property: string, value: unknown) => unknown;

const asIs: ComparedForm = (_p, value) => value;

/** The one test diff, check and update share. Unknown counts as changed: preview never claims "no change". */
export function hasChanged(
  property: string,
  before: unknown,
  after: unknown,
  comparedForm: ComparedForm = asIs,
): boolean {
  return containsUnknown(after) || !deepEqual(comparedForm(property, before), comparedForm(property, after));
}

export type ChangeKind = "add" | "delete" | "update";

export interface PropertyChange {
  readonly kind: ChangeKind;
  readonly replaces: boolean;
}

/** Without `detailedDiff` (native only) the engine ignores `replaceOnChanges` and `--diff` names nothing. */
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

export function diffProperties(
  olds: Values,
  news: Values,
  properties: readonly string[],
  replaceOn: readonly string[],
  comparedForm: ComparedForm = asIs,
  /** Stable unless the object is replaced. */
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
    // For an engine that honours them; the dynamic host does not (dynamic/carry.ts).
    stables: replaces.length > 0 ? [] : [...stables, ...stableOutputs],
    deleteBeforeReplace: false,
    detailedDiff: Object.fromEntries(changed.map((p) => [p, changeOf(olds[p], news[p], replaceOn.includes(p))])),
  };
}
