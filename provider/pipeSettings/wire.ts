// The PipeSettings resource's schemas: what a program may pass (check), what the service answers,
// and the mapping between Pulumi's camelCase names and the wire's snake_case ones.

import { z } from "zod";
import { PIPE_SETTINGS, SETTING_NAMES, allowedValues, wireName, type SettingFact, type SettingName } from "../facts/pipeSettings";
import { uuid } from "../validation";

/** The check of one setting's value, built from the table of facts: this is where ranges are checked. */
function settingSchema(name: SettingName): z.ZodType<number | boolean | null> {
  const fact: SettingFact = PIPE_SETTINGS[name];
  const message = `${name} must be ${allowedValues(name)}`;
  const value =
    fact.kind === "boolean"
      ? z.boolean({ error: message })
      : z.number({ error: message }).int({ error: message }).min(fact.min, { error: message }).max(fact.max, { error: message });
  return value.nullable();
}

const settingShape = Object.fromEntries(SETTING_NAMES.map((n) => [n, settingSchema(n).optional()])) as Record<
  SettingName,
  z.ZodOptional<z.ZodType<number | boolean | null>>
>;

export const pipeSettingsArgsSchema = z
  .strictObject(
    {
      organizationId: uuid("organizationId"),
      serviceId: uuid("serviceId"),
      pipeId: uuid("pipeId"),
      resetOnDelete: z.boolean({ error: "resetOnDelete must be true or false" }).optional(),
      ...settingShape,
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown property; the properties are organizationId, serviceId, pipeId, resetOnDelete and ${SETTING_NAMES.join(", ")}`
          : undefined,
    },
  )
  .refine((args) => SETTING_NAMES.some((n) => n in args), {
    error: `set at least one setting (the service refuses an empty update): ${SETTING_NAMES.join(", ")}`,
    path: ["settings"],
  });

export type CheckedPipeSettingsArgs = z.infer<typeof pipeSettingsArgsSchema>;

/**
 * The `result` of PUT and GET …/settings, read liberally: the real service's GET leaves out settings
 * never set, members may be null, unknown members are ignored, and each value is kept as it came.
 */
export const settingsAnswer = z.object({ result: z.record(z.string(), z.unknown()) });

/** Each setting's value as the service gave it; null when it is unset or was left out. */
export type EffectiveSettings = Record<SettingName, unknown>;

/** The settings object of a 2xx answer, or undefined when its body holds none (an empty body). */
export function settingsIn(body: unknown): Record<string, unknown> | undefined {
  const parsed = settingsAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

export function fromWire(result: Record<string, unknown>): EffectiveSettings {
  return Object.fromEntries(SETTING_NAMES.map((n) => [n, result[wireName(n)] ?? null])) as EffectiveSettings;
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
