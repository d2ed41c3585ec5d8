// What an exchange the emulator logged (emulator/exchangeLog.ts) says against the services' own API
// descriptions: each request matched to an operation of the right document (method, path template,
// security scheme) and its body validated by the operation's schema; each answer of the 2026 mode
// and the ClickHouse Cloud mode by the response's schema. ajv does the validating: HyperDX's
// OpenAPI 3.0 schemas go through @openapi-contrib/openapi-schema-to-json-schema first (`nullable`,
// `discriminator`), the Cloud's 3.1 ones are JSON Schema 2020-12 already. A member no schema
// declares is a finding even where the schema leaves objects open: `unevaluatedProperties: false`
// is set on every schema in a value's place (a property, an item, a body), never on an `allOf`
// part, so composition still sees the members the other parts declare.

import { fromSchema } from "@openapi-contrib/openapi-schema-to-json-schema";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import traverse from "json-schema-traverse";
import type { LoggedExchange } from "../../../emulator/exchangeLog";
import { contractOperations, type ContractOperation, type JsonSchema } from "./contract";
import type { DocumentName, OpenApiDocument, OpenApiOperation, SecurityScheme } from "./documents";

/** One way an exchange differs from its document: the row of docs/design/openapi-differences.md it must match. */
export interface Finding {
  /** e.g. "POST /api/v2/alerts (hyperdx)". */
  operation: string;
  /** "request" or "answer 404". */
  part: string;
  finding: string;
}

export interface Verdict {
  findings: Finding[];
  requestValidated: boolean;
  answerValidated: boolean;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
/** Where a schema stands for a whole value (not for a part of one being composed). */
const VALUE_PLACES = new Set(["properties", "items", "additionalProperties", "patternProperties", "prefixItems"]);

interface Operation {
  document: DocumentName;
  method: string;
  template: string;
  pattern: RegExp;
  operation: OpenApiOperation;
  schemes: string[];
  pointer: string;
}

export class ExchangeValidator {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[];
  private readonly contract: (ContractOperation & { pattern: RegExp; validate: ValidateFunction })[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(documents: Record<DocumentName, OpenApiDocument>, contractText?: string) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
    addFormats(this.ajv);
    const hyperdx = convert30(documents.hyperdx);
    const cloud = structuredClone(documents.cloud);
    closeValues(hyperdx);
    closeValues(cloud);
    this.ajv.addSchema(hyperdx, "hyperdx");
    this.ajv.addSchema(cloud, "cloud");
    this.operations = [...operationsOf("hyperdx", hyperdx), ...operationsOf("cloud", cloud)];
    this.contract = contractOperations(contractText).map((op) => ({
      ...op,
      pattern: patternOf(op.template),
      validate: this.ajv.compile(op.body),
    }));
  }

  /** Validates one exchange; `findings` empty when it agrees with its document. */
  check(exchange: LoggedExchange): Verdict {
    const findings: Finding[] = [];
    const { request } = exchange;
    const cloudArea = request.path.startsWith("/v1/");
    const dialect = cloudArea ? exchange.dialects.cloud : exchange.dialects.alerting;
    const deliberate = request.headers.deliberate !== undefined;
    let requestValidated = false;

    // The contract's three operations, in its dialect, against spec/interfaces.md.
    const seed =
      dialect === "contract"
        ? this.contract.find((op) => op.method === request.method && op.pattern.test(request.path))
        : undefined;
    const mapped = seed === undefined && dialect === "contract" ? publicCounterpart(request) : request;
    const document: DocumentName = cloudArea ? "cloud" : "hyperdx";
    const operation = seed === undefined ? this.match(document, mapped.method, mapped.path) : undefined;
    const label =
      seed !== undefined
        ? `${seed.method} ${seed.template} (interfaces.md ${seed.name.slice(0, 2)})`
        : operation !== undefined
          ? `${operation.method.toUpperCase()} ${operation.template} (${document})`
          : `${mapped.method} ${this.templateOf(document, mapped.path)} (${document})`;
    const add = (part: string, finding: string) => findings.push({ operation: label, part, finding });

    if (!deliberate) {
      requestValidated = true;
      if (seed !== undefined) {
        if (!sameScheme(request.headers.authorization, seed.scheme))
          add("request", `authorization ${request.headers.authorization ?? "none"}, not ${seed.scheme}`);
        if (!seed.validate(mapped.body)) errorsOf(seed.validate.errors).forEach((f) => add("request", f));
      } else if (operation === undefined) {
        add("request", "no such operation");
      } else {
        const schemes = operation.schemes;
        if (schemes.length > 0 && !schemes.some((s) => sameScheme(request.headers.authorization, s)))
          add("request", `authorization ${request.headers.authorization ?? "none"}, not ${schemes.join(" or ")}`);
        this.checkParameters(operation, mapped, add);
        this.checkRequestBody(operation, mapped, add);
      }
    }

    const answer = exchange.answer;
    const answered =
      answer !== undefined &&
      exchange.fault === undefined &&
      (cloudArea ? dialect === "clickhouse" || /\/(clickpipes|clickstack)\//.test(request.path) : dialect === "2026");
    if (!answered || answer === undefined) return { findings, requestValidated, answerValidated: false };
    const part = `answer ${answer.status}`;
    if (operation === undefined) {
      if (deliberate || seed !== undefined) add(part, "no such operation");
      return { findings, requestValidated, answerValidated: true };
    }
    const responses = operation.operation.responses ?? {};
    const status = String(answer.status);
    const listed = status in responses ? status : `${status[0] ?? ""}XX` in responses ? `${status[0]}XX` : "default";
    const response = responses[listed];
    if (response === undefined) {
      add(part, "status not listed");
    } else if (answer.text !== undefined) {
      const described = Object.keys(response.content ?? {});
      if (!described.includes(answer.headers["content-type"] ?? ""))
        add(part, `${answer.headers["content-type"]} text where ${described.join(", ") || "no body"} is described`);
    } else if (response.content?.["application/json"]?.schema !== undefined) {
      const validate = this.compile(operation, `responses/${escape(listed)}/content/application~1json/schema`);
      if (!validate(answer.body)) errorsOf(validate.errors).forEach((f) => add(part, f));
    }
    return { findings, requestValidated, answerValidated: true };
  }

  private checkParameters(
    operation: Operation,
    request: LoggedExchange["request"],
    add: (part: string, finding: string) => void,
  ): void {
    const declared = (operation.operation as { parameters?: { name: string; in: string }[] }).parameters ?? [];
    const query = new Set(declared.filter((p) => p.in === "query").map((p) => p.name));
    for (const [name] of request.query) if (!query.has(name)) add("request", `query parameter "${name}" not declared`);
    declared.forEach((parameter, index) => {
      const value =
        parameter.in === "query"
          ? request.query.find(([n]) => n === parameter.name)?.[1]
          : parameter.in === "path"
            ? pathValue(operation, request.path, parameter.name)
            : undefined;
      if (value === undefined) return;
      const validate = this.compile(operation, `parameters/${index}/schema`);
      const typed = /^-?\d+(\.\d+)?$/.test(value) && !validate(value) ? Number(value) : value;
      if (!validate(typed))
        errorsOf(validate.errors, `${parameter.in} ${parameter.name}`).forEach((f) => add("request", f));
    });
  }

  private checkRequestBody(
    operation: Operation,
    request: LoggedExchange["request"],
    add: (part: string, finding: string) => void,
  ): void {
    const content = operation.operation.requestBody?.content;
    if (request.text !== undefined) add("request", "a body that is not JSON");
    if (request.body === undefined) return;
    if (content?.["application/json"]?.schema === undefined) {
      add("request", "a body where the operation takes none");
      return;
    }
    const validate = this.compile(operation, "requestBody/content/application~1json/schema");
    if (!validate(request.body)) errorsOf(validate.errors).forEach((f) => add("request", f));
  }

  private compile(operation: Operation, rest: string): ValidateFunction {
    const ref = `${operation.document}#${operation.pointer}/${rest}`;
    let validate = this.compiled.get(ref);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref, unevaluatedProperties: false });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  private match(document: DocumentName, method: string, path: string): Operation | undefined {
    return this.operations.find(
      (op) => op.document === document && op.method === method.toLowerCase() && op.pattern.test(path),
    );
  }

  /** The document's template for a path whatever the method, or the path with its ids as `{id}`. */
  private templateOf(document: DocumentName, path: string): string {
    const known = this.operations.find((op) => op.document === document && op.pattern.test(path));
    return known?.template ?? path.replace(/\/([0-9a-f]{24}|[0-9a-f-]{36}|\d+)(?=\/|$)/gi, "/{id}");
  }
}

/** A contract-dialect request as the public service spells it: `pipes` → `clickpipes`, `db_` → `clickhouse_`, `search` → `saved_search`. */
export function publicCounterpart(request: LoggedExchange["request"]): LoggedExchange["request"] {
  const path = request.path.replace(/\/pipes(?=\/|$)/, "/clickpipes");
  let body = request.body;
  if (isRecord(body) && /\/settings$/.test(path))
    body = Object.fromEntries(Object.entries(body).map(([k, v]) => [k.replace(/^db_/, "clickhouse_"), v]));
  if (isRecord(body) && path.startsWith("/api/v2/alerts") && body.source === "search")
    body = { ...body, source: "saved_search" };
  return { ...request, path, ...(body !== undefined ? { body } : {}) };
}

/** ajv's errors as findings: the instance path (indexes as `*`) and what failed. */
export function errorsOf(errors: ErrorObject[] | null | undefined, where = ""): string[] {
  const all = errors ?? [];
  // A failed oneOf/anyOf reports every branch's errors too; its own summary line adds nothing.
  const shown = all.filter((e) => !(["oneOf", "anyOf"].includes(e.keyword) && all.length > 1));
  const lines = shown.map((e) => {
    const at = `${where}${e.instancePath.replace(/\/\d+(?=\/|$)/g, "/*")}` || "/";
    if (e.keyword === "unevaluatedProperties" || e.keyword === "additionalProperties") {
      const member = e.params as { unevaluatedProperty?: string; additionalProperty?: string };
      return `${at}: member "${member.unevaluatedProperty ?? member.additionalProperty}" not declared`;
    }
    if (e.keyword === "enum")
      return `${at}: not one of ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}`;
    return `${at}: ${e.message ?? e.keyword}`;
  });
  return [...new Set(lines)];
}

function convert30(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  const convert = (schema: unknown) => {
    const converted = fromSchema(schema as Parameters<typeof fromSchema>[0], { cloneSchema: true }) as JsonSchema;
    delete converted.$schema;
    return converted;
  };
  for (const [name, schema] of Object.entries(copy.components?.schemas ?? {}))
    (copy.components as { schemas: Record<string, unknown> }).schemas[name] = convert(schema);
  eachSchemaHolder(copy, (holder) => {
    holder.schema = convert(holder.schema);
  });
  return copy;
}

/** Sets `unevaluatedProperties: false` on each schema in a value's place, in components and operations. */
function closeValues(document: OpenApiDocument): void {
  const close = (root: unknown) =>
    traverse(root as traverse.SchemaObject, {
      cb: (schema, _pointer, _root, _parentPointer, parentKeyword) => {
        if (parentKeyword !== undefined && VALUE_PLACES.has(parentKeyword) && !("unevaluatedProperties" in schema))
          schema.unevaluatedProperties = false;
      },
    });
  Object.values(document.components?.schemas ?? {}).forEach(close);
  eachSchemaHolder(document, (holder) => close(holder.schema));
}

/** Every `{schema}` an operation holds: its parameters', its request body's, its responses'. */
function eachSchemaHolder(document: OpenApiDocument, visit: (holder: { schema: unknown }) => void): void {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const op = item[method] as (OpenApiOperation & { parameters?: { schema?: unknown }[] }) | undefined;
      if (op === undefined) continue;
      for (const parameter of op.parameters ?? [])
        if (parameter.schema !== undefined) visit(parameter as { schema: unknown });
      for (const media of Object.values(op.requestBody?.content ?? {}))
        if (media.schema !== undefined) visit(media as { schema: unknown });
      for (const response of Object.values(op.responses ?? {}))
        for (const media of Object.values(response.content ?? {}))
          if (media.schema !== undefined) visit(media as { schema: unknown });
    }
  }
}

function operationsOf(document: DocumentName, doc: OpenApiDocument): Operation[] {
  const schemes = doc.components?.securitySchemes ?? {};
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (operation === undefined) continue;
      const security = operation.security ?? doc.security ?? [];
      operations.push({
        document,
        method,
        template,
        pattern: patternOf(template),
        operation,
        schemes: security.flatMap((s) => Object.keys(s)).map((n) => schemeWord(schemes[n])),
        pointer: `/paths/${escape(template)}/${method}`,
      });
    }
  }
  // A literal segment wins over a parameter: /dashboards/validate before /dashboards/{id}.
  return operations.sort((a, b) => paramCount(a.template) - paramCount(b.template));
}

function schemeWord(scheme: SecurityScheme | undefined): string {
  return scheme?.type === "http" && scheme.scheme !== undefined ? scheme.scheme : (scheme?.type ?? "unknown");
}

function sameScheme(sent: string | undefined, expected: string): boolean {
  return sent !== undefined && sent.toLowerCase() === expected.toLowerCase();
}

function patternOf(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("([^/]+)")}$`);
}

function pathValue(operation: Operation, path: string, name: string): string | undefined {
  const names = [...operation.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const values = operation.pattern.exec(path)?.slice(1) ?? [];
  const value = values[names.indexOf(name)];
  return value === undefined ? undefined : decodeURIComponent(value);
}

function paramCount(template: string): number {
  return (template.match(/\{/g) ?? []).length;
}

function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
