// The export's table: a new type is one more row.

import { ApiError, UnexpectedResponseError } from "../errors";
import { credentialAnswered } from "../http/credentials";
import { isNotFound } from "../http/gone";
import { listedObjects, type Collection } from "../reading/listedReads";
import { connectionFor, isManagedClickStack, type Area } from "../runtime/connection";
import type { Checked } from "../protocol/check";
import type { ResourceDefinition } from "../protocol/definition";
import type { PropertyMap } from "../protocol/properties";
import { behaviour as alert } from "../alert/behaviour";
import { ALERT_REFERENCES } from "../alert/definition";
import { alertCollection } from "../alert/lookup";
import { behaviour as apiKey } from "../apiKey/behaviour";
import { keyCollection } from "../apiKey/lookup";
import { behaviour as pipeSettings } from "../pipeSettings/behaviour";
import { behaviour as webhook } from "../webhook/behaviour";
import { WEBHOOKS } from "../webhook/wire";
import { behaviour as savedSearch } from "../savedSearch/behaviour";
import { SAVED_SEARCH_REFERENCES } from "../savedSearch/definition";
import { SEARCHES } from "../savedSearch/wire";
import { behaviour as dashboard } from "../dashboard/behaviour";
import { DASHBOARD_REFERENCES, TILE_IDS_OUTPUT } from "../dashboard/definition";
import { DASHBOARDS } from "../dashboard/wire";
import { behaviour as source } from "../source/behaviour";
import { SOURCE_REFERENCES } from "../source/definition";
import { SOURCES } from "../source/wire";
import { behaviour as connection } from "../connection/behaviour";
import { CONNECTIONS } from "../connection/wire";
import { behaviour as clickPipe, credentialsNeeded, importedFromList } from "../clickPipe/behaviour";
import { pipesIn, pipesPath } from "../clickPipe/wire";
import { behaviour as cdcInfrastructure } from "../clickPipeCdcInfrastructure/behaviour";
import { send } from "../http/client";
import type { ExportType } from "./filters";

/** The inputs an import records, which the generated program holds, and its outputs (a dashboard's tileIds). */
export interface Recorded {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs?: Readonly<Record<string, unknown>>;
}

/** A resource's behaviour: the import's read and the preview's check. */
export interface Adoptable {
  readonly definition: ResourceDefinition;
  /** Undefined when the object is gone. */
  readImported(importId: string): Promise<Recorded | undefined>;
  check(olds: PropertyMap, news: PropertyMap): Promise<Checked<unknown>>;
}

/** The organizations whose keys, and the pipes whose settings, to export. */
export interface Scope {
  /** Lower case: the service does not tell a uuid's case. */
  readonly organizations: readonly string[];
  /** Pipes as `<organizationId>/<serviceId>/<pipeId>`, lower case. */
  readonly pipes: readonly string[];
  /** ClickHouse Cloud services as `<organizationId>/<serviceId>`, lower case: their ClickPipes and CDC capacity. */
  readonly services?: readonly string[];
}

/** An object as listed. */
export interface Listed {
  readonly id: string;
  readonly importId: string;
  readonly name: string | undefined;
  /** The import's read, when listing was that read (settings): no second request. */
  readonly recorded?: Recorded;
}

/**
 * Where an object's inputs name another exported object by its id: the path to the value ("[]" for
 * each element of a list) and the type it names. The programs written refer to it by name there.
 */
export interface ReferenceAt {
  readonly path: readonly string[];
  readonly to: ExportType;
  /**
   * The value is not the referent's id but one of the values of its kind's `keyedOutput` (a tile's id
   * among a dashboard's tileIds), the referent being the object whose id is at `ownerAt`; written as
   * that output at the key holding the value.
   */
  readonly keyed?: { readonly ownerAt: readonly string[] };
}

/** One collection to list, named as the report names it. */
export interface ToList {
  readonly where: string;
  /** The objects, or `missing` when the service has no such collection. */
  list(): Promise<Listed[] | { readonly missing: string }>;
}

export interface ExportKind {
  readonly type: ExportType;
  /** The type token `pulumi import` is given. */
  readonly token: string;
  /** The base of a name when the object's own gives none, e.g. "alert". */
  readonly typeWord: string;
  /** The type in the report's words, plural. */
  readonly plural: string;
  /** Whether --name filters it: only objects with a name of their own. */
  readonly named: boolean;
  /** The collections the scope asks to list of this type. */
  collections(scope: Scope): ToList[];
  /** Which flag would give this type something to list. */
  readonly needs: string | undefined;
  /** The behaviour an import of it runs. */
  readonly behaviour: Adoptable;
  /** A line for the report whenever objects of the type are exported. */
  readonly caveat: string | undefined;
  /** The inputs that name other objects; a kept object's referents are kept with it. */
  readonly references: readonly ReferenceAt[];
  /** The `importId` of the dynamic class; undefined: the class has none (its first `up` writes). */
  readonly dynamicImportId: ((listed: Listed) => string) | undefined;
  /** Said above each resource of the type in a written program, whatever its language. */
  readonly programNote: string | undefined;
  /** The map output (name to id) a keyed reference to it reads: a dashboard's tileIds. */
  readonly keyedOutput?: string;
  /**
   * The write-only secrets an object's inputs need and the service never returns (a ClickPipe's
   * credentials), by their names under `at`: each becomes a secret config value of the program.
   */
  readonly placeholders?: {
    readonly at: string;
    readonly names: (inputs: Readonly<Record<string, unknown>>) => string[];
  };
  /** The one write the first up of a class without importId sends ("PUT" unless said). */
  readonly firstWrite?: "PATCH";
  /** False: the dynamic class cannot take an object over (no importId); the TypeScript program comments it out. */
  readonly dynamicAdoptable?: false;
}

/** Words for a list the service lacks or answers unreadably; anything else throws. */
function missingBecause(err: unknown): string | undefined {
  if (isNotFound(err)) return `the service has no such list (404 on GET ${err.path})`;
  if (err instanceof UnexpectedResponseError)
    return `the service answers its list in a shape this export cannot read (${err.detail})`;
  if (err instanceof ApiError && err.status === 405) return `the service does not list it (405 on GET ${err.path})`;
  return undefined;
}

/** A collection whose one listing also serves its objects' reads. */
function listedCollection(
  where: string,
  area: Area,
  collection: (conn: ReturnType<typeof connectionFor>) => Collection,
  importIdOf: (id: string) => string,
): ToList {
  return {
    where,
    list: async () => {
      const conn = connectionFor(area);
      let items: ReadonlyMap<string, unknown>;
      try {
        items = await listedObjects(conn, collection(conn));
        credentialAnswered(area);
      } catch (err) {
        const missing = missingBecause(err);
        if (missing === undefined) throw err;
        return { missing };
      }
      return [...items].map(([id, item]) => ({ id, importId: importIdOf(id), name: nameOf(item) }));
    },
  };
}

function nameOf(item: unknown): string | undefined {
  const name = typeof item === "object" && item !== null ? (item as { name?: unknown }).name : undefined;
  return typeof name === "string" && name.trim() !== "" ? name : undefined;
}

/** A service's ClickPipes: one GET of the list, which answers whole pipes, so no pipe is read again. */
function servicePipes(service: string): ToList {
  const [organizationId = "", serviceId = ""] = service.split("/");
  const ref = { organizationId, serviceId };
  return {
    where: `ClickPipes of service ${service}`,
    list: async () => {
      let body: unknown;
      try {
        body = (await send(connectionFor("cloud"), { method: "GET", path: pipesPath(ref) })).body;
        credentialAnswered("cloud");
      } catch (err) {
        const missing = missingBecause(err);
        if (missing === undefined) throw err;
        return { missing };
      }
      return pipesIn(body).map((pipe) => {
        const found = importedFromList(ref, pipe);
        return {
          id: pipe.id,
          importId: `${service}/${pipe.id}`,
          name: nameOf(pipe),
          recorded: { inputs: found.inputs, outputs: found.outputs },
        };
      });
    },
  };
}

// What others point at comes first, for readers; an import records no dependencies.
export const EXPORT_KINDS: readonly ExportKind[] = [
  {
    type: "Connection",
    token: "alertpipe:index:Connection",
    typeWord: "connection",
    plural: "connections",
    named: true,
    // Managed ClickStack has no connections route: its platform makes the connection.
    collections: () => [
      isManagedClickStack()
        ? {
            where: "connections",
            list: async () => ({
              missing:
                "managed ClickStack has no connections route (its platform makes the connection; sources keep its id)",
            }),
          }
        : listedCollection("connections", "alerting", CONNECTIONS.collection, (id) => id),
    ],
    needs: undefined,
    behaviour: connection,
    caveat:
      "Connections are adopted without their password: the service never returns it, so each exported connection needs " +
      "one set in the program to manage it (a secret); adopting without it sends nothing, and the service keeps the one it holds.",
    references: [],
    dynamicImportId: (listed) => listed.id,
    programNote:
      "password is left out: the service never returns it, and adopting without it sends nothing (the service keeps the " +
      "one it holds). To manage it, set it here as a secret (YAML: a secret config value, password: ${clickhousePassword}; " +
      "TypeScript: config.requireSecret(...)); supplying it is an update: the next up sends the whole connection (one PUT).",
  },
  {
    type: "Source",
    token: "alertpipe:index:Source",
    typeWord: "source",
    plural: "sources",
    named: true,
    collections: () => [listedCollection("sources", "alerting", SOURCES.collection, (id) => id)],
    needs: undefined,
    behaviour: source,
    caveat: undefined,
    references: SOURCE_REFERENCES,
    dynamicImportId: (listed) => listed.id,
    programNote: undefined,
  },
  {
    type: "Webhook",
    token: "alertpipe:index:Webhook",
    typeWord: "webhook",
    plural: "webhooks",
    named: true,
    collections: () => [listedCollection("webhooks", "alerting", WEBHOOKS.collection, (id) => id)],
    needs: undefined,
    behaviour: webhook,
    caveat:
      "Webhooks are adopted without their headers and queryParams (nor an incidentio webhook's body): the service never " +
      "returns them; set them in the program, and its first update sends them.",
    references: [],
    dynamicImportId: (listed) => listed.id,
    programNote:
      "headers and queryParams (and an incidentio webhook's body) are left out: the service never returns them. If the " +
      "webhook has any, set them here, as secrets; supplying them is an update: the next up sends the whole webhook (one PUT).",
  },
  {
    type: "SavedSearch",
    token: "alertpipe:index:SavedSearch",
    typeWord: "savedSearch",
    plural: "saved searches",
    named: true,
    collections: () => [listedCollection("saved searches", "alerting", SEARCHES.collection, (id) => id)],
    needs: undefined,
    behaviour: savedSearch,
    caveat: undefined,
    references: SAVED_SEARCH_REFERENCES,
    dynamicImportId: (listed) => listed.id,
    programNote: undefined,
  },
  {
    type: "Dashboard",
    token: "alertpipe:index:Dashboard",
    typeWord: "dashboard",
    plural: "dashboards",
    named: true,
    collections: () => [listedCollection("dashboards", "alerting", DASHBOARDS.collection, (id) => id)],
    needs: undefined,
    behaviour: dashboard,
    caveat: undefined,
    references: DASHBOARD_REFERENCES,
    dynamicImportId: (listed) => listed.id,
    programNote: undefined,
    keyedOutput: TILE_IDS_OUTPUT,
  },
  {
    type: "Alert",
    token: "alertpipe:index:Alert",
    typeWord: "alert",
    plural: "alerts",
    named: true,
    // All the alerts the token may see.
    collections: () => [listedCollection("alerts", "alerting", alertCollection, (id) => id)],
    needs: undefined,
    behaviour: alert,
    caveat: undefined,
    references: ALERT_REFERENCES,
    dynamicImportId: (listed) => listed.id,
    programNote: undefined,
  },
  {
    type: "ApiKey",
    token: "alertpipe:index:ApiKey",
    typeWord: "apiKey",
    plural: "API keys",
    named: true,
    collections: (scope) =>
      scope.organizations.map((org) =>
        listedCollection(
          `API keys of organization ${org}`,
          "cloud",
          (conn) => keyCollection(conn, org),
          (id) => `${org}/${id}`,
        ),
      ),
    needs: "--organization <id>",
    behaviour: apiKey,
    caveat:
      "API keys are adopted without their keyId and keySecret: the service shows a secret once, to whoever made the key, " +
      "so the stack's keySecret output stays empty; a program that hands a secret on makes a new key (docs/guides/adopting.md).",
    references: [],
    // The class takes the key's uuid; its organizationId is an input.
    dynamicImportId: (listed) => listed.id,
    programNote:
      "Adopted without its keyId and keySecret: the service shows a secret once, to whoever made the key, so this " +
      "stack's keySecret stays unknown (null). A program that needs the secret makes a new key.",
  },
  {
    type: "PipeSettings",
    token: "alertpipe:index:PipeSettings",
    typeWord: "pipeSettings",
    plural: "pipe settings",
    named: false,
    // Settings have no list: one GET per pipe named.
    collections: (scope) =>
      scope.pipes.map((pipe) => ({
        where: `settings of pipe ${pipe}`,
        list: async () => {
          const recorded = await pipeSettings.readImported(pipe);
          credentialAnswered("cloud");
          if (recorded === undefined) return { missing: "the service has no such pipe (404)" };
          return [{ id: pipe.split("/").pop() ?? pipe, importId: pipe, name: undefined, recorded }];
        },
      })),
    needs: "--pipe <organizationId>/<serviceId>/<pipeId>",
    behaviour: pipeSettings,
    caveat: undefined,
    references: [],
    dynamicImportId: undefined,
    programNote: undefined,
  },
  {
    type: "ClickPipeCdcInfrastructure",
    token: "alertpipe:index:ClickPipeCdcInfrastructure",
    typeWord: "cdcInfrastructure",
    plural: "ClickPipes CDC capacities",
    named: false,
    // One GET per service; a service without CDC scaling has nothing to adopt.
    collections: (scope) =>
      (scope.services ?? []).map((service) => ({
        where: `CDC capacity of service ${service}`,
        list: async () => {
          const recorded = await cdcInfrastructure.readImported(service);
          credentialAnswered("cloud");
          if (recorded === undefined) return { missing: "the service answers no CDC scaling" };
          return [{ id: service, importId: service, name: undefined, recorded }];
        },
      })),
    needs: "--service <organizationId>/<serviceId>",
    behaviour: cdcInfrastructure,
    caveat: undefined,
    references: [],
    dynamicImportId: undefined,
    programNote: undefined,
    firstWrite: "PATCH",
  },
  {
    type: "ClickPipe",
    token: "alertpipe:index:ClickPipe",
    typeWord: "clickPipe",
    plural: "ClickPipes",
    named: true,
    collections: (scope) => (scope.services ?? []).map(servicePipes),
    needs: "--service <organizationId>/<serviceId>",
    behaviour: clickPipe,
    caveat:
      "ClickPipes are adopted without their source's credentials, which the service never returns: each one the source " +
      "needs is a secret config value of the program, named below; set each (pulumi config set --secret <key> <value>) " +
      "before the first up, which adopts each pipe and sends its credentials with one PATCH (the import compares the " +
      "program with an answer holding none); then remove each pipe's import option, which would otherwise plan a " +
      "replacement. The TypeScript program leaves ClickPipes commented out (no importId).",
    references: [],
    dynamicImportId: undefined,
    programNote:
      "credentials are secret config values: the service never returns them. Set each before the first up " +
      "(pulumi config set --secret <key> <value>), which adopts the pipe and sends them with one PATCH. Then remove " +
      "the import option: while it stays, each preview compares the program with the service's answer again, which " +
      "holds no credentials, and plans to replace the pipe.",
    placeholders: { at: "credentials", names: credentialsNeeded },
    dynamicAdoptable: false,
  },
];
