// The PipeSettings resource's wire: what the service answers, how it becomes outputs, and the
// mapping between Pulumi's camelCase names and the wire's snake_case ones.

import { z } from "../protocol/zod";
import { SETTING_NAMES, wireName, type SettingName } from "../serviceFacts/pipeSettings";
import { outputsFrom, type OutputRule, type OutputRules } from "../protocol/outputRules";
import type { PropertyMap } from "../protocol/properties";
import { apiPath } from "../http/paths";

/**
 * The `result` of PUT and GET …/settings, read liberally: the real service's GET leaves out settings
 * never set, members may be null, unknown members are ignored, and each value is kept as it came.
 */
const settingsAnswer = z.object({ result: z.record(z.string(), z.unknown()) });

/** Each setting's value as the service gave it; null when it is unset or was left out. */
export type EffectiveSettings = Record<SettingName, unknown>;

/** The settings object of a 2xx answer, or undefined when its body holds none (an empty body). */
export function settingsIn(body: unknown): Record<string, unknown> | undefined {
  const parsed = settingsAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

/** Every setting alike: null is "unset", and so is a setting the answer leaves out (the real GET omits those never set). */
const UNSET_WHEN_MISSING: OutputRule = { nullMeans: "cleared", whenAbsent: [{ value: null }] };
const SETTING_OUTPUTS = Object.fromEntries(
  SETTING_NAMES.map((n) => [n, UNSET_WHEN_MISSING]),
) as OutputRules<SettingName>;

/** The effective settings from values under their Pulumi names: an answer's, or stored outputs. */
export function effectiveSettings(values: PropertyMap): EffectiveSettings {
  return outputsFrom(SETTING_OUTPUTS, SETTING_NAMES, values) as EffectiveSettings;
}

export function fromWire(result: Record<string, unknown>): EffectiveSettings {
  return effectiveSettings(Object.fromEntries(SETTING_NAMES.map((n) => [n, result[wireName(n)]])));
}

export function toWire(values: Partial<Record<SettingName, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const n of SETTING_NAMES) if (n in values && values[n] !== undefined) body[wireName(n)] = values[n];
  return body;
}

/** A pipe's settings: its three ids uuids. */
export function settingsPath(organizationId: string, serviceId: string, pipeId: string): string {
  const id = (name: string, value: string) => ({ name, value, form: "uuid" }) as const;
  return apiPath(
    "pipe settings",
    "/v1/organizations/",
    id("organizationId", organizationId),
    "/services/",
    id("serviceId", serviceId),
    "/pipes/",
    id("pipeId", pipeId),
    "/settings",
  );
}
