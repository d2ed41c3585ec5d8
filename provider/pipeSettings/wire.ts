// The PipeSettings resource's schemas: what a program may pass (check), what the service answers,
// and the mapping between Pulumi's camelCase names and the wire's snake_case ones.

import { z } from "zod";
import { PIPE_SETTINGS, SETTING_NAMES, settingSchema, wireName, type SettingName } from "./settings";
import { uuid } from "../validation";

const settingShape = Object.fromEntries(SETTING_NAMES.map((n) => [n, settingSchema(n).optional()])) as Record<
  SettingName,
  z.ZodOptional<z.ZodType<number | boolean | null>>
>;

export const pipeSettingsArgs = z
  .strictObject(
    {
      organizationId: uuid("organizationId"),
      serviceId: uuid("serviceId"),
      pipeId: uuid("pipeId"),
      resetOnDelete: z.boolean({ error: "resetOnDelete must be true or false" }).optional(),
      ...settingShape,
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown property; the properties are organizationId, serviceId, pipeId, resetOnDelete and ${SETTING_NAMES.join(", ")}` : undefined) },
  )
  .refine((args) => SETTING_NAMES.some((n) => n in args), {
    error: `set at least one setting (the service refuses an empty update): ${SETTING_NAMES.join(", ")}`,
    path: ["settings"],
  });

export type PipeSettingsArgs = z.infer<typeof pipeSettingsArgs>;

/** The `result` of PUT and GET …/settings: all twelve wire fields, null when unset. */
const wireSettings = z.object(
  Object.fromEntries(
    SETTING_NAMES.map((n) => [wireName(n), (PIPE_SETTINGS[n].kind === "boolean" ? z.boolean() : z.number()).nullable().optional()]),
  ),
);

export const settingsEnvelope = z.object({ requestId: z.string().optional(), status: z.number().optional(), result: wireSettings });

export type EffectiveSettings = Record<SettingName, number | boolean | null>;

export function fromWire(result: z.infer<typeof wireSettings>): EffectiveSettings {
  return Object.fromEntries(SETTING_NAMES.map((n) => [n, (result[wireName(n)] as number | boolean | null | undefined) ?? null])) as EffectiveSettings;
}

export function toWire(values: Partial<Record<SettingName, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const n of SETTING_NAMES) if (n in values && values[n] !== undefined) body[wireName(n)] = values[n];
  return body;
}

/** The settings the program sets (an explicit null counts: it asks for "unset"). */
export function managedIn(props: Record<string, unknown>): SettingName[] {
  return SETTING_NAMES.filter((n) => n in props && props[n] !== undefined);
}

export function settingsPath(organizationId: string, serviceId: string, pipeId: string): string {
  const e = encodeURIComponent;
  return `/v1/organizations/${e(organizationId)}/services/${e(serviceId)}/pipes/${e(pipeId)}/settings`;
}
