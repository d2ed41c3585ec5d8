// The PipeSettings resource's arguments: what a program may pass (check's schema), each setting's
// check built from the table of facts.

import { z } from "../protocol/zod";
import {
  PIPE_SETTINGS,
  SETTING_NAMES,
  allowedValues,
  type SettingFact,
  type SettingName,
} from "../serviceFacts/pipeSettings";
import { strictObject, uuid } from "../protocol/validation";

/** The check of one setting's value, built from the table of facts: this is where ranges are checked. */
function settingSchema(name: SettingName): z.ZodType<number | boolean | null> {
  const fact: SettingFact = PIPE_SETTINGS[name];
  const message = `${name} must be ${allowedValues(name)}`;
  const value =
    fact.kind === "boolean"
      ? z.boolean({ error: message })
      : z
          .number({ error: message })
          .int({ error: message })
          .min(fact.min, { error: message })
          .max(fact.max, { error: message });
  return value.nullable();
}

const settingShape = Object.fromEntries(SETTING_NAMES.map((n) => [n, settingSchema(n).optional()])) as Record<
  SettingName,
  z.ZodOptional<z.ZodType<number | boolean | null>>
>;

export const pipeSettingsArgsSchema = strictObject(
  {
    organizationId: uuid("organizationId"),
    serviceId: uuid("serviceId"),
    pipeId: uuid("pipeId"),
    resetOnDelete: z.boolean({ error: "resetOnDelete must be true or false" }).optional(),
    ...settingShape,
  },
  {
    unknownProperty: `the properties are organizationId, serviceId, pipeId, resetOnDelete and ${SETTING_NAMES.join(", ")}`,
  },
).refine((args) => SETTING_NAMES.some((n) => n in args), {
  error: `set at least one setting (the service refuses an empty update): ${SETTING_NAMES.join(", ")}`,
  path: ["settings"],
});

/** The pipe's path: changing any of these names another pipe, so a new resource. */
export const REPLACE_ON = ["organizationId", "serviceId", "pipeId"] as const;

/** Uuids are case-insensitive (the service treats them alike): only their lower-case form is compared or kept. */
export function comparedForm(property: string, value: unknown): unknown {
  return (REPLACE_ON as readonly string[]).includes(property) && typeof value === "string"
    ? value.toLowerCase()
    : value;
}
