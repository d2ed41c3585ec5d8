// The lookup functions, each written once: its arguments and its result's fields, with their types
// and words. The schema's `functions` (native/schema.ts), the plugin's Invoke, the TypeScript
// functions' types and the argument check are all read from here. A result's fields are the
// resource's own, read from its definition: what the service holds of an object (an argument or an
// output an answer gives), never a secret and never what only a stack records (keepers, managed names).

import type { IdForm } from "../protocol/ids";
import type { ResourceDefinition, TypeSpec, ValueOf } from "../protocol/definition";
import { ALERT } from "../alert/definition";
import { API_KEY } from "../apiKey/definition";
import { PIPE_SETTINGS_RESOURCE } from "../pipeSettings/definition";
import { WEBHOOK } from "../webhook/definition";
import { SAVED_SEARCH } from "../savedSearch/definition";

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
  /** An id's form, checked before it is a path segment (protocol/ids.ts). */
  readonly form?: IdForm;
}

type Fields = Readonly<Record<string, LookupField>>;

export interface LookupDefinition {
  /** The function's name: its token is `alertpipe:index:<name>`, its TypeScript function the same. */
  readonly name: string;
  readonly description: string;
  readonly inputs: Fields;
  readonly outputs: Fields;
  /** A rule between arguments, checked once each alone passes. */
  readonly oneOf?: readonly string[];
}

type Props<D extends ResourceDefinition> = D["properties"];

/** The properties the service holds of an object: a lookup returns these, by the definition's rule. */
type Held<D extends ResourceDefinition> = {
  [K in keyof Props<D>]: Props<D>[K] extends
    { readonly role: "input" } | { readonly secret: true } | { readonly wire: false }
    ? never
    : Props<D>[K] extends { readonly role: "both" } | { readonly whenAbsent: object }
      ? K
      : never;
}[keyof Props<D>] &
  string;

type HeldFields<D extends ResourceDefinition> = {
  readonly [K in Held<D>]: { readonly type: Props<D>[K]["type"]; readonly description: string };
};

/** The fields of `def` the service holds, in the definition's order, none required (an answer may leave any out). */
function held<D extends ResourceDefinition>(def: D): HeldFields<D> {
  const fields: Record<string, LookupField> = {};
  for (const [n, p] of Object.entries(def.properties)) {
    if (p.role === "input" || p.secret === true || p.wire === false) continue;
    if (p.role === "both" || p.whenAbsent !== undefined) fields[n] = { type: p.type, description: p.description };
  }
  return fields as HeldFields<D>;
}

const STRING = { kind: "string" } as const;
const ID = (description: string, form: IdForm) => ({ type: STRING, description, required: true, form }) as const;

const alertFields = { id: { type: STRING, description: "The alert's id.", required: true }, ...held(ALERT) } as const;
const keyFields = {
  id: { type: STRING, description: "The key's id (uuid).", required: true },
  ...held(API_KEY),
} as const;
const pipeFields = held(PIPE_SETTINGS_RESOURCE);
// headers and queryParams are secret, so never held; an incidentio webhook's body the run leaves out.
const webhookFields = {
  id: { type: STRING, description: "The webhook's id.", required: true },
  ...held(WEBHOOK),
} as const;
const searchFields = {
  id: { type: STRING, description: "The saved search's id.", required: true },
  ...held(SAVED_SEARCH),
} as const;
const pipeIds = Object.fromEntries(
  PIPE_SETTINGS_RESOURCE.importIdForm.map((n) => [
    n,
    ID(`${PIPE_SETTINGS_RESOURCE.properties[n].description.split(" (uuid)")[0]} (uuid).`, "uuid"),
  ]),
) as { readonly [K in (typeof PIPE_SETTINGS_RESOURCE.importIdForm)[number]]: ReturnType<typeof ID> };

const ORGANIZATION = ID("The organization (uuid).", "uuid");

/** A result's one field listing records of `fields`, under `key`. */
type Listing<K extends string, F extends Fields> = {
  readonly [P in K]: {
    readonly type: {
      readonly kind: "records";
      readonly name: string;
      readonly description: string;
      readonly fields: F;
    };
    readonly description: string;
    readonly required: true;
  };
};

/**
 * A lookup of the caller's objects of one kind on the alerting API, every page of its list, or those
 * of one name: its result holds them under `key`, each of type `record` (the schema's name for it).
 */
function callersObjects<const N extends string, const K extends string, F extends Fields>(
  name: N,
  key: K,
  words: { readonly plural: string; readonly one: string; readonly record: string; readonly more?: string },
  fields: F,
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
  // A computed key widens to string: the result names its one field.
  const outputs = { [key]: listing } as Listing<K, F>;
  return {
    name,
    description: `The caller's ${words.plural}, every page of the list; with \`name\`, those of that name alone.${words.more ?? ""}`,
    inputs: { name: { type: STRING, description: `Only the ${words.plural} of this name (exactly).` } },
    outputs,
  } as const satisfies LookupDefinition;
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

export const GET_API_KEY = {
  name: "getApiKey",
  description:
    "An organization's API key by its id or by its name, as the service holds it: never its secret, which the service shows once.",
  inputs: {
    organizationId: ORGANIZATION,
    id: { type: STRING, description: "The key's id (uuid); give this or name.", form: "uuid" },
    name: { type: STRING, description: "The key's name; give this or id. Several keys of the name are an error." },
  },
  outputs: keyFields,
  oneOf: ["id", "name"],
} as const satisfies LookupDefinition;

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

export const GET_WEBHOOK = {
  name: "getWebhook",
  description:
    "A webhook of the alerting API by its id or its name, as the service holds it: never its headers or queryParams, nor an " +
    "incidentio webhook's body, which the service never returns.",
  inputs: {
    id: { type: STRING, description: "The webhook's id; give this or name.", form: "opaque" },
    name: {
      type: STRING,
      description:
        "The webhook's name (exactly); give this or id. Webhooks of several services sharing it are an error.",
    },
  },
  outputs: webhookFields,
  oneOf: ["id", "name"],
} as const satisfies LookupDefinition;

export const GET_WEBHOOKS = callersObjects(
  "getWebhooks",
  "webhooks",
  { plural: "webhooks", one: "A webhook", record: "GetWebhooksWebhook", more: " Never a write-only field." },
  webhookFields,
);

export const GET_SAVED_SEARCH = {
  name: "getSavedSearch",
  description: "A saved search of the alerting API by its id or its name, as the service holds it.",
  inputs: {
    id: { type: STRING, description: "The saved search's id; give this or name.", form: "opaque" },
    name: {
      type: STRING,
      description: "The saved search's name (exactly); give this or id. Several searches of the name are an error.",
    },
  },
  outputs: searchFields,
  oneOf: ["id", "name"],
} as const satisfies LookupDefinition;

export const GET_SAVED_SEARCHES = callersObjects(
  "getSavedSearches",
  "savedSearches",
  { plural: "saved searches", one: "A saved search", record: "GetSavedSearchesSavedSearch" },
  searchFields,
);

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
] as const;

export type LookupName = (typeof LOOKUPS)[number]["name"];

type ValueOfField<F extends LookupField> = F["type"] extends RecordsType
  ? Array<ResultOf<F["type"]["fields"]>>
  : F["type"] extends TypeSpec
    ? ValueOf<F["type"]>
    : never;

type RequiredNames<F extends Fields> = {
  [K in keyof F]: F[K] extends { readonly required: true } ? K : never;
}[keyof F];

/** A lookup's arguments (or result) as TypeScript sees them: required fields, and the others optional. */
export type ResultOf<F extends Fields> = { -readonly [K in RequiredNames<F>]: ValueOfField<F[K]> } & {
  -readonly [K in Exclude<keyof F, RequiredNames<F>>]?: ValueOfField<F[K]> | null;
};

export type ArgsOfLookup<L extends LookupDefinition> = {
  -readonly [K in RequiredNames<L["inputs"]>]: string;
} & { -readonly [K in Exclude<keyof L["inputs"], RequiredNames<L["inputs"]>>]?: string };
