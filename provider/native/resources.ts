// The one place the native plugin reaches the three resources' behaviour: each type token, the
// behaviour it runs (the same functions the dynamic shim calls, loaded when first used, so the
// plugin starts without zod or undici), and what the protocol needs to know besides.

import type * as pulumi from "@pulumi/pulumi";
import type { Diff } from "../protocol/diff";
import type { PropertyMap } from "../protocol/properties";
import { SECRET_PROPERTIES as API_KEY_SECRETS } from "../apiKey/docs";

/** What each resource's behaviour offers the native plugin; the dynamic shim uses a part of it. */
export interface Behaviour {
  /** The properties a program may set, from the zod schema its check validates with. */
  readonly inputNames: readonly string[];
  check(olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: PropertyMap, news: PropertyMap): Promise<Diff>;
  create(inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult>;
  /** What a create will record, as a preview knows it (unknown where the service decides). */
  previewCreate(inputs: PropertyMap): PropertyMap;
  read(id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult>;
  /** An import: the id alone names the object. */
  readImported(importId: string): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult>;
  previewUpdate(id: string, olds: PropertyMap, news: PropertyMap): PropertyMap;
  delete(id: string, props: PropertyMap): Promise<void>;
}

export type ResourceKind = "alert" | "pipeSettings" | "apiKey";

export interface NativeResource {
  readonly kind: ResourceKind;
  /** The schema's name for it, e.g. "ApiKey" (the token is `alertpipe:index:<name>`). */
  readonly name: string;
  readonly behaviour: () => Promise<Behaviour>;
  /** Outputs sent as secrets whatever the program said: the engine cannot know them secret otherwise. */
  readonly secretOutputs: readonly string[];
}

export const PACKAGE = "alertpipe";

/**
 * A module loaded on first use (each behaviour pulls in zod and the HTTP layer). Compiled, it is
 * `require`d: Node's `import()` of a CommonJS file goes through its ES module loader, which loads
 * that loader and reads and lexes the file for its exports, about 6 ms of the plugin's first Check
 * (bench: native-cold-start). The TypeScript sources, as the test runner loads them, have no file
 * of that .js name to `require`, so there `import()` runs; Node hands a CommonJS module's exports
 * over as `default`. Both name the file literally, so the plugin archive's bundler takes it in.
 */
const COMPILED = __filename.endsWith(".js");

async function loaded<T extends object>(
  required: () => unknown,
  imported: () => Promise<T | { default: T }>,
): Promise<T> {
  if (COMPILED) return required() as T;
  const m = await imported();
  return "default" in m ? m.default : m;
}

const RESOURCES: readonly NativeResource[] = [
  {
    kind: "alert",
    name: "Alert",
    behaviour: () =>
      loaded(
        () => require("../alert/provider.js"),
        () => import("../alert/provider.js"),
      ),
    secretOutputs: [],
  },
  {
    kind: "pipeSettings",
    name: "PipeSettings",
    behaviour: () =>
      loaded(
        () => require("../pipeSettings/provider.js"),
        () => import("../pipeSettings/provider.js"),
      ),
    secretOutputs: [],
  },
  {
    kind: "apiKey",
    name: "ApiKey",
    behaviour: () =>
      loaded(
        () => require("../apiKey/provider.js"),
        () => import("../apiKey/provider.js"),
      ),
    secretOutputs: API_KEY_SECRETS,
  },
];

export function tokenOf(resource: NativeResource): string {
  return `${PACKAGE}:index:${resource.name}`;
}

export const NATIVE_RESOURCES: ReadonlyMap<string, NativeResource> = new Map(RESOURCES.map((r) => [tokenOf(r), r]));

/** The type token of a URN (`urn:pulumi:stack::project::type::name`, the type possibly `parent$type`). */
export function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}
