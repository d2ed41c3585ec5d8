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
    // Every member of either, without building their union: diff compares a thousand states in a refresh.
    for (const k of Object.keys(a)) if (!deepEqual(memberOf(a, k), memberOf(b, k))) return false;
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k) && !deepEqual(undefined, memberOf(b, k))) return false;
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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `name[0].x`: the engine's property path syntax. */
function pathOf(base: string, key: string | number): string {
  return typeof key === "number"
    ? `${base}[${key}]`
    : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
      ? `${base}.${key}`
      : `${base}["${key}"]`;
}

/** The paths of the members that differ between two compared forms, each with its change. */
export function changedPaths(
  path: string,
  before: unknown,
  after: unknown,
  replaces: boolean,
  out: Record<string, PropertyChange> = {},
): Record<string, PropertyChange> {
  if (deepEqual(before, after)) return out;
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++)
      changedPaths(pathOf(path, i), before[i], after[i], replaces, out);
    return out;
  }
  if (isRecord(before) && isRecord(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
      changedPaths(pathOf(path, k), before[k], after[k], replaces, out);
    return out;
  }
  out[path] = changeOf(before, after, replaces);
  return out;
}

export function diffProperties(
  olds: Values,
  news: Values,
  properties: readonly string[],
  replaceOn: readonly string[],
  comparedForm: ComparedForm = asIs,
  /** Stable unless the object is replaced. */
  stableOutputs: readonly string[] = [],
  /** Told by member (PropertySpec.diffByPath) while the new value is known. */
  byPath: readonly string[] = [],
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
    detailedDiff: Object.fromEntries(
      changed.flatMap((p) => {
        const replacing = replaceOn.includes(p);
        if (!byPath.includes(p) || containsUnknown(news[p])) return [[p, changeOf(olds[p], news[p], replacing)]];
        const paths = Object.entries(changedPaths(p, comparedForm(p, olds[p]), comparedForm(p, news[p]), replacing));
        return paths.length > 0 ? paths : [[p, changeOf(olds[p], news[p], replacing)]];
      }),
    ),
  };
}
