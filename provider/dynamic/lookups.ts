// They run in the program's own process, so the stack's `alertpipe:*` config is read here (else the
// ALERTPIPE_* variables); each runs the implementation the plugin's Invoke runs.

import * as pulumi from "@pulumi/pulumi";
import { runtime } from "../runtime/runtime";
import { runLookup } from "../lookups/run";
import { LOOKUP_NAMED, type LookupName } from "../lookups/definition";
import type { LookupTypes } from "./lookupTypes";

export type * from "./lookupTypes";

/** Unless a provider in this process has its engine's config already. */
function programConfig(): void {
  const held = runtime();
  if (held.config !== undefined) return;
  // The raw reader: Config.get would warn of a secret credential read as plain text.
  held.config = { get: (key) => pulumi.runtime.getConfig(key) };
}

/** A lookup whose arguments are all optional may be called with none: `getAlerts()`. */
type Params<A> = object extends A ? [args?: A] : [args: A];

/** Typed as its definition renders it (lookupTypes.ts). */
function lookup<N extends LookupName>(name: N) {
  const def = LOOKUP_NAMED[name];
  return async (...[args]: Params<LookupTypes[N]["args"]>): Promise<LookupTypes[N]["result"]> => {
    programConfig();
    return runLookup(def, args ?? {});
  };
}

/** An alert by its id, as the service holds it. LOOKUP_NOT_FOUND when there is none. */
export const getAlert = lookup("getAlert");
/** The caller's alerts (every page); with `name`, those of that name alone. */
export const getAlerts = lookup("getAlerts");
/** An organization's API key by `id` or by `name`, never its secret. */
export const getApiKey = lookup("getApiKey");
/** An organization's API keys, never a secret. */
export const getApiKeys = lookup("getApiKeys");
/** One pipe's settings as the service holds them, null when unset. */
export const getPipeSettings = lookup("getPipeSettings");
export const getClickPipeCdcInfrastructure = lookup("getClickPipeCdcInfrastructure");
/** A ClickPipe by its id, as the service holds it: never its credentials. LOOKUP_NOT_FOUND when there is none. */
export const getClickPipe = lookup("getClickPipe");
/** A service's ClickPipes (one list); with `name`, those of that name alone. Never a credential. */
export const getClickPipes = lookup("getClickPipes");
/** A webhook by `id` or by `name`, never its headers, queryParams or an incidentio body (write-only). */
export const getWebhook = lookup("getWebhook");
/** The caller's webhooks (every page); with `name`, those of that name alone. */
export const getWebhooks = lookup("getWebhooks");
/** A saved search by `id` or by `name`. */
export const getSavedSearch = lookup("getSavedSearch");
/** The caller's saved searches (every page); with `name`, those of that name alone. */
export const getSavedSearches = lookup("getSavedSearches");
/** A dashboard by `id` or by `name`, with its tileIds. */
export const getDashboard = lookup("getDashboard");
/** The caller's dashboards; with `name`, those of that name alone. */
export const getDashboards = lookup("getDashboards");
/** A source by `id` or by `name`. */
export const getSource = lookup("getSource");
/** The caller's sources; with `name`, those of that name alone. */
export const getSources = lookup("getSources");
/** A connection by `id` or by `name` (self-hosted), never its password. */
export const getConnection = lookup("getConnection");
/** The caller's connections (self-hosted); with `name`, those of that name alone. Never a password. */
export const getConnections = lookup("getConnections");
