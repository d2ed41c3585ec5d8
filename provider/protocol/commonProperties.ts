// Properties several definitions share. Loads no zod, like the definitions.

import type { CheckRules, PropertyDef } from "./definition";

/** A uuid of the object's path (organizationId, serviceId, …): another one names another object, a new resource. */
export const uuidPathPart = <const D extends string>(name: string, description: D) =>
  ({
    type: { kind: "string" },
    description,
    role: "both",
    required: true,
    replaces: true,
    caseless: true,
    check: ({ uuid }: CheckRules) => uuid(name),
  }) as const satisfies PropertyDef;

/** A string the service limits to `max` characters. */
export const limited =
  (property: string, max: number) =>
  ({ z }: CheckRules) =>
    z
      .string({ error: `${property} must be a string` })
      .max(max, { error: `${property} must be at most ${max} characters` });

/** The service stores it trimmed, so it is compared trimmed. */
export function trimmedName<Description extends string>(
  description: Description,
  problem: (name: string) => string | undefined,
) {
  return {
    type: { kind: "string" },
    description,
    role: "both",
    required: true,
    whenAbsent: { nullMeans: "absent", whenAbsent: ["program"] },
    compared: (v: unknown) => (typeof v === "string" ? v.trim() : v),
    check: ({ z }: CheckRules) =>
      z.string({ error: "name is required: a string of 1 to 1024 characters" }).superRefine((value, ctx) => {
        const message = problem(value);
        if (message !== undefined) ctx.addIssue({ code: "custom", message });
      }),
  } as const;
}

/** A list of objects of one named shape, as a property's type. */
export const objectList = <const N extends string, const D extends string, const F>(
  name: N,
  description: D,
  fields: F,
) => ({ kind: "array", items: { kind: "object", name, description, fields } }) as const;

/**
 * The importId of a resource whose create takes over an existing object: it reads it (failing, with
 * nothing created, when there is none) and writes `writes`; `noun` is what the service calls it.
 */
export const takeOverId = (noun: string, writes: string) =>
  ({
    type: { kind: "string" },
    description:
      `The id of an existing ${noun} to take over instead of creating one. The create reads it (failing, with nothing created, ` +
      `when there is none) and writes ${writes}; it never creates ` +
      "one. Once taken over, changing or removing importId changes nothing, and a destroy deletes it unless the resource has " +
      "`retainOnDelete`.",
    role: "input",
    wire: false,
    check: ({ opaquePathId }: CheckRules) => opaquePathId("importId"),
  }) as const satisfies PropertyDef;
