// The object Pulumi serializes into every resource's state as `__provider`. It must stay tiny and
// capture nothing but the resource kind: no schema, no client, no config, no path of this machine.
// Each method loads the real implementation by package name when it first runs, so the text works
// wherever the host resolves `pulumi-alertpipe` (the user's node_modules). When the package is
// installed, the serializer sees each shim as the exports of a module under node_modules and stores
// only `require("pulumi-alertpipe/dist/provider/<kind>/shim.js")`.

import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../resources";
import type { DynamicProvider as ProviderImplementation } from "./provider";

export function shimFor(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  // `require` here runs in the provider host, resolved from the program's node_modules.
  const load = (): ProviderImplementation =>
    require(`pulumi-alertpipe/dist/provider/${kind}/provider`) as ProviderImplementation;
  return {
    configure: (req) => load().configure(req),
    check: (olds, news) => load().check(olds, news),
    diff: (id, olds, news) => load().diff(id, olds, news),
    create: (inputs) => load().create(inputs),
    read: (id, props) => load().read(id, props),
    update: (id, olds, news) => load().update(id, olds, news),
    delete: (id, props) => load().delete(id, props),
    // `satisfies` types the parameters as ours, not the SDK's `any`; it emits nothing.
  } satisfies ProviderImplementation;
}
