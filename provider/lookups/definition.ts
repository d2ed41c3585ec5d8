// Each lookup written once, for schema, Invoke, types and check. Results hold what the service holds,
// never a secret or what only a stack records (keepers, managed names).

import type { IdForm } from "../protocol/ids";
import type { ResourceDefinition, TypeSpec } from "../protocol/definition";
import { ALERT } from "../alert/definition";
import { API_KEY } from "../apiKey/definition";
import { PIPE_SETTINGS_RESOURCE } from "../pipeSettings/definition";
import { WEBHOOK } from "../webhook/definition";
import { SAVED_SEARCH } from "../savedSearch/definition";
import { DASHBOARD } from "../dashboard/definition";
import { SOURCE } from "../source/definition";
import { CONNECTION } from "../connection/definition";
import { CLICK_PIPE_CDC_INFRASTRUCTURE } from "../clickPipeCdcInfrastructure/definition";
import { CLICK_PIPE } from "../clickPipe/definition";

/** A list of objects of the one shape, named for the schema's `types`. */
export interface RecordsType {
  readonly kind: "records";
  readonly name: string;
  readonly description: string;
  readonly fields: Fields;
}

export interface LookupField {
  readonly type: TypeSpec | RecordsType;
  readonly description: string;
  /** An argument the call must give; a field every result holds. */
  readonly required?: true;
  /** An id's form, checked before it is a path segment. */
  readonly form?: IdForm;
}

type Fields = Readonly<Record<string, LookupField>>;

export interface LookupDefinition {
  /** Its token is `alertpipe:index:<name>`; its TypeScript function has the same name. */
  readonly name: string;
  readonly description: string;
  readonly inputs: Fields;
  readonly outputs: Fields;
  /** A rule between arguments, checked once each alone passes. */
  readonly oneOf?: readonly string[];
}

/** None required: an answer may leave any out. */
function held(def: ResourceDefinition): Fields {
  const fields: Record<string, LookupField> = {};
  for (const [n, p] of Object.entries(def.properties)) {
    if (p.role === "input" || p.secret === true || p.wire === false) continue;
    if (p.role === "both" || p.whenAbsent !== undefined) fields[n] = { type: p.type, description: p.description };
  }
  return fields;
}

const STRING = { kind: "string" } as const;
const ID = (description: string, form: IdForm) => ({ type: STRING, description, required: true, form }) as const;

const alertFields = { id: { type: STRING, description: "The alert's id.", required: true }, ...held(ALERT) } as const;
const keyFields = {
  id: { type: STRING, description: "The key's id (uuid).", required: true },
  ...held(API_KEY),
} as const;
const pipeFields = held(PIPE_SETTINGS_RESOURCE);
// headers and queryParams are secret; an incidentio webhook's body is left out.
const webhookFields = {
  id: { type: STRING, description: "The webhook's id.", required: true },
  ...held(WEBHOOK),
} as const;
const searchFields = {
  id: { type: STRING, description: "The saved search's id.", required: true },
  ...held(SAVED_SEARCH),
} as const;
const dashboardFields = {
  id: { type: STRING, description: "The dashboard's id.", required: true },
  ...held(DASHBOARD),
  tileIds: { type: DASHBOARD.properties.tileIds.type, description: DASHBOARD.properties.tileIds.description },
  tileIndex: { type: DASHBOARD.properties.tileIndex.type, description: DASHBOARD.properties.tileIndex.description },
} as const;
const sourceFields = {
  id: { type: STRING, description: "The source's id.", required: true },
  ...held(SOURCE),
} as const;
// The password is secret and never returned.
const connectionFields = {
  id: { type: STRING, description: "The connection's id.", required: true },
  ...held(CONNECTION),
} as const;
const pipeIds = Object.fromEntries(
  PIPE_SETTINGS_RESOURCE.importIdForm.map((n) => [
    n,
    ID(`${PIPE_SETTINGS_RESOURCE.properties[n].description.split(" (uuid)")[0]} (uuid).`, "uuid"),
  ]),
) as { readonly [K in (typeof PIPE_SETTINGS_RESOURCE.importIdForm)[number]]: ReturnType<typeof ID> };

const ORGANIZATION = ID("The organization (uuid).", "uuid");

/** The caller's alerting objects of one kind, all or of one name, under `key`. */
function callersObjects<const N extends string>(
  name: N,
  key: string,
  words: { readonly plural: string; readonly one: string; readonly record: string; readonly more?: string },
  fields: Fields,
) {
  const listing = {
    type: {
      kind: "records",
      name: words.record,
      description: `${words.one} as the service holds it.`,
      fields,
    },
    description: `The ${words.plural}, in the order the service lists them.`,
    required: true,
  } as const;
  return {
    name,
    description: `The caller's ${words.plural}, every page of the list; with \`name\`, those of that name alone.${words.more ?? ""}`,
    inputs: { name: { type: STRING, description: `Only the ${words.plural} of this name (exactly).` } },
    outputs: { [key]: listing },
  } as const satisfies LookupDefinition;
}

/** One object by id or name, after the arguments of `scope`. */
function byIdOrName<const N extends string>(
  name: N,
  words: { readonly description: string; readonly id: string; readonly name: string },
  form: IdForm,
  outputs: Fields,
  scope: Fields = {},
) {
  return {
    name,
    description: words.description,
    inputs: {
      ...scope,
      id: { type: STRING, description: words.id, form },
      name: { type: STRING, description: words.name },
    },
    outputs,
    oneOf: ["id", "name"],
  } as const satisfies LookupDefinition;
}

/** One alerting object by id or name; `more` says what it never gives. */
function callersObject<const N extends string>(
  name: N,
  words: { readonly one: string; readonly more?: string; readonly several: string },
  fields: Fields,
) {
  const { one, more = "", several } = words;
  return byIdOrName(
    name,
    {
      description: `A ${one} of the alerting API by its id or its name, as the service holds it${more}.`,
      id: `The ${one}'s id; give this or name.`,
      name: `The ${one}'s name (exactly); give this or id. ${several}`,
    },
    "opaque",
    fields,
  );
}

export const GET_ALERT = {
  name: "getAlert",
  description: "An alert of the alerting API by its id, as the service holds it.",
  inputs: { id: ID("The alert's id.", "opaque") },
  outputs: alertFields,
} as const satisfies LookupDefinition;

export const GET_ALERTS = callersObjects(
  "getAlerts",
  "alerts",
  { plural: "alerts", one: "An alert", record: "GetAlertsAlert" },
  alertFields,
);

export const GET_API_KEY = byIdOrName(
  "getApiKey",
  {
    description:
      "An organization's API key by its id or by its name, as the service holds it: never its secret, which the service shows once.",
    id: "The key's id (uuid); give this or name.",
    name: "The key's name; give this or id. Several keys of the name are an error.",
  },
  "uuid",
  keyFields,
  { organizationId: ORGANIZATION },
);

export const GET_API_KEYS = {
  name: "getApiKeys",
  description: "An organization's API keys, as the service holds them: never a secret.",
  inputs: { organizationId: ORGANIZATION },
  outputs: {
    organizationId: { type: STRING, description: "The organization (uuid).", required: true },
    keys: {
      type: {
        kind: "records",
        name: "GetApiKeysKey",
        description: "An API key as the service holds it.",
        fields: keyFields,
      },
      description: "The organization's keys.",
      required: true,
    },
  },
} as const satisfies LookupDefinition;

export const GET_PIPE_SETTINGS = {
  name: "getPipeSettings",
  description: "One pipe's settings as the service holds them: each setting's value, null when unset.",
  // The pipe's three ids, as its import names it.
  inputs: pipeIds,
  outputs: pipeFields,
} as const satisfies LookupDefinition;

// What each pair of lookups below says beyond its nouns: why a name can match several; what the one
// object's answer and the list's answer never give.
const SEVERAL = {
  Webhook: "Webhooks of several services sharing it are an error.",
  SavedSearch: "Several searches of the name are an error.",
  Dashboard: "Several dashboards of the name are an error.",
  Source: "Several sources of the name are an error.",
  Connection: "Several connections of the name are an error.",
} as const;
const ONE_NEVER: Partial<Record<keyof typeof SEVERAL, string>> = {
  Webhook: ": never its headers or queryParams, nor an incidentio webhook's body, which the service never returns",
  Dashboard: ", with its tileIds",
  Connection: " (self-hosted HyperDX): never its password, which the service never returns",
};
const LIST_NEVER: Partial<Record<keyof typeof SEVERAL, string>> = {
  Webhook: " Never a write-only field.",
  Connection: " Never a password.",
};

/** `SavedSearch` → `saved search`. */
const words = (pascal: string) => pascal.replace(/(?<!^)([A-Z])/g, " $1").toLowerCase();

/** The pair of lookups of one alerting kind: one object by id or name, and the list. */
function callersLookups<const S extends keyof typeof SEVERAL, const P extends string>(one: S, all: P, fields: Fields) {
  const key = `${all.charAt(0).toLowerCase()}${all.slice(1)}`;
  const plural = words(all);
  return [
    callersObject(`get${one}`, { one: words(one), more: ONE_NEVER[one], several: SEVERAL[one] }, fields),
    callersObjects(
      `get${all}`,
      key,
      { plural, one: `A ${words(one)}`, record: `Get${all}${one}`, more: LIST_NEVER[one] },
      fields,
    ),
  ] as const;
}

export const [GET_WEBHOOK, GET_WEBHOOKS] = callersLookups("Webhook", "Webhooks", webhookFields);
export const [GET_SAVED_SEARCH, GET_SAVED_SEARCHES] = callersLookups("SavedSearch", "SavedSearches", searchFields);
export const [GET_DASHBOARD, GET_DASHBOARDS] = callersLookups("Dashboard", "Dashboards", dashboardFields);
export const [GET_SOURCE, GET_SOURCES] = callersLookups("Source", "Sources", sourceFields);
export const [GET_CONNECTION, GET_CONNECTIONS] = callersLookups("Connection", "Connections", connectionFields);

const cdcIds = {
  organizationId: ID("The organization that owns the service (uuid).", "uuid"),
  serviceId: ID("The service whose database ClickPipes share the capacity (uuid).", "uuid"),
} as const;

export const GET_CLICK_PIPE_CDC_INFRASTRUCTURE = {
  name: "getClickPipeCdcInfrastructure",
  description:
    "The CDC capacity a ClickHouse Cloud service's database ClickPipes share, as the service holds it (ClickHouse Cloud only).",
  inputs: cdcIds,
  outputs: held(CLICK_PIPE_CDC_INFRASTRUCTURE),
} as const satisfies LookupDefinition;

// A pipe as the service answers it: never its credentials (the service never returns them), nor
// stateTimeoutSeconds (the provider's alone); stopped is what its state says. Its three ids as its
// import names them.
const [clickPipeOrg, clickPipeSvc, clickPipeKey] = CLICK_PIPE.importIdForm;
const clickPipeFields: Fields = {
  [clickPipeKey]: { type: STRING, description: "The pipe's id (uuid).", required: true },
  ...held(CLICK_PIPE),
  stopped: {
    type: CLICK_PIPE.properties.stopped.type,
    description:
      "Whether the pipe's state says it is stopped (Stopped, Stopping, Paused, Pausing, Failed); absent when the state tells neither (InternalError, Unknown).",
  },
};
const pipeServiceIds = {
  [clickPipeOrg]: cdcIds.organizationId,
  [clickPipeSvc]: ID("The service the pipes write into (uuid).", "uuid"),
};

export const GET_CLICK_PIPE = {
  name: "getClickPipe",
  description:
    "A ClickPipe of a ClickHouse Cloud service by its id, as the service holds it: never its credentials, which the service " +
    "never returns (ClickHouse Cloud only).",
  inputs: {
    ...pipeServiceIds,
    [clickPipeSvc]: ID("The service the pipe writes into (uuid).", "uuid"),
    [clickPipeKey]: ID("The pipe's id (uuid).", "uuid"),
  },
  outputs: clickPipeFields,
} as const satisfies LookupDefinition;

export const GET_CLICK_PIPES = {
  name: "getClickPipes",
  description:
    "A ClickHouse Cloud service's ClickPipes, one list (the service does not page it), as the service holds them; with " +
    "`name`, those of that name alone. Never a credential (ClickHouse Cloud only).",
  inputs: { ...pipeServiceIds, name: { type: STRING, description: "Only the pipes of this name (exactly)." } },
  outputs: {
    [clickPipeOrg]: { type: STRING, description: "The organization (uuid).", required: true },
    [clickPipeSvc]: { type: STRING, description: "The service (uuid).", required: true },
    clickPipes: {
      type: {
        kind: "records",
        name: "GetClickPipesClickPipe",
        description: "A ClickPipe as the service holds it.",
        fields: clickPipeFields,
      },
      description: "The service's pipes, in the order the service lists them.",
      required: true,
    },
  },
} as const satisfies LookupDefinition;

/** Every lookup, in the order the schema lists them. */
export const LOOKUPS = [
  GET_ALERT,
  GET_ALERTS,
  GET_API_KEY,
  GET_API_KEYS,
  GET_PIPE_SETTINGS,
  GET_WEBHOOK,
  GET_WEBHOOKS,
  GET_SAVED_SEARCH,
  GET_SAVED_SEARCHES,
  GET_DASHBOARD,
  GET_DASHBOARDS,
  GET_SOURCE,
  GET_SOURCES,
  GET_CONNECTION,
  GET_CONNECTIONS,
  GET_CLICK_PIPE_CDC_INFRASTRUCTURE,
  GET_CLICK_PIPE,
  GET_CLICK_PIPES,
] as const;

export type LookupName = (typeof LOOKUPS)[number]["name"];

/** Each lookup by its name. */
export const LOOKUP_NAMED = Object.fromEntries(LOOKUPS.map((l): [string, LookupDefinition] => [l.name, l])) as Readonly<
  Record<LookupName, LookupDefinition>
>;
