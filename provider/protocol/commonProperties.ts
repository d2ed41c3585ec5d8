// Properties more than one definition writes alike (Webhook, SavedSearch). Like the definitions,
// loads no zod: the checks are functions of the rules.

import type { CheckRules } from "./definition";

/** A string the service limits to `max` characters. */
export const limited =
  (property: string, max: number) =>
  ({ z }: CheckRules) =>
    z
      .string({ error: `${property} must be a string` })
      .max(max, { error: `${property} must be at most ${max} characters` });

/**
 * The required `name` of an object the service stores trimmed, 1 to 1024 characters once trimmed:
 * compared trimmed; `problem` words what is wrong with a name (undefined for none).
 */
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
