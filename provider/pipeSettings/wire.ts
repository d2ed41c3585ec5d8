// Answers are read liberally.

import { z } from "../protocol/zod";
import { wireObject } from "../protocol/validation";
import { fromWire as mapped, toWire as mapping, type ArgsOf, type StateOf } from "../protocol/definition";
import { outputRules } from "../protocol/definition";
import { outputsFrom } from "../protocol/outputRules";
import type { Values } from "../protocol/properties";
import { SETTING_NAMES, wireName, type SettingName } from "../serviceFacts/pipeSettings";
import { PIPES_SEGMENT, type CloudDialect } from "../serviceFacts/cloudDialects";
import { PIPE_SETTINGS_RESOURCE as DEF } from "./definition";
import { apiPath } from "../http/paths";

/** GET leaves out settings never set; members may be null; unknown ones are ignored. */
const settingsAnswer = z.object({ result: wireObject });

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

/** The definition maps the contract's names; another dialect's are renamed at the wire, one fact each. */
function renamed(
  body: Readonly<Record<string, unknown>>,
  from: CloudDialect,
  to: CloudDialect,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of SETTING_NAMES) if (wireName(n, from) in body) out[wireName(n, to)] = body[wireName(n, from)];
  return out;
}

/** Only `dialect`'s names are read: another dialect's are unknown members. */
export function fromWire(result: Record<string, unknown>, dialect: CloudDialect): EffectiveSettings {
  return effectiveSettings(mapped(DEF, dialect === "contract" ? result : renamed(result, dialect, "contract"), "keep"));
}

export function toWire(values: Values, dialect: CloudDialect): Record<string, unknown> {
  const body = mapping(DEF, values, SETTING_NAMES, "send");
  return dialect === "contract" ? body : renamed(body, "contract", dialect);
}

export function settingsPath(organizationId: string, serviceId: string, pipeId: string, dialect: CloudDialect): string {
  const id = (name: string, value: string) => ({ name, value, form: "uuid" }) as const;
  return apiPath(
    "pipe settings",
    "/v1/organizations/",
    id("organizationId", organizationId),
    "/services/",
    id("serviceId", serviceId),
    `/${PIPES_SEGMENT[dialect]}/`,
    id("pipeId", pipeId),
    "/settings",
  );
}
