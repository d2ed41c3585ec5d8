// What the resource classes share.

import * as pulumi from "@pulumi/pulumi";
import { inputNames, namesWith, outputNames, type ResourceDefinition } from "../protocol/definition";
import { warnPlainTextInProgram } from "./plainTextConfig";
import { pauseStackCapture, restoreStackCapture } from "./stackCapture";

/**
 * Pulumi exposes on an instance only the properties its constructor passes, so every output is named,
 * even in a read by id. additionalSecretOutputs covers outputs only and the engine stores inputs as they
 * come, so a secret input is made secret here, or it would sit in the state in plain text.
 */
export function constructorProps(
  def: ResourceDefinition,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): { props: Record<string, unknown>; opts: pulumi.CustomResourceOptions | undefined } {
  const props: Record<string, unknown> = Object.fromEntries(outputNames(def).map((n) => [n, undefined]));
  Object.assign(props, args);
  const secrets = namesWith(def, "secret");
  if (secrets.length === 0) return { props, opts };
  for (const n of inputNames(def))
    if (secrets.includes(n) && props[n] !== undefined) props[n] = pulumi.secret(props[n]);
  return { props, opts: pulumi.mergeOptions(opts, { additionalSecretOutputs: secrets }) };
}

/** `shim` is the provider the SDK serializes. */
export interface ResourceClass {
  readonly def: ResourceDefinition;
  readonly shim: pulumi.dynamic.ResourceProvider;
  readonly type: string;
}

/** Warns, once a run, of credentials the stack config holds in plain text (plainTextConfig.ts). */
export abstract class DefinedResource extends pulumi.dynamic.Resource {
  protected constructor(of: ResourceClass, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const made = constructorProps(of.def, args, opts);
    const limit = pauseStackCapture();
    try {
      super(of.shim, name, made.props, made.opts, "alertpipe", of.type);
    } catch (err) {
      restoreStackCapture(limit, err, new.target);
      throw err;
    }
    restoreStackCapture(limit);
    warnPlainTextInProgram();
  }
}

/** A class whose existing objects are read by their id alone. */
export abstract class ReadByIdResource extends DefinedResource {
  /**
   * An existing object, read by its id and never created, changed or deleted by this stack. The
   * arguments of a read are not sent anywhere: the id is all the provider needs.
   */
  static get<T>(
    this: new (name: string, args: never, opts?: pulumi.CustomResourceOptions) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): T {
    return new this(name, {} as never, { ...opts, id });
  }
}
