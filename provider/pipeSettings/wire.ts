// The PipeSettings' wire: its path, and the settings an answer holds, read liberally.

import { z } from "../protocol/zod";
import { fromWire as mapped, toWire as mapping, type ArgsOf, type StateOf } from "../protocol/definition";
import { outputRules } from "../protocol/definition";
import { outputsFrom } from "../protocol/outputRules";
import type { Values } from "../protocol/properties";
import { SETTING_NAMES, type SettingName } from "../serviceFacts/pipeSettings";
import { PIPE_SETTINGS_RESOURCE as DEF } from "./definition";
import { apiPath } from "../http/paths";

/** The real service's GET leaves out settings never set; members may be null; unknown ones are ignored. */
const settingsAnswer = z.object({ result: z.record(z.string(), z.unknown()) });

/** The settings' arguments once checked, and what a state records. */
export type Args = ArgsOf<typeof DEF>;
export type State = StateOf<typeof DEF>;

/** Each setting's value as the service gave it; null when it is unset or was left out (by its rule). */
export type EffectiveSettings = Pick<State, SettingName>;

/** Settings a program sets, under their Pulumi names. */
export type Settings = Partial<Pick<Args, SettingName>>;

/** The settings object of a 2xx answer, or undefined when its body holds none (an empty body). */
export function settingsIn(body: unknown): Record<string, unknown> | undefined {
  const parsed = settingsAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

const RULES = outputRules(DEF);

/** The effective settings from values under their Pulumi names: an answer's, or stored outputs. */
export function effectiveSettings(values: State): EffectiveSettings {
  return outputsFrom<State, SettingName>(RULES, SETTING_NAMES, values);
}

export function fromWire(result: Record<string, unknown>): EffectiveSettings {
  return effectiveSettings(mapped(DEF, result, "keep"));
}

export function toWire(values: Values): Record<string, unknown> {
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
