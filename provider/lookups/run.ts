// The lookups for both doors: arguments checked before any send, reads through the shared listing
// (a collection listed once per run), results holding only the fields the definition names.

import { z } from "../protocol/zod";
import { idProblem, quotedId } from "../protocol/ids";
import { fromWire, type ResourceDefinition } from "../protocol/definition";
import { LookupAmbiguousError, LookupArgumentError, LookupNotFoundError, UnexpectedResponseError } from "../errors";
import { send } from "../http/client";
import { isNotFound, unlessGone } from "../http/gone";
import { connectionFor, isManagedClickStack, type Area } from "../runtime/connection";
import { listedObjects, readListed, type Collection } from "../reading/listedReads";
import { alertCollection } from "../alert/lookup";
import { alertsPath, alertIn } from "../alert/wire";
import { ALERT } from "../alert/definition";
import { keyCollection } from "../apiKey/lookup";
import { keyIn, keysPath } from "../apiKey/wire";
import { API_KEY } from "../apiKey/definition";
import { PIPE_SETTINGS_RESOURCE } from "../pipeSettings/definition";
import { fromWire as settingsFromWire, settingsIn, settingsPath } from "../pipeSettings/wire";
import { WEBHOOK, isWriteOnly } from "../webhook/definition";
import { WEBHOOKS } from "../webhook/wire";
import { SAVED_SEARCH } from "../savedSearch/definition";
import { SEARCHES } from "../savedSearch/wire";
import { DASHBOARDS } from "../dashboard/wire";
import { dashboardAsLookedUp } from "../dashboard/behaviour";
import { SOURCE } from "../source/definition";
import { SOURCES } from "../source/wire";
import { CONNECTION } from "../connection/definition";
import { CONNECTIONS } from "../connection/wire";
import { cdcScalingPath, scalingIn } from "../clickPipeCdcInfrastructure/wire";
import { pipeIn, pipesIn, pipesPath, type PipeRef } from "../clickPipe/wire";
import { pipeAsLookedUp } from "../clickPipe/behaviour";
import { CLICK_PIPE } from "../clickPipe/definition";
import {
  GET_ALERT,
  GET_ALERTS,
  GET_API_KEY,
  GET_API_KEYS,
  GET_CLICK_PIPE,
  GET_CLICK_PIPES,
  GET_CLICK_PIPE_CDC_INFRASTRUCTURE,
  GET_CONNECTION,
  GET_CONNECTIONS,
  GET_DASHBOARD,
  GET_DASHBOARDS,
  GET_PIPE_SETTINGS,
  GET_SAVED_SEARCH,
  GET_SAVED_SEARCHES,
  GET_SOURCE,
  GET_SOURCES,
  GET_WEBHOOK,
  GET_WEBHOOKS,
  LOOKUPS,
  type LookupDefinition,
  type LookupName,
} from "./definition";

type Args = Readonly<Record<string, string | undefined>>;
type Result = Record<string, unknown>;

/** Each argument a string of its form, none unknown, the oneOf rule kept. */
function argsSchema(def: LookupDefinition) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(def.inputs)) {
    const text = z.string({ error: (i) => (i.input === undefined ? "is required" : "must be a string") });
    const checked = text.superRefine((value, ctx) => {
      const problem = field.form === undefined ? undefined : idProblem(value, field.form);
      if (problem !== undefined)
        ctx.addIssue({ code: "custom", message: `${quotedId(value)} cannot be used: ${problem}` });
    });
    shape[name] = field.required === true ? checked : checked.optional();
  }
  return z.strictObject(shape, {
    error: (i) =>
      i.code === "unrecognized_keys"
        ? `is not an argument of ${def.name}; it takes ${Object.keys(def.inputs).join(", ")}`
        : "must be an object of arguments",
  });
}

/** The arguments, or a LookupArgumentError naming the first bad one. */
export function checkLookupArgs(def: LookupDefinition, args: unknown): Args {
  const parsed = argsSchema(def).safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue?.code === "unrecognized_keys" ? issue.keys : [];
    const argument = keys.length > 0 ? keys.join(", ") : String(issue?.path[0] ?? "the arguments");
    throw new LookupArgumentError(def.name, argument, issue?.message ?? "cannot be used");
  }
  const given = parsed.data as Args;
  const rule = def.oneOf;
  if (rule !== undefined && rule.filter((n) => given[n] !== undefined).length !== 1)
    throw new LookupArgumentError(def.name, rule.join(" or "), "must be given, one of them and not both");
  return given;
}

/** The object's fields the lookup names, and only those. */
function fieldsOf(def: ResourceDefinition, names: readonly string[], wire: Readonly<Record<string, unknown>>): Result {
  const mapped = fromWire(def, wire, "keep");
  const out: Result = {};
  for (const n of names) if (mapped[n] !== undefined) out[n] = mapped[n];
  return out;
}

const ALERT_FIELDS = Object.keys(GET_ALERT.outputs);
const KEY_FIELDS = Object.keys(GET_API_KEY.outputs);
const SETTINGS_FIELDS = Object.keys(GET_PIPE_SETTINGS.outputs);

const alertResult = (id: string, alert: unknown): Result => ({ ...fieldsOf(ALERT, ALERT_FIELDS, asObject(alert)), id });
const keyResult = (organizationId: string, id: string, key: unknown): Result => ({
  ...fieldsOf(API_KEY, KEY_FIELDS, asObject(key)),
  organizationId,
  id,
});

const WEBHOOK_FIELDS = Object.keys(GET_WEBHOOK.outputs);
const SEARCH_FIELDS = Object.keys(GET_SAVED_SEARCH.outputs);

/** A webhook's fields, less what the service never returns even if an answer holds it. */
function webhookResult(id: string, webhook: unknown): Result {
  const wire = asObject(webhook);
  const fields = fieldsOf(WEBHOOK, WEBHOOK_FIELDS, wire);
  for (const n of Object.keys(fields)) if (isWriteOnly(n, fields)) delete fields[n];
  return { ...fields, id };
}
const searchResult = (id: string, search: unknown): Result => ({
  ...fieldsOf(SAVED_SEARCH, SEARCH_FIELDS, asObject(search)),
  id,
});

const DASHBOARD_FIELDS = Object.keys(GET_DASHBOARD.outputs);
const SOURCE_FIELDS = Object.keys(GET_SOURCE.outputs);
const CONNECTION_FIELDS = Object.keys(GET_CONNECTION.outputs);

/** In the program's spelling, with its tileIds. */
function dashboardResult(id: string, dashboard: unknown): Result {
  const outputs: Result = dashboardAsLookedUp(dashboard);
  return {
    ...Object.fromEntries(DASHBOARD_FIELDS.filter((n) => outputs[n] !== undefined).map((n) => [n, outputs[n]])),
    id,
  };
}
const sourceResult = (id: string, source: unknown): Result => ({
  ...fieldsOf(SOURCE, SOURCE_FIELDS, asObject(source)),
  id,
});
const connectionResult = (id: string, c: unknown): Result => ({
  ...fieldsOf(CONNECTION, CONNECTION_FIELDS, asObject(c)),
  id,
});

/** The service a pipe lookup names, in its words. */
const serviceWords = (ref: PipeRef) =>
  `service ${quotedId(ref.serviceId)} of organization ${quotedId(ref.organizationId)}`;

/** One of a collection by id (a read) or by name (the list). */
async function oneOf(
  lookup: string,
  args: Args,
  what: { noun: string; nouns: string; missing: string },
  collection: {
    read: (conn: ReturnType<typeof connectionFor>, id: string) => Promise<{ body: unknown } | undefined>;
    objectIn: (body: unknown) => unknown;
    collection: (conn: ReturnType<typeof connectionFor>) => Collection;
  },
): Promise<[string, unknown]> {
  if (args.id !== undefined) {
    const id = args.id;
    const res = await collection.read(connectionFor("alerting"), id);
    if (res === undefined) throw new LookupNotFoundError(lookup, `there is no ${what.noun} with id ${quotedId(id)}`);
    return [id, collection.objectIn(res.body)];
  }
  const all = await everyOne(lookup, "alerting", collection.collection, what.missing);
  return oneNamed(lookup, all, args.name ?? "", { where: "the caller", noun: what.noun, nouns: what.nouns });
}

const DASHBOARD_WORDS = { noun: "dashboard", nouns: "dashboards", missing: "the service has no list of dashboards" };
const SOURCE_WORDS = { noun: "source", nouns: "sources", missing: "the service has no list of sources" };
const CONNECTION_WORDS = {
  noun: "connection",
  nouns: "connections",
  missing: "the service has no list of connections (managed ClickStack has none: its platform makes the connection)",
};

/** Managed ClickStack has no connections route (its gateway's HTML 404 would blame the settings): said first. */
function refusedOnManaged(lookup: string): void {
  if (isManagedClickStack())
    throw new LookupNotFoundError(
      lookup,
      "managed ClickStack (alertpipe:clickstackOrganizationId and clickstackServiceId) has no connections route: its " +
        "platform makes the connection, whose id each source's connection names (getSources lists them)",
    );
}

function asObject(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Every object of a collection; a 404 on its list is `missing`'s words. */
async function everyOne(
  lookup: string,
  area: Area,
  collection: (conn: ReturnType<typeof connectionFor>) => Collection,
  missing: string,
): Promise<ReadonlyMap<string, unknown>> {
  const conn = connectionFor(area);
  try {
    return await listedObjects(conn, collection(conn));
  } catch (err) {
    if (isNotFound(err)) throw new LookupNotFoundError(lookup, `${missing} (${err.method} ${err.path} answered 404)`);
    throw err;
  }
}

const nameOf = (item: unknown) => asObject(item).name;

/** The one object named `name`, else LOOKUP_NOT_FOUND or LOOKUP_AMBIGUOUS. */
function oneNamed(
  lookup: string,
  all: ReadonlyMap<string, unknown>,
  name: string,
  words: { where: string; noun: string; nouns: string },
  idOf: (id: string, item: unknown) => string = (id) => id,
): [string, unknown] {
  const named = [...all].filter(([, item]) => nameOf(item) === name);
  const [first] = named;
  if (first === undefined)
    throw new LookupNotFoundError(lookup, `${words.where} has no ${words.noun} named ${quotedId(name)}`);
  if (named.length > 1)
    throw new LookupAmbiguousError(
      lookup,
      `${words.where} has ${named.length} ${words.nouns} named ${quotedId(name)}`,
      named.map(([id, item]) => idOf(id, item)),
    );
  return first;
}

/** The objects of `all` of this name, or every one when no name is given. */
const ofName = (all: ReadonlyMap<string, unknown>, name: string | undefined) =>
  [...all].filter(([, item]) => name === undefined || nameOf(item) === name);

const NO_WEBHOOK_LIST = "the service has no list of webhooks";
const NO_SEARCH_LIST = "the service has no list of saved searches";

const RUNS: Record<LookupName, (args: Args) => Promise<Result>> = {
  async getAlert(args) {
    const id = args.id ?? "";
    const conn = connectionFor("alerting");
    const res = await readListed(conn, alertCollection(conn), id, { method: "GET", path: alertsPath(id) });
    if (res === undefined) throw new LookupNotFoundError(GET_ALERT.name, `there is no alert with id ${quotedId(id)}`);
    return alertResult(id, alertIn(res.body));
  },

  async getAlerts(args) {
    const all = await everyOne(GET_ALERTS.name, "alerting", alertCollection, "the service has no list of alerts");
    const alerts = ofName(all, args.name).map(([id, alert]) => alertResult(id, alert));
    return { alerts };
  },

  async getApiKey(args) {
    const organizationId = args.organizationId ?? "";
    const conn = connectionFor("cloud");
    const where = `organization ${quotedId(organizationId)}`;
    if (args.id !== undefined) {
      const id = args.id;
      const get = { method: "GET", path: keysPath(organizationId, id) } as const;
      const res = await readListed(conn, keyCollection(conn, organizationId), id, get);
      if (res === undefined)
        throw new LookupNotFoundError(GET_API_KEY.name, `${where} has no API key with id ${quotedId(id)}`);
      return keyResult(organizationId, id, keyIn(res.body));
    }
    const name = args.name ?? "";
    const all = await everyOne(
      GET_API_KEY.name,
      "cloud",
      (c) => keyCollection(c, organizationId),
      `there is no ${where}`,
    );
    const [id, key] = oneNamed(GET_API_KEY.name, all, name, { where, noun: "API key", nouns: "API keys" });
    return keyResult(organizationId, id, key);
  },

  async getApiKeys(args) {
    const organizationId = args.organizationId ?? "";
    const all = await everyOne(
      GET_API_KEYS.name,
      "cloud",
      (c) => keyCollection(c, organizationId),
      `there is no organization ${quotedId(organizationId)}`,
    );
    return { organizationId, keys: [...all].map(([id, key]) => keyResult(organizationId, id, key)) };
  },

  async getPipeSettings(args) {
    // The pipe's three ids, in its import's and its path's order.
    const form = PIPE_SETTINGS_RESOURCE.importIdForm;
    const [organization = "", service = "", pipe = ""] = form.map((n) => args[n] ?? "");
    const conn = connectionFor("cloud");
    const dialect = conn.cloudDialect ?? "contract";
    const path = settingsPath(organization, service, pipe, dialect);
    const res = await unlessGone(() => send(conn, { method: "GET", path }));
    if (res === undefined)
      throw new LookupNotFoundError(
        GET_PIPE_SETTINGS.name,
        `there is no pipe ${quotedId(pipe)} of service ${quotedId(service)} in organization ${quotedId(organization)} (GET ${path} answered 404)`,
      );
    const settings: Result = settingsFromWire(settingsIn(res.body) ?? {}, dialect);
    const out: Result = {};
    for (const n of SETTINGS_FIELDS) out[n] = (form as readonly string[]).includes(n) ? args[n] : (settings[n] ?? null);
    return out;
  },

  async getClickPipeCdcInfrastructure(args) {
    const organizationId = args.organizationId ?? "";
    const serviceId = args.serviceId ?? "";
    const path = cdcScalingPath(organizationId, serviceId);
    const res = await unlessGone(() => send(connectionFor("cloud"), { method: "GET", path }));
    const scaling = res === undefined ? undefined : scalingIn(res.body);
    if (scaling === undefined)
      throw new LookupNotFoundError(
        GET_CLICK_PIPE_CDC_INFRASTRUCTURE.name,
        `service ${quotedId(serviceId)} of organization ${quotedId(organizationId)} has no CDC scaling ` +
          `(GET ${path} answered ${res === undefined ? "404" : "no replicaCpuMillicores and replicaMemoryGb"})`,
      );
    return { organizationId, serviceId, ...scaling };
  },

  async getClickPipe(args) {
    // The pipe's three ids, in its import's and its path's order.
    const [organizationId = "", serviceId = "", id = ""] = CLICK_PIPE.importIdForm.map((n) => args[n] ?? "");
    const ref = { organizationId, serviceId };
    const path = pipesPath(ref, id);
    const res = await unlessGone(() => send(connectionFor("cloud"), { method: "GET", path }));
    if (res === undefined)
      throw new LookupNotFoundError(
        GET_CLICK_PIPE.name,
        `${serviceWords(ref)} has no ClickPipe ${quotedId(id)} (GET ${path} answered 404)`,
      );
    const pipe = pipeIn(res.body);
    if (pipe === undefined) throw new UnexpectedResponseError(res, "the answer holds no ClickPipe", res.requestId);
    return pipeAsLookedUp(ref, pipe);
  },

  async getClickPipes(args) {
    const ref = { organizationId: args.organizationId ?? "", serviceId: args.serviceId ?? "" };
    const path = pipesPath(ref);
    // One GET: the description gives the list no paging.
    const res = await unlessGone(() => send(connectionFor("cloud"), { method: "GET", path }));
    if (res === undefined)
      throw new LookupNotFoundError(
        GET_CLICK_PIPES.name,
        `there is no ${serviceWords(ref)} (GET ${path} answered 404)`,
      );
    const pipes = pipesIn(res.body).filter((p) => args.name === undefined || p.name === args.name);
    return { ...ref, clickPipes: pipes.map((p) => pipeAsLookedUp(ref, p)) };
  },

  async getWebhook(args) {
    if (args.id !== undefined) {
      const id = args.id;
      const res = await WEBHOOKS.read(connectionFor("alerting"), id);
      if (res === undefined)
        throw new LookupNotFoundError(GET_WEBHOOK.name, `there is no webhook with id ${quotedId(id)}`);
      return webhookResult(id, WEBHOOKS.objectIn(res.body));
    }
    const all = await everyOne(GET_WEBHOOK.name, "alerting", WEBHOOKS.collection, NO_WEBHOOK_LIST);
    const words = { where: "the caller", noun: "webhook", nouns: "webhooks" };
    // Names are unique per service, so each id is shown with its service.
    const [id, webhook] = oneNamed(
      GET_WEBHOOK.name,
      all,
      args.name ?? "",
      words,
      (i, w) => `${i} (${String(asObject(w).service)})`,
    );
    return webhookResult(id, webhook);
  },

  async getWebhooks(args) {
    const all = await everyOne(GET_WEBHOOKS.name, "alerting", WEBHOOKS.collection, NO_WEBHOOK_LIST);
    return { webhooks: ofName(all, args.name).map(([id, webhook]) => webhookResult(id, webhook)) };
  },

  async getSavedSearch(args) {
    if (args.id !== undefined) {
      const id = args.id;
      const res = await SEARCHES.read(connectionFor("alerting"), id);
      if (res === undefined)
        throw new LookupNotFoundError(GET_SAVED_SEARCH.name, `there is no saved search with id ${quotedId(id)}`);
      return searchResult(id, SEARCHES.objectIn(res.body));
    }
    const all = await everyOne(GET_SAVED_SEARCH.name, "alerting", SEARCHES.collection, NO_SEARCH_LIST);
    const words = { where: "the caller", noun: "saved search", nouns: "saved searches" };
    const [id, search] = oneNamed(GET_SAVED_SEARCH.name, all, args.name ?? "", words);
    return searchResult(id, search);
  },

  async getSavedSearches(args) {
    const all = await everyOne(GET_SAVED_SEARCHES.name, "alerting", SEARCHES.collection, NO_SEARCH_LIST);
    return { savedSearches: ofName(all, args.name).map(([id, search]) => searchResult(id, search)) };
  },

  async getDashboard(args) {
    return dashboardResult(...(await oneOf(GET_DASHBOARD.name, args, DASHBOARD_WORDS, DASHBOARDS)));
  },

  async getDashboards(args) {
    const all = await everyOne(GET_DASHBOARDS.name, "alerting", DASHBOARDS.collection, DASHBOARD_WORDS.missing);
    return { dashboards: ofName(all, args.name).map(([id, d]) => dashboardResult(id, d)) };
  },

  async getSource(args) {
    return sourceResult(...(await oneOf(GET_SOURCE.name, args, SOURCE_WORDS, SOURCES)));
  },

  async getSources(args) {
    const all = await everyOne(GET_SOURCES.name, "alerting", SOURCES.collection, SOURCE_WORDS.missing);
    return { sources: ofName(all, args.name).map(([id, source]) => sourceResult(id, source)) };
  },

  async getConnection(args) {
    refusedOnManaged(GET_CONNECTION.name);
    return connectionResult(...(await oneOf(GET_CONNECTION.name, args, CONNECTION_WORDS, CONNECTIONS)));
  },

  async getConnections(args) {
    refusedOnManaged(GET_CONNECTIONS.name);
    const all = await everyOne(GET_CONNECTIONS.name, "alerting", CONNECTIONS.collection, CONNECTION_WORDS.missing);
    return { connections: ofName(all, args.name).map(([id, c]) => connectionResult(id, c)) };
  },
};

/** The lookup of this name, undefined when there is none. */
export function lookupNamed(name: string): LookupDefinition | undefined {
  return LOOKUPS.find((l) => l.name === name);
}

/** Every lookup's token, for an error naming what is served. */
export function lookupTokens(packageName: string): string[] {
  return LOOKUPS.map((l) => `${packageName}:index:${l.name}`);
}

/** Checks the arguments before any request, then reads. */
export async function runLookup(def: LookupDefinition, args: unknown): Promise<Result> {
  const checked = checkLookupArgs(def, args);
  const run = RUNS[def.name as LookupName];
  return run(checked);
}
