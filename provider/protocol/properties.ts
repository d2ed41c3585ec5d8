// Property bags as Pulumi's dynamic-provider host hands them to a provider: plain JSON with
// secrets already unwrapped, values not known yet in preview, and the serialized provider among
// the inputs.

/** Property bag as the dynamic-provider host passes it (plain JSON, secrets already unwrapped). */
export type PropertyMap = Record<string, unknown>;

/**
 * What a check takes: the program's inputs as the engine sends them, not yet checked. The check
 * parses them (protocol/check.ts); past it a behaviour works on its definition's typed arguments.
 */
export type RawInputs = Readonly<Record<string, unknown>>;

/** Named values of any resource, typed or not: what the shared helpers read. */
export type Values = Readonly<Record<string, unknown>>;

/** The value Pulumi's host hands a provider for an input that is not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const PROVIDER_KEY = "__provider";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
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

/** The values `props` holds under `names`, undefined ones left out; each keeps its type in `props`. */
export function pick<T extends Values, const N extends string>(
  props: T,
  names: readonly N[],
): Partial<Pick<T, N & keyof T>> {
  // fromEntries forgets which value is whose; each is props[n] as it was.
  return compact(Object.fromEntries(names.map((n) => [n, props[n]]))) as Partial<Pick<T, N & keyof T>>;
}

/** A listed item's id, or undefined when it has none that could be recorded (not a non-blank string). */
export function listedId(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const id = memberOf(item, "id");
  return typeof id === "string" && id.trim() !== "" ? id : undefined;
}

/** A member of an object nothing types (an answer, a raw input): what it holds under `key`, if anything. */
export function memberOf(obj: object, key: PropertyKey): unknown {
  return Reflect.get(obj, key);
}
