// What the bench's engine programs declare: n resources of ours, or the same n of the do-nothing
// reference with the very same inputs, so the engine and the host carry equal payloads in both; or
// the same n of ours through the native plugin (alertpipe:index:<Kind>), as a program without a
// generated SDK declares them.

import * as pulumi from "@pulumi/pulumi";
import type { BenchFolder } from "./benchFolder";
import type { Build } from "./engineRun";
import { ALERT } from "../provider/alert/definition";
import { API_KEY } from "../provider/apiKey/definition";
import { constructorProps } from "../provider/dynamic/resource";
import { PIPE_SETTINGS_RESOURCE } from "../provider/pipeSettings/definition";
import { ARGS, range, type Args, type Kind } from "./inputs";
import { SHELL_PACKAGES, type ShellKind } from "./shellFacts";

function ours(folder: BenchFolder, kind: Kind, name: string, i: number, args: Args): pulumi.CustomResource {
  const { PipeSettings, Alert, ApiKey } = folder.alertpipe;
  switch (kind) {
    case "PipeSettings":
      return new PipeSettings(name, args.PipeSettings(i));
    case "Alert":
      return new Alert(name, args.Alert(i));
    case "ApiKey":
      return new ApiKey(name, args.ApiKey(i));
  }
}

/** A resource of the do-nothing provider: type pulumi-nodejs:dynamic/bench:Reference. */
class Reference extends pulumi.dynamic.Resource {
  constructor(provider: pulumi.dynamic.ResourceProvider, name: string, props: pulumi.Inputs) {
    super(provider, name, props, undefined, "bench", "Reference");
  }
}

/** `count` resources of ours, the i-th of kind `kindAt(i)`. */
export function oursBuild(count: number, kindAt: (i: number) => Kind, prefix: string, args: Args = ARGS): Build {
  return (folder) => range(count).map((i) => ours(folder, kindAt(i), `${prefix}-${i}`, i, args));
}

/** The same resources, each managed by the do-nothing provider instead of ours. */
export function referenceBuild(count: number, kindAt: (i: number) => Kind, prefix: string, args: Args = ARGS): Build {
  return (folder) =>
    range(count).map((i) => new Reference(folder.reference, `${prefix}-${i}`, { ...args[kindAt(i)](i) }));
}

const DEFINITIONS = { PipeSettings: PIPE_SETTINGS_RESOURCE, Alert: ALERT, ApiKey: API_KEY } as const;

/**
 * The same resources of the do-nothing provider, handed to the SDK with the props our classes hand
 * it (every output named, unset): the SDK's own work per declared property, apart from our code.
 */
export function referenceDeclaringBuild(
  count: number,
  kindAt: (i: number) => Kind,
  prefix: string,
  args: Args = ARGS,
): Build {
  return declaringBuild(
    (folder, name, props) => new Reference(folder.reference, name, props),
    count,
    kindAt,
    prefix,
    args,
  );
}

/** `count` resources made by `make`, each given the props our classes hand the SDK for its kind's args. */
function declaringBuild(
  make: (folder: Parameters<Build>[0], name: string, props: pulumi.Inputs) => pulumi.CustomResource,
  count: number,
  kindAt: (i: number) => Kind,
  prefix: string,
  args: Args,
): Build {
  return (folder) =>
    range(count).map((i) => {
      const kind = kindAt(i);
      const { props } = constructorProps(DEFINITIONS[kind], { ...args[kind](i) }, undefined);
      return make(folder, `${prefix}-${i}`, props);
    });
}

/** A resource of the list-reading reference: type pulumi-nodejs:dynamic/bench:Listing. */
class Listing extends pulumi.dynamic.Resource {
  constructor(provider: pulumi.dynamic.ResourceProvider, name: string, props: pulumi.Inputs) {
    super(provider, name, props, undefined, "bench", "Listing");
  }
}

/**
 * The same resources through the refresh rows' list-reading reference (bench/listingReference.ts),
 * declared as `referenceDeclaringBuild` declares them: each adopts ours of the same name when made.
 */
export function listingDeclaringBuild(
  count: number,
  kindAt: (i: number) => Kind,
  prefix: string,
  args: Args = ARGS,
): Build {
  return declaringBuild((folder, name, props) => new Listing(folder.listing, name, props), count, kindAt, prefix, args);
}

/** A resource of the hand-written fetching provider: type pulumi-nodejs:dynamic/bench:Fetching. */
class Fetching extends pulumi.dynamic.Resource {
  constructor(provider: pulumi.dynamic.ResourceProvider, name: string, props: pulumi.Inputs) {
    super(provider, name, props, undefined, "bench", "Fetching");
  }
}

/**
 * The same Alerts through the hand-written provider that POSTs them (benchFolder.ts), its class
 * declaring every output ours declares, as a user's class exposing the same outputs would: the
 * SDK's work per declared property weighs alike on both.
 */
export function fetchingBuild(count: number, prefix: string): Build {
  return (folder) =>
    range(count).map((i) => {
      const { props } = constructorProps(ALERT, { ...ARGS.Alert(i) }, undefined);
      return new Fetching(folder.fetching, `${prefix}-${i}`, props);
    });
}

/** A resource of a hand-written Cloud provider (bench/handWrittenCloud.ts): type pulumi-nodejs:dynamic/bench:Paced<Kind>. */
class Paced extends pulumi.dynamic.Resource {
  constructor(kind: Kind, provider: pulumi.dynamic.ResourceProvider, name: string, props: pulumi.Inputs) {
    super(provider, name, props, undefined, "bench", `Paced${kind}`);
  }
}

/**
 * The same resources through the hand-written Cloud providers that send them paced (one window per
 * host process), each class declaring every output ours declares, as `fetchingBuild`'s does.
 */
export function pacedBuild(
  count: number,
  kindAt: (i: number) => "Alert" | "PipeSettings",
  prefix: string,
  args: Args = ARGS,
): Build {
  return (folder) =>
    range(count).map((i) => {
      const kind = kindAt(i);
      const { props } = constructorProps(DEFINITIONS[kind], { ...args[kind](i) }, undefined);
      return new Paced(kind, folder.paced[kind], `${prefix}-${i}`, props);
    });
}

/** A resource of a native plugin, `<pkg>:index:<kind>`: ours (alertpipe) or a native reference's. */
class Native extends pulumi.CustomResource {
  constructor(kind: Kind, name: string, props: pulumi.Inputs, pkg = "alertpipe") {
    super(`${pkg}:index:${kind}`, name, props);
  }
}

/** The same resources as `oursBuild`, same inputs, created through the native plugin instead of the dynamic classes. */
export function nativeBuild(count: number, kindAt: (i: number) => Kind, prefix: string, args: Args = ARGS): Build {
  return () => range(count).map((i) => new Native(kindAt(i), `${prefix}-${i}`, { ...args[kindAt(i)](i) }));
}

/** The same resources through a native reference (bench/nativeShells.ts): same inputs, its own package. */
export function shellBuild(
  shell: ShellKind,
  count: number,
  kindAt: (i: number) => Kind,
  prefix: string,
  args: Args = ARGS,
): Build {
  return () =>
    range(count).map((i) => new Native(kindAt(i), `${prefix}-${i}`, { ...args[kindAt(i)](i) }, SHELL_PACKAGES[shell]));
}
