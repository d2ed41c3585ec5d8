// The PipeSettings, each property once; the settings come from their table of facts.

import type { PropertyDef, ResourceDefinition } from "../protocol/definition";
import { uuidPathPart } from "../protocol/commonProperties";
import {
  PIPE_SETTINGS,
  SETTING_NAMES,
  allowedValues,
  takesNull,
  type SettingFact,
  type SettingName,
} from "../serviceFacts/pipeSettings";

const meaning = (fact: SettingFact) => `${fact.meaning[0]?.toUpperCase() ?? ""}${fact.meaning.slice(1)}`;

/** Null is "unset", and so is one the answer leaves out. */
function setting(name: SettingName) {
  const fact: SettingFact = PIPE_SETTINGS[name];
  const message = `${name} must be ${allowedValues(name)}`;
  return {
    type: { kind: fact.kind },
    description: `${meaning(fact)}: ${allowedValues(name)}.`,
    role: "both",
    nullable: true,
    wire: fact.wire,
    whenAbsent: { nullMeans: "cleared", whenAbsent: [{ value: null }] },
    outputMay: ["null"],
    check: ({ z }) => {
      const value =
        fact.kind === "boolean"
          ? z.boolean({ error: message })
          : z
              .number({ error: message })
              .int({ error: message })
              .min(fact.min, { error: message })
              .max(fact.max, { error: message });
      return takesNull(name) ? value.nullable() : value;
    },
  } as const satisfies PropertyDef;
}

type Settings = {
  readonly [N in SettingName]: ReturnType<typeof setting> & { type: { kind: (typeof PIPE_SETTINGS)[N]["kind"] } };
};

export const PIPE_SETTINGS_RESOURCE = {
  name: "PipeSettings",
  description:
    "The settings of one ingestion pipe; only the settings the program sets are managed. The pipe itself is never created or deleted.",
  refine: {
    test: (args) => SETTING_NAMES.some((n) => n in args),
    error: `set at least one setting (the service refuses an empty update): ${SETTING_NAMES.join(", ")}`,
    property: "settings",
  },
  importIdForm: ["organizationId", "serviceId", "pipeId"],
  tsImports: ['import type { SettingName } from "../serviceFacts/pipeSettings";'],
  properties: {
    organizationId: uuidPathPart(
      "organizationId",
      "Organization that owns the service (uuid). Changing it replaces the resource.",
    ),
    serviceId: uuidPathPart("serviceId", "Service that owns the pipe (uuid). Changing it replaces the resource."),
    pipeId: uuidPathPart("pipeId", "Pipe whose settings are managed (uuid). Changing it replaces the resource."),
    resetOnDelete: {
      type: { kind: "boolean" },
      description:
        "On destroy, send null (unset) for every managed setting still as this resource left it. Default false: settings stay as they are live.",
      role: "both",
      wire: false,
    },
    ...(Object.fromEntries(SETTING_NAMES.map((n) => [n, setting(n)])) as Settings),
    managedSettings: {
      type: { kind: "array", items: { kind: "string" } },
      description: "Names of the settings this program sets; drift, update and delete act on these alone.",
      role: "output",
      required: true,
      outputTs: "SettingName[]",
    },
  },
} as const satisfies ResourceDefinition;
