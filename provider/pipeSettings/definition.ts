// The PipeSettings, each property once; the settings come from their table of facts.

import type { ResourceDefinition } from "../protocol/definition";
import { pipeSetting as setting, uuidPathPart } from "../protocol/commonProperties";
import { PIPE_SETTINGS, SETTING_NAMES, type SettingName } from "../serviceFacts/pipeSettings";

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
