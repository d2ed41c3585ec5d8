// The dynamic front door over a resource's typed core: the methods Pulumi's dynamic-provider host
// calls (through the serialized shim), in its shapes, and the workaround only that host needs.

import type * as pulumi from "@pulumi/pulumi";
import { InternalError, PartialFailure } from "../errors";
import type { Behaviour } from "../protocol/behaviour";
import {
  comparedForm,
  inputNames,
  namesWith,
  type ArgsOf,
  type ResourceDefinition,
  type StateOf,
} from "../protocol/definition";
import type { Diff } from "../protocol/diff";
import type { PropertyMap } from "../protocol/properties";
import { configureProvider } from "../runtime/connection";
import { carryStableOutputs, stableOutputsOf } from "./carry";

/** What each resource folder's provider.ts exports, and the serialized shim calls. */
export interface DynamicProvider {
  readonly configure: (req: pulumi.dynamic.ConfigureRequest) => Promise<void>;
  readonly check: (olds: PropertyMap, news: PropertyMap) => Promise<pulumi.dynamic.CheckResult>;
  readonly diff: (id: string, olds: PropertyMap, news: PropertyMap) => Promise<Diff>;
  readonly create: (inputs: PropertyMap) => Promise<pulumi.dynamic.CreateResult>;
  readonly read: (id: string, props: PropertyMap) => Promise<pulumi.dynamic.ReadResult>;
  readonly update: (id: string, olds: PropertyMap, news: PropertyMap) => Promise<pulumi.dynamic.UpdateResult>;
  readonly delete: (id: string, props: PropertyMap) => Promise<void>;
}

const PROVIDER_KEY = "__provider";

/** The program's values without the serialized provider the host adds to them (a copy: the host reads it after). */
function withoutProvider(props: PropertyMap): PropertyMap {
  // A loop, not a rest spread leaving a computed key out: a refresh makes 2,400 of these cold.
  const rest: PropertyMap = {};
  for (const key of Object.keys(props)) if (key !== PROVIDER_KEY) rest[key] = props[key];
  return rest;
}

/** The host prints only the message: every error leaves this door starting with its code. */
async function coded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw InternalError.of(err);
  }
}

/** A half-made object kept in state keeps the serialized provider too: later calls load it from there. */
function withProvider(err: unknown, inputs: PropertyMap): unknown {
  if (!(err instanceof PartialFailure) || inputs[PROVIDER_KEY] === undefined) return InternalError.of(err);
  const cause = err.cause instanceof Error ? err.cause : err;
  return new PartialFailure(err.id, { ...err.properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] }, cause);
}

export function dynamicProvider<D extends ResourceDefinition>(core: Behaviour<D>): DynamicProvider {
  const def = core.definition;
  const names = inputNames(def);
  const stable = namesWith(def, "stable");
  const replaceOn = namesWith(def, "replaces");
  const compared = comparedForm(def);
  /** The arguments among the inputs the host passes: what check returned, less what it carries. */
  const stateOf = (props: PropertyMap) => withoutProvider(props) as StateOf<D>;
  const argsOf = (props: PropertyMap) => {
    const args: PropertyMap = {};
    for (const n of names) if (props[n] !== undefined) args[n] = props[n];
    return args as ArgsOf<D>;
  };
  return {
    configure: (req) => coded(() => configureProvider(req)),
    check: (olds, news) =>
      coded(async () => {
        const checked = await core.check(withoutProvider(olds), withoutProvider(news));
        if (!checked.ok) return { inputs: news, failures: [...checked.failures] };
        const inputs = carryStableOutputs(olds, checked.inputs, stable, replaceOn, compared);
        // The host keeps the serialized provider among the inputs.
        if (news[PROVIDER_KEY] !== undefined) inputs[PROVIDER_KEY] = news[PROVIDER_KEY];
        return { inputs, failures: [] };
      }),
    diff: (id, olds, news) => coded(() => core.diff(id, stateOf(olds), argsOf(news))),
    async create(inputs) {
      try {
        const created = await core.create(argsOf(inputs));
        return { id: created.id, outs: created.outputs };
      } catch (err) {
        throw withProvider(err, inputs);
      }
    },
    read: (id, props) =>
      coded(async () => {
        const found = await core.read(id, stateOf(props));
        if (found === undefined) return {};
        return {
          id: found.id,
          props: found.outputs,
          inputs: Object.assign(stableOutputsOf(found.outputs, stable), found.inputs),
        };
      }),
    update: (id, olds, news) => coded(async () => ({ outs: await core.update(id, stateOf(olds), argsOf(news)) })),
    delete: (id, props) => coded(() => core.delete(id, stateOf(props))),
  };
}
