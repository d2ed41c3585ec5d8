// Every resource the package serves, one line each; behaviours load on first use, for a cold start
// without zod or undici.

import type { Behaviour } from "./protocol/behaviour";
import type { ResourceDefinition } from "./protocol/definition";
import { ALERT } from "./alert/definition";
import { API_KEY } from "./apiKey/definition";
import { PIPE_SETTINGS_RESOURCE } from "./pipeSettings/definition";
import { SAVED_SEARCH } from "./savedSearch/definition";
import { WEBHOOK } from "./webhook/definition";
import { CONNECTION } from "./connection/definition";
import { SOURCE } from "./source/definition";
import { DASHBOARD } from "./dashboard/definition";
import { CLICK_PIPE_CDC_INFRASTRUCTURE } from "./clickPipeCdcInfrastructure/definition";
import { CLICK_PIPE } from "./clickPipe/definition";

export interface Resource<K extends string = string> {
  /** The resource's folder, e.g. "apiKey": states require `dist/provider/<kind>/shim.js`. */
  readonly kind: K;
  readonly definition: ResourceDefinition;
  readonly behaviour: () => Promise<Behaviour<ResourceDefinition>>;
}

/**
 * `require` when compiled: `import()` of CommonJS would load Node's ES loader on a cold start. The
 * sources (tests) have no .js to require. Both name the file literally, for the bundler.
 */
export async function loaded<T extends object>(
  required: () => unknown,
  imported: () => Promise<T | { default: T }>,
): Promise<T> {
  if (__filename.endsWith(".js")) return required() as T;
  const m = await imported();
  return "default" in m ? m.default : m;
}

type BehaviourModule = { readonly behaviour: Behaviour<ResourceDefinition> };

function resource<const K extends string>(
  kind: K,
  definition: ResourceDefinition,
  required: () => unknown,
  imported: () => Promise<BehaviourModule | { default: BehaviourModule }>,
): Resource<K> {
  // Held: a require per call resolves the path again, some microseconds on each of a refresh's thousands.
  let held: Promise<Behaviour<ResourceDefinition>> | undefined;
  const behaviour = (): Promise<Behaviour<ResourceDefinition>> =>
    (held ??= loaded(required, imported).then(
      (m) => m.behaviour,
      (err: unknown) => {
        held = undefined;
        throw err;
      },
    ));
  return { kind, definition, behaviour };
}

export const RESOURCES = [
  resource(
    "alert",
    ALERT,
    () => require("./alert/behaviour.js"),
    () => import("./alert/behaviour.js"),
  ),
  resource(
    "pipeSettings",
    PIPE_SETTINGS_RESOURCE,
    () => require("./pipeSettings/behaviour.js"),
    () => import("./pipeSettings/behaviour.js"),
  ),
  resource(
    "apiKey",
    API_KEY,
    () => require("./apiKey/behaviour.js"),
    () => import("./apiKey/behaviour.js"),
  ),
  resource(
    "webhook",
    WEBHOOK,
    () => require("./webhook/behaviour.js"),
    () => import("./webhook/behaviour.js"),
  ),
  resource(
    "savedSearch",
    SAVED_SEARCH,
    () => require("./savedSearch/behaviour.js"),
    () => import("./savedSearch/behaviour.js"),
  ),
  resource(
    "connection",
    CONNECTION,
    () => require("./connection/behaviour.js"),
    () => import("./connection/behaviour.js"),
  ),
  resource(
    "source",
    SOURCE,
    () => require("./source/behaviour.js"),
    () => import("./source/behaviour.js"),
  ),
  resource(
    "dashboard",
    DASHBOARD,
    () => require("./dashboard/behaviour.js"),
    () => import("./dashboard/behaviour.js"),
  ),
  resource(
    "clickPipeCdcInfrastructure",
    CLICK_PIPE_CDC_INFRASTRUCTURE,
    () => require("./clickPipeCdcInfrastructure/behaviour.js"),
    () => import("./clickPipeCdcInfrastructure/behaviour.js"),
  ),
  resource(
    "clickPipe",
    CLICK_PIPE,
    () => require("./clickPipe/behaviour.js"),
    () => import("./clickPipe/behaviour.js"),
  ),
] as const;

export type ResourceKind = (typeof RESOURCES)[number]["kind"];
