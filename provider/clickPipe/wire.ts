// The ClickPipe on the Cloud's wire: paths, bodies (credentials put where the description has them),
// what changes in place, and answers read liberally into the program's shapes.

import { z } from "../protocol/zod";
import type { ArgsOf, StateOf } from "../protocol/definition";
import { deepEqual } from "../protocol/diff";
import { apiPath } from "../http/paths";
import { SETTING_NAMES, wireName } from "../serviceFacts/pipeSettings";
import { SOURCE_KINDS, type SourceKind } from "./shapes";
import { CLICK_PIPE } from "./definition";

export type Args = ArgsOf<typeof CLICK_PIPE>;
export type State = StateOf<typeof CLICK_PIPE>;
type Obj = Readonly<Record<string, unknown>>;
type Credentials = Readonly<Record<string, string | undefined>>;

const asObj = (v: unknown): Obj | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;

export interface PipeRef {
  readonly organizationId: string;
  readonly serviceId: string;
}

const id = (name: string, value: string) => ({ name, value, form: "uuid" }) as const;

export function pipesPath(ref: PipeRef, clickPipe?: string, tail: "" | "/scaling" | "/state" = ""): string {
  const base = [
    "/v1/organizations/",
    id("organizationId", ref.organizationId),
    "/services/",
    id("serviceId", ref.serviceId),
    "/clickpipes",
  ] as const;
  return clickPipe === undefined
    ? apiPath("ClickPipe", ...base)
    : apiPath("ClickPipe", ...base, "/", id("clickPipeId", clickPipe), tail);
}

/** The one kind a source sets. */
export function kindOf(source: unknown): SourceKind | undefined {
  const o = asObj(source);
  return SOURCE_KINDS.find((k) => o?.[k] !== undefined && o[k] !== null);
}

const pair = (a: string | undefined, b: string | undefined, as: readonly [string, string]) =>
  a === undefined && b === undefined ? undefined : { [as[0]]: a, [as[1]]: b };

/** Where the description puts each credential, per kind and authentication. */
function withCredentials(kind: SourceKind, part: Obj, c: Credentials): Obj {
  const out: Record<string, unknown> = { ...part };
  const userPass = pair(c.username, c.password, ["username", "password"]);
  const accessKey = pair(c.accessKeyId, c.secretKey, ["accessKeyId", "secretKey"]);
  const put = (k: string, v: unknown) => {
    if (v !== undefined) out[k] = v;
  };
  switch (kind) {
    case "kafka": {
      const auth = part.authentication;
      put(
        "credentials",
        part.type === "azureeventhub" && c.connectionString !== undefined
          ? { connectionString: c.connectionString }
          : auth === "IAM_USER"
            ? accessKey
            : auth === "MUTUAL_TLS"
              ? pair(c.certificate, c.privateKey, ["certificate", "privateKey"])
              : userPass,
      );
      const registry = asObj(part.schemaRegistry);
      if (registry !== undefined)
        out.schemaRegistry = {
          ...registry,
          ...(c.schemaRegistryUsername === undefined && c.schemaRegistryPassword === undefined
            ? {}
            : { credentials: { username: c.schemaRegistryUsername, password: c.schemaRegistryPassword } }),
        };
      break;
    }
    case "objectStorage":
      put("accessKey", accessKey);
      put("connectionString", c.connectionString);
      put("serviceAccountKey", c.serviceAccountKey);
      break;
    case "kinesis":
      put("accessKey", accessKey);
      break;
    case "pubsub":
      put(
        "serviceAccountKey",
        c.serviceAccountKey === undefined ? undefined : { serviceAccountFile: c.serviceAccountKey },
      );
      break;
    case "bigquery":
      put("credentials", c.serviceAccountKey === undefined ? undefined : { serviceAccountFile: c.serviceAccountKey });
      break;
    default:
      put("credentials", userPass);
  }
  return out;
}

const credentialsOf = (args: Pick<Args, "credentials">): Credentials => (asObj(args.credentials) ?? {}) as Credentials;

/** Every credential value, for the HTTP layer to scrub from errors. */
export function secretsOf(args: Pick<Args, "credentials">): string[] {
  return Object.values(credentialsOf(args)).filter((v): v is string => typeof v === "string" && v !== "");
}

/** The program's settings under the Cloud's names. */
export function settingsToWire(settings: unknown): Record<string, unknown> | undefined {
  const o = asObj(settings);
  if (o === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const n of SETTING_NAMES) if (o[n] !== undefined) out[wireName(n, "clickhouse")] = o[n];
  return out;
}

function settingsFromWire(settings: unknown): Record<string, unknown> | undefined {
  const o = asObj(settings);
  if (o === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const n of SETTING_NAMES) if (o[wireName(n, "clickhouse")] !== undefined) out[n] = o[wireName(n, "clickhouse")];
  return out;
}

/** ClickPipePostRequest: scaling only when the program sets it (the peer's #393). */
export function postBody(args: Args): Record<string, unknown> {
  const kind = kindOf(args.source);
  const source = asObj(args.source) ?? {};
  const part = kind === undefined ? {} : (asObj(source[kind]) ?? {});
  const body: Record<string, unknown> = {
    name: args.name,
    source: kind === undefined ? {} : { [kind]: withCredentials(kind, part, credentialsOf(args)) },
    destination: args.destination,
  };
  if (args.fieldMappings !== undefined && args.fieldMappings !== null) body.fieldMappings = args.fieldMappings;
  const settings = settingsToWire(args.settings);
  if (settings !== undefined && Object.keys(settings).length > 0) body.settings = settings;
  if (args.scaling !== undefined && args.scaling !== null) body.scaling = args.scaling;
  return body;
}

/** What ClickPipePatchSource takes of each kind, besides credentials and table mappings. */
export const PATCHABLE: Readonly<Record<SourceKind, readonly string[]>> = {
  kafka: ["authentication", "iamRole", "caCertificate", "reversePrivateEndpointIds"],
  objectStorage: ["skipInitialLoad", "startAfter", "authentication", "iamRole", "path", "azureContainerName"],
  kinesis: ["authentication", "iamRole"],
  pubsub: ["ackDeadline"],
  postgres: ["host", "port", "database", "tlsHost", "caCertificate", "disableTls", "skipCertVerification"],
  mysql: [
    "host",
    "port",
    "authentication",
    "iamRole",
    "tlsHost",
    "caCertificate",
    "disableTls",
    "skipCertVerification",
    "serverId",
  ],
  mongodb: ["uri", "readPreference", "tlsHost", "caCertificate", "disableTls", "skipCertVerification"],
  bigquery: [],
};
/** Members of a database pipe's settings ClickPipePatch*PipeSettings takes. */
export const PATCHABLE_SETTINGS: Readonly<Partial<Record<SourceKind, readonly string[]>>> = {
  postgres: ["syncIntervalSeconds", "pullBatchSize"],
  mysql: ["syncIntervalSeconds", "pullBatchSize", "useCompression"],
  mongodb: ["syncIntervalSeconds", "pullBatchSize"],
};
/** Kinds whose table mappings change by deltas. */
export const MAPPING_DELTAS: readonly SourceKind[] = ["postgres", "mysql", "mongodb"];

const changed = (a: unknown, b: unknown) => !deepEqual(a, b);

/** Why a source change cannot be made in place; undefined when it can. */
export function sourceReplacement(olds: unknown, news: unknown): string | undefined {
  const before = kindOf(olds);
  const after = kindOf(news);
  if (before !== after) return `the source kind changes (${String(before)} to ${String(after)})`;
  if (after === undefined) return undefined;
  const a = asObj(asObj(olds)?.[after]) ?? {};
  const b = asObj(asObj(news)?.[after]) ?? {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!changed(a[k], b[k]) || PATCHABLE[after].includes(k)) continue;
    if (k === "tableMappings" && MAPPING_DELTAS.includes(after)) continue;
    if (k === "settings" && PATCHABLE_SETTINGS[after] !== undefined) {
      const sa = asObj(a[k]) ?? {};
      const sb = asObj(b[k]) ?? {};
      const fixed = [...new Set([...Object.keys(sa), ...Object.keys(sb)])].filter(
        (s) => changed(sa[s], sb[s]) && !(PATCHABLE_SETTINGS[after] ?? []).includes(s),
      );
      if (fixed.length === 0) continue;
      return `source.${after}.settings.${fixed.join(", ")} cannot change in place`;
    }
    return `source.${after}.${k} cannot change in place`;
  }
  return undefined;
}

/** Why a destination change replaces: only columns change in place. */
export function destinationReplacement(olds: unknown, news: unknown): string | undefined {
  const a = asObj(olds) ?? {};
  const b = asObj(news) ?? {};
  const fixed = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => k !== "columns" && changed(a[k], b[k]),
  );
  return fixed.length === 0 ? undefined : `destination.${fixed.join(", ")} cannot change in place`;
}

/** A table mapping is known by its source; another target or engine is a removal and an addition. */
const mappingKey = (m: Obj) =>
  JSON.stringify([m.sourceSchemaName ?? m.sourceDatabaseName ?? null, m.sourceTable ?? m.sourceCollection ?? null]);

export function mappingDeltas(olds: unknown, news: unknown): { add: Obj[]; remove: Obj[] } {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(asObj).filter((x): x is Obj => x !== undefined) : []);
  const a = list(olds);
  const b = list(news);
  const remove = a.filter((m) => !b.some((n) => deepEqual(m, n)));
  const add = b.filter((n) => !a.some((m) => deepEqual(m, n)));
  // A removal names the mapping by its source and target (ClickPipePatch*RemoveTableMapping).
  return {
    add,
    remove: remove.map((m) =>
      Object.fromEntries(
        Object.entries(m).filter(([k]) =>
          [
            "sourceSchemaName",
            "sourceDatabaseName",
            "sourceTable",
            "sourceCollection",
            "targetTable",
            "tableEngine",
          ].includes(k),
        ),
      ),
    ),
  };
}
export { mappingKey };

/**
 * ClickPipePatchRequest for what changed in place; undefined when nothing did. Credentials are sent
 * when they changed, and with any change to the source part they belong to.
 */
export function patchBody(olds: State, news: Args): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {};
  if (changed(olds.name, news.name)) body.name = news.name;
  if (changed(olds.fieldMappings, news.fieldMappings) && news.fieldMappings !== undefined)
    body.fieldMappings = news.fieldMappings;
  const settings = settingsToWire(news.settings) ?? {};
  if (changed(olds.settings, news.settings) && Object.keys(settings).length > 0) body.settings = settings;
  const columnsBefore = asObj(olds.destination)?.columns;
  const columnsAfter = asObj(news.destination)?.columns;
  if (changed(columnsBefore, columnsAfter) && columnsAfter !== undefined) body.destination = { columns: columnsAfter };
  const kind = kindOf(news.source);
  if (kind !== undefined && kind !== "bigquery") {
    const a = asObj(asObj(olds.source)?.[kind]) ?? {};
    const b = asObj(asObj(news.source)?.[kind]) ?? {};
    const part: Record<string, unknown> = {};
    for (const k of PATCHABLE[kind]) if (changed(a[k], b[k])) part[k] = b[k] ?? null;
    const settingsChanged = (PATCHABLE_SETTINGS[kind] ?? []).filter((s) =>
      changed(asObj(a.settings)?.[s], asObj(b.settings)?.[s]),
    );
    if (settingsChanged.length > 0)
      part.settings = Object.fromEntries(settingsChanged.map((s) => [s, asObj(b.settings)?.[s] ?? null]));
    if (MAPPING_DELTAS.includes(kind) && changed(a.tableMappings, b.tableMappings)) {
      const { add, remove } = mappingDeltas(a.tableMappings, b.tableMappings);
      part.tableMappingsToAdd = add;
      part.tableMappingsToRemove = remove;
    }
    const credsChanged = changed(olds.credentials, news.credentials);
    if (credsChanged || Object.keys(part).length > 0) {
      // The patch schemas of MySQL and MongoDB require their connection's identity alongside.
      if (kind === "mysql") Object.assign(part, { host: b.host, port: b.port }, part);
      if (kind === "mongodb") Object.assign(part, { uri: b.uri, readPreference: b.readPreference }, part);
      const withSecrets = withCredentials(
        kind,
        { ...part, authentication: b.authentication, type: b.type },
        credentialsOf(news),
      );
      const sent: Record<string, unknown> = { ...withSecrets };
      // Only what the patch schema of the kind takes.
      if (!PATCHABLE[kind].includes("authentication")) delete sent.authentication;
      delete sent.type;
      if (kind === "kafka") delete sent.schemaRegistry;
      if (kind === "pubsub") sent.authentication = "SERVICE_ACCOUNT";
      body.source = { [kind]: sent };
    }
  }
  return Object.keys(body).length === 0 ? undefined : body;
}

/** Whether an update changes table mappings (the pipe must be paused for it: the peer's #497, #604). */
export function changesMappings(body: Record<string, unknown> | undefined): boolean {
  const source = asObj(body?.source);
  const part = source === undefined ? undefined : asObj(Object.values(source)[0]);
  return part?.tableMappingsToAdd !== undefined || part?.tableMappingsToRemove !== undefined;
}

const pipeAnswer = z.looseObject({ id: z.string().min(1) });
const envelope = z.looseObject({ result: z.unknown() });

/** The pipe of an answer (the Cloud's `{result}` envelope), or undefined. */
export function pipeIn(body: unknown): (Obj & { id: string }) | undefined {
  const inner = envelope.safeParse(body);
  const parsed = pipeAnswer.safeParse(inner.success ? inner.data.result : body);
  return parsed.success ? parsed.data : undefined;
}

/** The pipes of a list answer. */
export function pipesIn(body: unknown): Array<Obj & { id: string }> {
  const inner = envelope.safeParse(body);
  const result = inner.success ? inner.data.result : body;
  return Array.isArray(result) ? result.map(pipeIn).filter((p): p is Obj & { id: string } => p !== undefined) : [];
}

/** A live value seen through the recorded one: the members the program set, so the service's defaults make no drift. */
export function projected(live: unknown, recorded: unknown): unknown {
  if (Array.isArray(live)) {
    const r = Array.isArray(recorded) ? recorded : [];
    return live.map((item: unknown, i) => (i < r.length ? projected(item, r[i]) : item));
  }
  const l = asObj(live);
  const r = asObj(recorded);
  if (l === undefined || r === undefined) return live;
  // A member the answer leaves out tells nothing: the recorded value stands.
  return Object.fromEntries(Object.keys(r).map((k) => [k, l[k] === undefined ? r[k] : projected(l[k], r[k])]));
}

export interface Live {
  readonly id: string;
  readonly state: string | undefined;
  readonly name: unknown;
  readonly source: unknown;
  readonly destination: unknown;
  readonly fieldMappings: unknown;
  readonly settings: Record<string, unknown> | undefined;
  readonly scaling: unknown;
  readonly createdAt: string | undefined;
  readonly updatedAt: string | undefined;
}

export function liveOf(pipe: Obj & { id: string }): Live {
  return {
    id: pipe.id,
    state: typeof pipe.state === "string" ? pipe.state : undefined,
    name: pipe.name,
    source: pipe.source,
    destination: pipe.destination,
    fieldMappings: pipe.fieldMappings,
    settings: settingsFromWire(pipe.settings),
    scaling: pipe.scaling,
    createdAt: typeof pipe.createdAt === "string" ? pipe.createdAt : undefined,
    updatedAt: typeof pipe.updatedAt === "string" ? pipe.updatedAt : undefined,
  };
}

/** Where a source's answer could hold a secret: what the POST takes there, never to be shown. */
const SECRET_MEMBERS = ["credentials", "accessKey", "connectionString", "serviceAccountKey"] as const;

/** An answered source without any member a credential goes in (an echo would be plain text). */
export function sourceWithoutSecrets(source: unknown): unknown {
  const o = asObj(source);
  if (o === undefined) return source;
  return Object.fromEntries(
    Object.entries(o).map(([kind, part]) => {
      const p = asObj(part);
      if (p === undefined) return [kind, part];
      const kept: Record<string, unknown> = Object.fromEntries(
        Object.entries(p).filter(([k]) => !(SECRET_MEMBERS as readonly string[]).includes(k)),
      );
      const registry = asObj(p.schemaRegistry);
      if (registry !== undefined)
        kept.schemaRegistry = Object.fromEntries(Object.entries(registry).filter(([k]) => k !== "credentials"));
      return [kind, kept];
    }),
  );
}
