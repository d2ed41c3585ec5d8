// Shared field rules; each failure names the property and what it accepts.

import { z } from "./zod";
import { UUID, idProblem, quotedId } from "./ids";

export { z };

/**
 * An answer's object, its members unchecked: what `z.record(z.string(), z.unknown())` takes, held
 * as it came rather than copied member by member (a refresh reads a thousand; seven times faster).
 */
export const wireObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
);

/** Area B ids go in URL paths. */
export function uuid(property: string): z.ZodString {
  return z
    .string({ error: `${property} must be a uuid string` })
    .regex(UUID, { error: `${property} must be a uuid (8-4-4-4-12 hex digits)` });
}

/** Area A's ids are opaque. */
export function opaqueId(property: string): z.ZodString {
  return z
    .string({ error: `${property} must be a non-empty string` })
    .trim()
    .min(1, { error: `${property} must be a non-empty string` });
}

/** One the provider puts in a path (an alert's importId) must be a safe segment. */
export function opaquePathId(property: string) {
  return opaqueId(property).superRefine((value, ctx) => {
    // An empty one is opaqueId's to say.
    const problem = value === "" ? undefined : idProblem(value, "opaque");
    if (problem !== undefined)
      ctx.addIssue({ code: "custom", message: `${property} ${quotedId(value)} cannot be used: ${problem}` });
  });
}

export function oneOf<const T extends readonly [string, ...string[]]>(
  property: string,
  values: T,
): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: `${property} must be one of ${values.map((v) => `"${v}"`).join(", ")}` });
}

interface StrictObjectWords {
  /** Follows "unknown property; ", e.g. "the properties are a, b". */
  readonly unknownProperty: string;
  /** Zod's words when left out. */
  readonly notAnObject?: string | ((issue: { readonly input?: unknown }) => string);
}

/** Refuses unknown properties, naming the known ones. */
export function strictObject<T extends z.core.$ZodLooseShape>(shape: T, words: StrictObjectWords) {
  const notAnObject = (issue: { readonly input?: unknown }) =>
    typeof words.notAnObject === "function" ? words.notAnObject(issue) : words.notAnObject;
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown property; ${words.unknownProperty}`
        : issue.code === "invalid_type"
          ? notAnObject(issue)
          : undefined,
  });
}
