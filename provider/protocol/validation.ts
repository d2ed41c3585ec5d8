// Field rules shared by more than one resource, each failing with a message that names the
// property and what it accepts.

import { z } from "./zod";
import { UUID, idProblem, quotedId } from "./ids";

export { z };

/** Area B path ids: a uuid, since they are placed in the URL path. */
export function uuid(property: string): z.ZodString {
  return z
    .string({ error: `${property} must be a uuid string` })
    .regex(UUID, { error: `${property} must be a uuid (8-4-4-4-12 hex digits)` });
}

/** Opaque identifiers of area A (alert, dashboard, tile, webhook): any non-empty string. */
export function opaqueId(property: string): z.ZodString {
  return z
    .string({ error: `${property} must be a non-empty string` })
    .trim()
    .min(1, { error: `${property} must be a non-empty string` });
}

/** An opaque id the provider puts in a request's path (an alert's importId): also a safe path segment (ids.ts). */
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

/** What a strict object says of a property it does not have, and of a value that is not an object. */
interface StrictObjectWords {
  /** Follows "unknown property; ", e.g. "the properties are a, b". */
  readonly unknownProperty: string;
  /** Zod's own words when left out. */
  readonly notAnObject?: string | ((issue: { readonly input?: unknown }) => string);
}

/** A zod object that refuses properties it does not have, in words naming what it does have. */
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
