// The PipeSettings' wire: its path, and the settings an answer holds, read liberally.

import { z } from "../protocol/zod";
import { fromWire as mapped, toWire as mapping } from "../protocol/definition";
import { outputRules } from "../protocol/definition";
import { outputsFrom, type OutputRules } from "../protocol/outputRules";
import type { PropertyMap } from "../protocol/properties";
import { SETTING_NAMES, type SettingName } from "../serviceFacts/pipeSettings";
import { PIPE_SETTINGS_RESOURCE as DEF } from "./definition";
import { apiPath } from "../http/paths";

/** The real service's GET leaves out settings never set; members may be null; unknown ones are ignored. */
const settingsAnswer = z.object({ result: z.record(z.string(), z.unknown()) });

/** Each setting's value as the service gave it; null when it is unset or was left out. */
export type EffectiveSettings = Record<SettingName, unknown>;

/** The settings object of a 2xx answer, or undefined when its body holds none (an empty body). */
export function settingsIn(body: unknown): Record<string, unknown> | undefined {
  const parsed = settingsAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

const RULES = outputRules(DEF) as OutputRules<SettingName>;

/** The effective settings from values under their Pulumi names: an answer's, or stored outputs. */
export function effectiveSettings(values: PropertyMap): EffectiveSettings {
  return outputsFrom(RULES, SETTING_NAMES, values) as EffectiveSettings;
}

export function fromWire(result: Record<string, unknown>): EffectiveSettings {
  return effectiveSettings(mapped(DEF, result, "keep"));
}

export function toWire(values: PropertyMap): Record<string, unknown> {
  return mapping(DEF, values, SETTING_NAMES, "send");
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
