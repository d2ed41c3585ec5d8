// Answers are read liberally.

import { z } from "../protocol/zod";
import { fromWire as mapped, toWire as mapping, type ArgsOf, type StateOf } from "../protocol/definition";
import { outputRules } from "../protocol/definition";
import { outputsFrom } from "../protocol/outputRules";
import type { Values } from "../protocol/properties";
import { SETTING_NAMES, type SettingName } from "../serviceFacts/pipeSettings";
import { PIPE_SETTINGS_RESOURCE as DEF } from "./definition";
import { apiPath } from "../http/paths";

/** GET leaves out settings never set; members may be null; unknown ones are ignored. */
const settingsAnswer = z.object({ result: z.record(z.string(), z.unknown()) });

export type Args = ArgsOf<typeof DEF>;
export type State = StateOf<typeof DEF>;

/** Null when unset or left out. */
export type EffectiveSettings = Pick<State, SettingName>;

/** Under their Pulumi names. */
export type Settings = Partial<Pick<Args, SettingName>>;

/** Undefined for an empty body. */
export function settingsIn(body: unknown): Record<string, unknown> | undefined {
  const parsed = settingsAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

const RULES = outputRules(DEF);

/** From an answer's values or stored outputs, under their Pulumi names. */
export function effectiveSettings(values: State): EffectiveSettings {
  return outputsFrom<State, SettingName>(RULES, SETTING_NAMES, values);
}

export function fromWire(result: Record<string, unknown>): EffectiveSettings {
  return effectiveSettings(mapped(DEF, result, "keep"));
}

export function toWire(values: Values): Record<string, unknown> {
  return mapping(DEF, values, SETTING_NAMES, "send");
}

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
