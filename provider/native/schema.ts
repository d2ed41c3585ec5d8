// The package schema YAML programs and the SDK generators read. Nothing is stated anew: it comes from
// the definitions, CONNECTION_SETTINGS and package.json.

import { CONNECTION_SETTINGS } from "../runtime/connection";
import { PACKAGE_VERSION } from "../http/userAgent";
import {
  importIdFormOf,
  inputNames,
  namesWith,
  outputNames,
  type PropertyDef,
  type ResourceDefinition,
  type TypeSpec,
} from "../protocol/definition";
import { RESOURCES } from "../resources";
import { LOOKUPS, type LookupDefinition, type LookupField } from "../lookups/definition";
import { PACKAGE, tokenOf } from "./resources";

/** A subset of Pulumi's property spec. */
export interface PropertySpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  deprecationMessage?: string;
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

interface ObjectSpec {
  properties: Record<string, PropertySpec>;
  required: string[];
}

export interface FunctionSpec {
  description: string;
  inputs: ObjectSpec;
  outputs: ObjectSpec;
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
  functions: Record<string, FunctionSpec>;
  meta: { supportPack: boolean };
  language: Record<string, Record<string, unknown>>;
}

/** `pulumi-alertpipe` itself is the dynamic providers' package. */
export const NODEJS_SDK_PACKAGE = "@alertpipe/pulumi";
export const PYTHON_SDK_PACKAGE = "pulumi_alertpipe";
/** The canonical repository: its address's one home. */
export const REPOSITORY = "github.com/alertpipe/pulumi-alertpipe";
export const GO_IMPORT_BASE_PATH = `${REPOSITORY}/sdk/go/alertpipe`;

const typeRef = (name: string): PropertySpec => ({ $ref: `#/types/${PACKAGE}:index:${name}` });

/** "query_endpoints" → "QueryEndpoints", "5m" → "Every5m". */
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

/** An enum or object type is named, and stated once in `types`. */
function specOf(type: TypeSpec, types: PackageSchema["types"]): PropertySpec {
  switch (type.kind) {
    case "string":
    case "number":
    case "integer":
    case "boolean":
      return { type: type.kind };
    case "any":
      return { $ref: "pulumi.json#/Any" };
    case "array":
      return { type: "array", items: specOf(type.items, types) };
    case "map":
      return { type: "object", additionalProperties: specOf(type.values, types) };
    case "enum":
      types[`${PACKAGE}:index:${type.name}`] = enumType(type.description, type.values, type.meanings);
      return typeRef(type.name);
    case "object": {
      const properties: Record<string, PropertySpec> = {};
      for (const [name, field] of Object.entries(type.fields))
        properties[name] = { ...specOf(field.type, types), description: field.description };
      types[`${PACKAGE}:index:${type.name}`] = {
        type: "object",
        description: type.description,
        properties,
        required: Object.entries(type.fields)
          .filter(([, f]) => f.optional !== true)
          .map(([n]) => n),
      };
      return typeRef(type.name);
    }
  }
}

function propertySpec(p: PropertyDef, types: PackageSchema["types"]): PropertySpec {
  return {
    ...specOf(p.type, types),
    description: p.description,
    ...(p.secret === true ? { secret: true } : {}),
    ...(p.replaces === true ? { willReplaceOnChanges: true } : {}),
    ...(p.deprecated === undefined ? {} : { deprecationMessage: p.deprecated }),
  };
}

function resourceSpec(def: ResourceDefinition, types: PackageSchema["types"]): ResourceSpec {
  const specs = (names: readonly string[]) =>
    Object.fromEntries(names.map((n) => [n, propertySpec(def.properties[n] as PropertyDef, types)]));
  const inputs = inputNames(def);
  const outputs = outputNames(def);
  const required = namesWith(def, "required");
  return {
    description: withImport(def.description, def.name, importIdFormOf(def)),
    properties: specs(outputs),
    required: outputs.filter((n) => required.includes(n) || def.properties[n]?.required === "output"),
    inputProperties: specs(inputs),
    requiredInputs: required.filter((n) => inputs.includes(n)),
  };
}

/** With the `## Import` section docs and SDK generators show, from the form the import reads. */
function withImport(description: string, name: string, form: readonly string[]): string {
  const id = form.map((part) => `<${part}>`).join("/");
  return `${description}\n\n## Import\n\nAn existing object is imported by its id, \`${id}\`:\n\n\`\`\`sh\n$ pulumi import ${PACKAGE}:index:${name} <name> ${id}\n\`\`\`\n`;
}

/** A list of records names its item type in `types`. */
function fieldsSpec(fields: Readonly<Record<string, LookupField>>, types: PackageSchema["types"]): ObjectSpec {
  const properties: Record<string, PropertySpec> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.type.kind !== "records") {
      properties[name] = { ...specOf(field.type, types), description: field.description };
      continue;
    }
    const item = fieldsSpec(field.type.fields, types);
    types[`${PACKAGE}:index:${field.type.name}`] = { type: "object", description: field.type.description, ...item };
    properties[name] = { type: "array", items: typeRef(field.type.name), description: field.description };
  }
  const required = Object.entries(fields)
    .filter(([, f]) => f.required === true)
    .map(([n]) => n);
  return { properties, required };
}

function functionSpec(def: LookupDefinition, types: PackageSchema["types"]): FunctionSpec {
  return {
    description: def.description,
    inputs: fieldsSpec(def.inputs, types),
    outputs: fieldsSpec(def.outputs, types),
  };
}

let built: Pick<PackageSchema, "types" | "resources" | "functions"> | undefined;

function resourcesAndTypes(): Pick<PackageSchema, "types" | "resources" | "functions"> {
  if (built !== undefined) return built;
  const types: PackageSchema["types"] = {};
  const resources = Object.fromEntries(RESOURCES.map((r) => [tokenOf(r), resourceSpec(r.definition, types)]));
  const functions = Object.fromEntries(LOOKUPS.map((l) => [`${PACKAGE}:index:${l.name}`, functionSpec(l, types)]));
  built = { types, resources, functions };
  return built;
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
    ...resourcesAndTypes(),
    // Its own go.mod, so a Go program can require it, or `replace` it with a folder.
    meta: { supportPack: true },
    language: {
      // The SDKs ask the engine for exactly this plugin version.
      nodejs: { packageName: NODEJS_SDK_PACKAGE, respectSchemaVersion: true },
      // Not setup.py: `pip install` of the folder then needs nothing but pip.
      python: { packageName: PYTHON_SDK_PACKAGE, respectSchemaVersion: true, pyproject: { enabled: true } },
      go: { importBasePath: GO_IMPORT_BASE_PATH, respectSchemaVersion: true, generateResourceContainerTypes: true },
    },
  };
}
