// What each of the PipeSettings' properties means, in the words a user reads: the native plugin's
// schema takes them from here; each setting's meaning and range from the table of facts. No zod,
// no I/O: the resource class can read this file too.

import { PIPE_SETTINGS, allowedValues, type SettingName } from "../serviceFacts/pipeSettings";

const setting = (name: SettingName) =>
  `${PIPE_SETTINGS[name].meaning[0]?.toUpperCase() ?? ""}${PIPE_SETTINGS[name].meaning.slice(1)}: ${allowedValues(name)}.`;

export const PIPE_SETTINGS_DOCS = {
  resource:
    "The settings of one ingestion pipe; only the settings the program sets are managed. The pipe itself is never created or deleted.",
  properties: {
    organizationId: "Organization that owns the service (uuid). Changing it replaces the resource.",
    serviceId: "Service that owns the pipe (uuid). Changing it replaces the resource.",
    pipeId: "Pipe whose settings are managed (uuid). Changing it replaces the resource.",
    resetOnDelete:
      "On destroy, send null (unset) for every managed setting still as this resource left it. Default false: settings stay as they are live.",
    managedSettings: "Names of the settings this program sets; drift, update and delete act on these alone.",
    ...(Object.fromEntries(Object.keys(PIPE_SETTINGS).map((n) => [n, setting(n as SettingName)])) as Record<
      SettingName,
      string
    >),
  },
} as const;
