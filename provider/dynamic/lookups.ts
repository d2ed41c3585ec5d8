// The lookups as plain async functions, for TypeScript programs of the dynamic classes: they run in
// the program's own process, so the stack's `alertpipe:*` config is read here (else the same
// ALERTPIPE_* variables), and each runs the one implementation the plugin's Invoke runs.

import * as pulumi from "@pulumi/pulumi";
import { runtime } from "../runtime/runtime";
import { runLookup } from "../lookups/run";
import {
  GET_ALERT,
  GET_ALERTS,
  GET_API_KEY,
  GET_API_KEYS,
  GET_PIPE_SETTINGS,
  GET_SAVED_SEARCH,
  GET_SAVED_SEARCHES,
  GET_WEBHOOK,
  GET_WEBHOOKS,
  type ArgsOfLookup,
  type LookupDefinition,
  type ResultOf,
} from "../lookups/definition";

/** The program's stack config, unless a provider in this process was configured by its engine already. */
function programConfig(): void {
  const held = runtime();
  if (held.config !== undefined) return;
  // The raw reader: Config.get would warn of a secret credential read as plain text.
  held.config = { get: (key) => pulumi.runtime.getConfig(key) };
}

function lookup<L extends LookupDefinition>(def: L) {
  return async (args: ArgsOfLookup<L>): Promise<ResultOf<L["outputs"]>> => {
    programConfig();
    return (await runLookup(def, args)) as ResultOf<L["outputs"]>;
  };
}

/** An alert by its id, as the service holds it. LOOKUP_NOT_FOUND when there is none. */
export const getAlert = lookup(GET_ALERT);
/** The caller's alerts (every page); with `name`, those of that name alone. */
export const getAlerts = lookup(GET_ALERTS);
/** An organization's API key by `id` or by `name`, never its secret. */
export const getApiKey = lookup(GET_API_KEY);
/** An organization's API keys, never a secret. */
export const getApiKeys = lookup(GET_API_KEYS);
/** One pipe's settings as the service holds them, null when unset. */
export const getPipeSettings = lookup(GET_PIPE_SETTINGS);
/** A webhook by `id` or by `name`, never its headers, queryParams or an incidentio body (write-only). */
export const getWebhook = lookup(GET_WEBHOOK);
/** The caller's webhooks (every page); with `name`, those of that name alone. */
export const getWebhooks = lookup(GET_WEBHOOKS);
/** A saved search by `id` or by `name`. */
export const getSavedSearch = lookup(GET_SAVED_SEARCH);
/** The caller's saved searches (every page); with `name`, those of that name alone. */
export const getSavedSearches = lookup(GET_SAVED_SEARCHES);

export type GetAlertArgs = ArgsOfLookup<typeof GET_ALERT>;
export type GetAlertResult = ResultOf<(typeof GET_ALERT)["outputs"]>;
export type GetAlertsArgs = ArgsOfLookup<typeof GET_ALERTS>;
export type GetAlertsResult = ResultOf<(typeof GET_ALERTS)["outputs"]>;
export type GetApiKeyArgs = ArgsOfLookup<typeof GET_API_KEY>;
export type GetApiKeyResult = ResultOf<(typeof GET_API_KEY)["outputs"]>;
export type GetApiKeysArgs = ArgsOfLookup<typeof GET_API_KEYS>;
export type GetApiKeysResult = ResultOf<(typeof GET_API_KEYS)["outputs"]>;
export type GetPipeSettingsArgs = ArgsOfLookup<typeof GET_PIPE_SETTINGS>;
export type GetPipeSettingsResult = ResultOf<(typeof GET_PIPE_SETTINGS)["outputs"]>;
export type GetWebhookArgs = ArgsOfLookup<typeof GET_WEBHOOK>;
export type GetWebhookResult = ResultOf<(typeof GET_WEBHOOK)["outputs"]>;
export type GetWebhooksArgs = ArgsOfLookup<typeof GET_WEBHOOKS>;
export type GetWebhooksResult = ResultOf<(typeof GET_WEBHOOKS)["outputs"]>;
export type GetSavedSearchArgs = ArgsOfLookup<typeof GET_SAVED_SEARCH>;
export type GetSavedSearchResult = ResultOf<(typeof GET_SAVED_SEARCH)["outputs"]>;
export type GetSavedSearchesArgs = ArgsOfLookup<typeof GET_SAVED_SEARCHES>;
export type GetSavedSearchesResult = ResultOf<(typeof GET_SAVED_SEARCHES)["outputs"]>;
