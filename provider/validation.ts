// Field rules shared by more than one resource, each failing with a message that names the
// property and what it accepts.

import { z } from "zod";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Area B path ids: a uuid, since they are placed in the URL path. */
export function uuid(property: string): z.ZodString {
  return z.string({ error: `${property} must be a uuid string` }).regex(UUID, { error: `${property} must be a uuid (8-4-4-4-12 hex digits)` });
}

/** Opaque identifiers of area A (alert, dashboard, tile, webhook): any non-empty string. */
export function opaqueId(property: string): z.ZodString {
  return z
    .string({ error: `${property} must be a non-empty string` })
    .trim()
    .min(1, { error: `${property} must be a non-empty string` });
}

export function oneOf<const T extends readonly [string, ...string[]]>(property: string, values: T): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: `${property} must be one of ${values.map((v) => `"${v}"`).join(", ")}` });
}
