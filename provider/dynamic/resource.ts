// What the three resource classes share: every output named for the constructor, the secret ones
// made secret, inputs included.

import * as pulumi from "@pulumi/pulumi";
import { inputNames, namesWith, outputNames, type ResourceDefinition } from "../protocol/definition";

/**
 * The props and options a class passes its constructor. Pulumi exposes on an instance only the
 * properties the constructor passes, so every output is named, unset, even when the program gives
 * no argument (a read by id); the secret ones must be named too, or the host would store them in
 * plain text. additionalSecretOutputs covers outputs only: the engine stores inputs as they come,
 * so a secret input is made secret here, or it would sit in the state's inputs in plain text.
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
