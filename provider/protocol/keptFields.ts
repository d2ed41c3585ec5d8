// A field the service holds and the definition does not name is never cleared by an update: where a
// PUT replaces the whole object, what the service holds for it is sent back, under the program's own
// body. Named members the program left out stay left out (each resource's rule for those). Each
// field, and why kept: docs/design/fields-kept.md.

import type { ResourceDefinition, TypeSpec } from "./definition";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The service's own members of an object, which no request body takes (its times and team are named outputs). */
const SERVICE_OWNED: readonly string[] = ["id", "_id", "__v"];

/** By an object type's name: whether a held value's unnamed members still belong to the new one. */
export type StillSame = Readonly<Record<string, (ours: Obj, held: Obj) => boolean>>;

/**
 * `body` (wire form) with what `held` (the object as the service holds it, wire form) has that the
 * definition does not name, at any depth of a named object. Items of a list of objects are matched by
 * `id` where their type has one (tiles, filters, containers), else by place when the lengths agree.
 * A held null is nothing held.
 */
export function withKept(def: ResourceDefinition, body: Obj, held: Obj | undefined, same: StillSame = {}): Obj {
  if (held === undefined) return body;
  const named = new Map<string, TypeSpec>();
  for (const [n, p] of Object.entries(def.properties))
    for (const w of [n, ...(typeof p.wire === "string" ? [p.wire] : []), ...(p.answer ?? [])]) named.set(w, p.type);
  const out: Obj = { ...body };
  for (const [k, v] of Object.entries(held)) {
    if (SERVICE_OWNED.includes(k) || v === null || v === undefined) continue;
    const type = named.get(k);
    if (type === undefined) {
      if (out[k] === undefined) out[k] = v;
    } else if (out[k] !== undefined) out[k] = kept(type, out[k], v, same);
  }
  return out;
}

function kept(type: TypeSpec, ours: unknown, held: unknown, same: StillSame): unknown {
  if (type.kind === "object") {
    if (!isObj(ours) || !isObj(held) || same[type.name]?.(ours, held) === false) return ours;
    const out: Obj = { ...ours };
    for (const [k, v] of Object.entries(held)) {
      if (v === null || v === undefined || out[k] === undefined) {
        if (v !== null && v !== undefined && type.fields[k] === undefined) out[k] = v;
        continue;
      }
      const field = type.fields[k];
      if (field !== undefined) out[k] = kept(field.type, out[k], v, same);
    }
    return out;
  }
  if (type.kind !== "array" || type.items.kind !== "object" || !Array.isArray(ours) || !Array.isArray(held))
    return ours;
  const items = type.items;
  if (items.fields.id !== undefined) {
    const byId = new Map(held.filter(isObj).map((h) => [h.id, h]));
    return ours.map((item: unknown) =>
      isObj(item) && typeof item.id === "string" && item.id !== "" ? kept(items, item, byId.get(item.id), same) : item,
    );
  }
  return ours.length === held.length ? ours.map((item: unknown, i) => kept(items, item, held[i], same)) : ours;
}

/**
 * Outputs without the members of a named object the definition does not name: those are the
 * service's to keep, never a difference a refresh shows.
 */
export function namedOnly<T extends Readonly<Record<string, unknown>>>(def: ResourceDefinition, values: T): T {
  const out: Obj = { ...values };
  for (const [n, v] of Object.entries(values)) {
    const p = def.properties[n];
    if (p !== undefined) out[n] = pruned(p.type, v);
  }
  return out as T;
}

function pruned(type: TypeSpec, value: unknown): unknown {
  if (type.kind === "array" && Array.isArray(value)) return value.map((item: unknown) => pruned(type.items, item));
  if (type.kind !== "object" || !isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    const field = type.fields[k];
    if (field !== undefined) out[k] = pruned(field.type, v);
  }
  return out;
}
