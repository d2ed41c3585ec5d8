/** As the dynamic host passes it: plain JSON, secrets unwrapped, the serialized provider among inputs. */
export type PropertyMap = Record<string, unknown>;

/** Where untyped inputs enter: only a check takes them; past it, behaviour has typed arguments. */
export type RawInputs = Readonly<Record<string, unknown>>;

/** Any resource's values, typed or not, for shared helpers. */
export type Values = Readonly<Record<string, unknown>>;

/** Pulumi's value for an input not known yet in preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}

/** The wire and Pulumi's Struct encoding reject undefined. */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

export function pick<T extends Values, const N extends string>(
  props: T,
  names: readonly N[],
): Partial<Pick<T, N & keyof T>> {
  // fromEntries forgets the types; each is props[n] as it was.
  return compact(Object.fromEntries(names.map((n) => [n, props[n]]))) as Partial<Pick<T, N & keyof T>>;
}

/** Undefined unless a non-blank string: none other could be recorded. */
export function listedId(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const id = memberOf(item, "id");
  return typeof id === "string" && id.trim() !== "" ? id : undefined;
}

/** The one way to read a member of an untyped object (an answer, a raw input). */
export function memberOf(obj: object, key: PropertyKey): unknown {
  return Reflect.get(obj, key);
}
