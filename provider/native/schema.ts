// The native plugin's Pulumi package schema: what `pulumi package get-schema` prints, what a YAML
// program is checked against and what the SDK generators read. Nothing here is stated anew: the
// properties a program may set and which are required come from the same zod schemas `check`
// validates with, the fixed values from provider/serviceFacts/ and the args, each description from the
// resource's docs table, the config from CONNECTION_SETTINGS, the version from package.json.

import type { z } from "zod";
import { ALERT_SOURCES, INTERVALS, THRESHOLD_TYPES } from "../serviceFacts/alertRules";
import { KEY_ROLES, KEY_STATES } from "../serviceFacts/apiKeys";
import { PIPE_SETTINGS, SETTING_NAMES } from "../serviceFacts/pipeSettings";
import { CONNECTION_SETTINGS } from "../runtime/connection";
import { argumentNames } from "../protocol/check";
import { PACKAGE_VERSION } from "../http/userAgent";
import {
  ARG_NAMES as ALERT_ARGS,
  CHANNEL_TYPES,
  REQUIRED_ARGS as ALERT_REQUIRED,
  alertArgsSchema,
} from "../alert/args";
import { ALERT_DOCS } from "../alert/docs";
import { OUTPUT_ONLY as ALERT_OUTPUT_ONLY } from "../alert/wire";
import { KEY_MATERIALS, REPLACE_ON as KEY_REPLACE_ON, apiKeyArgsSchema } from "../apiKey/args";
import { API_KEY_DOCS, SECRET_PROPERTIES } from "../apiKey/docs";
import { KEY_FIELDS } from "../apiKey/wire";
import { REPLACE_ON as PIPE_REF, pipeSettingsArgsSchema } from "../pipeSettings/args";
import { PIPE_SETTINGS_DOCS } from "../pipeSettings/docs";
import { IMPORT_ID_FORM as API_KEY_IMPORT_FORM } from "../apiKey/provider";
import { IMPORT_ID_FORM as PIPE_IMPORT_FORM } from "../pipeSettings/provider";
import { NATIVE_RESOURCES, PACKAGE, tokenOf, type ResourceKind } from "./resources";

/** A property as the schema states it (a subset of Pulumi's property spec). */
export interface PropertySpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
}

interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

interface EnumTypeSpec {
  type: "string";
  description?: string;
  enum: Array<{ name: string; value: string; description?: string }>;
}

export interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  required: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  license: string;
  homepage: string;
  repository: string;
  keywords: string[];
  config: { variables: Record<string, PropertySpec>; defaults: string[] };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
  resources: Record<string, ResourceSpec>;
  meta: { supportPack: boolean };
  language: Record<string, Record<string, unknown>>;
}

/** The npm name of the generated Node.js SDK; `pulumi-alertpipe` itself is the dynamic providers' package. */
export const NODEJS_SDK_PACKAGE = "@alertpipe/pulumi";
export const PYTHON_SDK_PACKAGE = "pulumi_alertpipe";
/** The project's canonical repository, the one home of its address: the Go module path, package.json's links, the docs. */
export const REPOSITORY = "github.com/alertpipe/pulumi-alertpipe";
export const GO_IMPORT_BASE_PATH = `${REPOSITORY}/sdk/go/alertpipe`;

const typeRef = (name: string): PropertySpec => ({ $ref: `#/types/${PACKAGE}:index:${name}` });
const STRING: PropertySpec = { type: "string" };
const STRINGS: PropertySpec = { type: "array", items: STRING };

/** An enum's member name from its value: "query_endpoints" → "QueryEndpoints", "5m" → "Every5m". */
function memberName(value: string): string {
  const pascal = value
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => `${w[0]?.toUpperCase() ?? ""}${w.slice(1)}`)
    .join("");
  return /^[0-9]/.test(pascal) ? `Every${pascal}` : pascal;
}

function enumType(
  description: string,
  values: readonly string[],
  meanings: Partial<Record<string, string>> = {},
): EnumTypeSpec {
  return {
    type: "string",
    description,
    enum: values.map((value) => ({
      name: memberName(value),
      value,
      ...(meanings[value] === undefined ? {} : { description: meanings[value] }),
    })),
  };
}

/** The property names a program may set and those it must, as the check's zod schema says. */
function argumentsOf(schema: z.ZodObject): { names: string[]; required: string[] } {
  const names = argumentNames(schema);
  return { names, required: names.filter((n) => !(schema.shape[n] as z.ZodType).safeParse(undefined).success) };
}

/** Each property named, with its type and its description, failing loudly where either is missing. */
function described(
  names: readonly string[],
  types: Readonly<Record<string, PropertySpec>>,
  docs: Readonly<Record<string, string>>,
  extra: (name: string) => PropertySpec = () => ({}),
): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const name of names) {
    const type = types[name];
    const description = docs[name];
    if (type === undefined || description === undefined)
      throw new Error(`the schema has no ${type === undefined ? "type" : "description"} for ${name}`);
    out[name] = { ...type, description, ...extra(name) };
  }
  return out;
}

function resource(
  description: string,
  schema: z.ZodObject,
  outputs: readonly string[],
  requiredOutputs: readonly string[],
  types: Readonly<Record<string, PropertySpec>>,
  docs: Readonly<Record<string, string>>,
  extra: (name: string) => PropertySpec = () => ({}),
): ResourceSpec {
  const args = argumentsOf(schema);
  return {
    description,
    properties: described(outputs, types, docs, extra),
    required: [...requiredOutputs],
    inputProperties: described(args.names, types, docs, extra),
    requiredInputs: args.required,
  };
}

const ALERT_TYPES: Record<string, PropertySpec> = {
  threshold: { type: "number" },
  interval: typeRef("AlertInterval"),
  source: typeRef("AlertSource"),
  thresholdType: typeRef("AlertThresholdType"),
  channel: typeRef("AlertChannel"),
  dashboardId: STRING,
  tileId: STRING,
  name: STRING,
  message: STRING,
  importId: STRING,
  state: STRING,
  team: STRING,
  savedSearch: STRING,
  groupBy: STRING,
  // The real service answers a boolean, or an object once someone silences the alert.
  silenced: { $ref: "pulumi.json#/Any" },
  createdAt: STRING,
  updatedAt: STRING,
};

const API_KEY_TYPES: Record<string, PropertySpec> = {
  organizationId: STRING,
  roles: { type: "array", items: typeRef("ApiKeyRole") },
  name: STRING,
  expireAt: STRING,
  state: typeRef("ApiKeyState"),
  ipAccessList: { type: "array", items: typeRef("IpAccessEntry") },
  hashData: typeRef("ApiKeyHashData"),
  keepers: { type: "object", additionalProperties: STRING },
  keyMaterial: typeRef("ApiKeyMaterial"),
  importId: STRING,
  keyId: STRING,
  keySecret: STRING,
  keySuffix: STRING,
  createdAt: STRING,
  usedAt: STRING,
  managedArgs: STRINGS,
};

const PIPE_SETTINGS_TYPES: Record<string, PropertySpec> = {
  organizationId: STRING,
  serviceId: STRING,
  pipeId: STRING,
  resetOnDelete: { type: "boolean" },
  managedSettings: STRINGS,
  ...Object.fromEntries(
    SETTING_NAMES.map((n) => [
      n,
      { type: PIPE_SETTINGS[n].kind === "boolean" ? "boolean" : "integer" } satisfies PropertySpec,
    ]),
  ),
};

/** The outputs each resource records, in the order its behaviour builds them. */
const OUTPUTS: Record<ResourceKind, readonly string[]> = {
  alert: [...ALERT_ARGS, ...ALERT_OUTPUT_ONLY],
  apiKey: ["organizationId", ...KEY_FIELDS, "keyId", "keySecret", "managedArgs", "hashData", "keepers", "keyMaterial"],
  pipeSettings: [...PIPE_REF, ...SETTING_NAMES, "managedSettings", "resetOnDelete"],
};

/**
 * The resource's description with the `## Import` section Pulumi's docs and SDK generators show:
 * the `pulumi import` command and the id's form, from the form the resource's import reads.
 */
function withImport(description: string, name: string, form: readonly string[]): string {
  const id = form.map((part) => `<${part}>`).join("/");
  return `${description}\n\n## Import\n\nAn existing object is imported by its id, \`${id}\`:\n\n\`\`\`sh\n$ pulumi import ${PACKAGE}:index:${name} <name> ${id}\n\`\`\`\n`;
}

let built: Record<string, ResourceSpec> | undefined;

function resources(): Record<string, ResourceSpec> {
  if (built !== undefined) return built;
  const specs: Record<ResourceKind, ResourceSpec> = {
    alert: resource(
      withImport(ALERT_DOCS.resource, "Alert", ["alertId"]),
      alertArgsSchema,
      OUTPUTS.alert,
      ALERT_REQUIRED,
      ALERT_TYPES,
      ALERT_DOCS.properties,
    ),
    apiKey: resource(
      withImport(API_KEY_DOCS.resource, "ApiKey", API_KEY_IMPORT_FORM),
      apiKeyArgsSchema,
      OUTPUTS.apiKey,
      ["organizationId", "roles", "managedArgs"],
      API_KEY_TYPES,
      API_KEY_DOCS.properties,
      (n) => ({
        ...((SECRET_PROPERTIES as readonly string[]).includes(n) ? { secret: true } : {}),
        ...((KEY_REPLACE_ON as readonly string[]).includes(n) ? { willReplaceOnChanges: true } : {}),
      }),
    ),
    pipeSettings: resource(
      withImport(PIPE_SETTINGS_DOCS.resource, "PipeSettings", PIPE_IMPORT_FORM),
      pipeSettingsArgsSchema,
      OUTPUTS.pipeSettings,
      [...PIPE_REF, "managedSettings"],
      PIPE_SETTINGS_TYPES,
      PIPE_SETTINGS_DOCS.properties,
      (n) => ((PIPE_REF as readonly string[]).includes(n) ? { willReplaceOnChanges: true } : {}),
    ),
  };
  built = Object.fromEntries([...NATIVE_RESOURCES.values()].map((r) => [tokenOf(r), specs[r.kind]]));
  return built;
}

function types(): PackageSchema["types"] {
  const token = (name: string) => `${PACKAGE}:index:${name}`;
  return {
    [token("AlertSource")]: enumType("What an alert watches.", ALERT_SOURCES, {
      tile: "A tile on a dashboard.",
      search: "A search.",
    }),
    [token("AlertThresholdType")]: enumType("Which side of the threshold fires the alert.", THRESHOLD_TYPES),
    [token("AlertInterval")]: enumType(
      "How often an alert is evaluated: the only intervals the service accepts.",
      INTERVALS,
    ),
    [token("AlertChannelType")]: enumType("A channel's type.", CHANNEL_TYPES),
    [token("AlertChannel")]: {
      type: "object",
      description: ALERT_DOCS.properties.channel,
      properties: described(
        ["type", "webhookId"],
        { type: typeRef("AlertChannelType"), webhookId: STRING },
        ALERT_DOCS.channel,
      ),
      required: ["type", "webhookId"],
    },
    [token("ApiKeyRole")]: enumType("A role an API key grants.", KEY_ROLES),
    [token("ApiKeyState")]: enumType("Whether an API key can be used.", KEY_STATES),
    [token("ApiKeyMaterial")]: enumType("Who makes an API key's ID and secret.", KEY_MATERIALS, API_KEY_DOCS.material),
    [token("IpAccessEntry")]: {
      type: "object",
      description: "An address allowed to use an API key.",
      properties: described(
        ["source", "description"],
        { source: STRING, description: STRING },
        API_KEY_DOCS.ipAccessEntry,
      ),
      required: ["source", "description"],
    },
    [token("ApiKeyHashData")]: {
      type: "object",
      description: API_KEY_DOCS.properties.hashData,
      properties: described(
        ["keyIdHash", "keyIdSuffix", "keySecretHash"],
        { keyIdHash: STRING, keyIdSuffix: STRING, keySecretHash: STRING },
        API_KEY_DOCS.hashData,
      ),
      required: ["keyIdHash", "keyIdSuffix", "keySecretHash"],
    },
  };
}

function configVariables(): Record<string, PropertySpec> {
  return Object.fromEntries(
    Object.entries(CONNECTION_SETTINGS).map(([name, s]) => [
      name,
      {
        type: "string",
        description: `The ${s.description}; else the environment variable ${s.envVar}.`,
        ...(s.secret ? { secret: true } : {}),
      } satisfies PropertySpec,
    ]),
  );
}

export function packageSchema(): PackageSchema {
  const variables = configVariables();
  return {
    name: PACKAGE,
    displayName: "AlertPipe",
    version: PACKAGE_VERSION,
    description: "Alerts (alerting API), ingestion pipe settings and organization API keys (cloud management API).",
    license: "Apache-2.0",
    homepage: `https://${REPOSITORY}`,
    repository: `https://${REPOSITORY}`,
    keywords: ["pulumi", "alertpipe", "category/monitoring"],
    // Required settings may come from the environment instead, so none is required of the config.
    config: { variables, defaults: [] },
    provider: {
      description: "The alertpipe provider: where the two services are and the credentials for each.",
      inputProperties: variables,
    },
    types: types(),
    resources: resources(),
    // The Go SDK gets its own go.mod (module: GO_IMPORT_BASE_PATH less its last part), so a Go
    // program can require it, or `replace` it with a folder, like any module.
    meta: { supportPack: true },
    language: {
      // The SDKs ask the engine for exactly this plugin version.
      nodejs: { packageName: NODEJS_SDK_PACKAGE, respectSchemaVersion: true },
      // pyproject.toml rather than setup.py: `pip install` of the folder needs nothing but pip.
      python: { packageName: PYTHON_SDK_PACKAGE, respectSchemaVersion: true, pyproject: { enabled: true } },
      go: { importBasePath: GO_IMPORT_BASE_PATH, respectSchemaVersion: true, generateResourceContainerTypes: true },
    },
  };
}
