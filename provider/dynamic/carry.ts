// The dynamic host's one workaround: outputs an update cannot change, carried in the inputs so
// that its previews keep them known. The native plugin answers previews itself and needs none.

import { hasChanged, type ComparedForm } from "../protocol/diff";
import { containsUnknown, type PropertyMap } from "../protocol/properties";

/**
 * Outputs an update cannot change (an ApiKey's keySuffix), carried in the checked inputs so that
 * preview keeps them known.
 *
 * In preview the engine cannot ask a dynamic provider what an update will return (the Node host
 * does not support provider previews), so it takes the checked inputs as the outputs; and in
 * @pulumi/pulumi 3.248 neither the host nor the engine passes a diff's `stables` on. An output that
 * is not among the inputs is then unknown in every preview of an update, and whatever the program
 * builds from it (an alert whose message names the key's suffix) previews as a change that `up`
 * never makes. So `check` copies these outputs from the stored inputs, unless the change replaces
 * the object (a new object has new values), and `read` writes them into the inputs. The engine
 * stores no inputs from a create, so the carry starts with the first refresh.
 */
export function carryStableOutputs(
  olds: PropertyMap,
  checked: PropertyMap,
  stable: readonly string[],
  replaceOn: readonly string[],
  comparedForm: ComparedForm,
): PropertyMap {
  const replaces = replaceOn.some((p) => hasChanged(p, olds[p], checked[p], comparedForm));
  if (replaces) return checked;
  const carried: PropertyMap = { ...checked };
  for (const name of stable) {
    if (carried[name] === undefined && olds[name] !== undefined && olds[name] !== null && !containsUnknown(olds[name]))
      carried[name] = olds[name];
  }
  return carried;
}

/** The outputs `read` adds to the inputs it returns, so the carry above has them to copy. */
export function stableOutputsOf(outputs: PropertyMap, stable: readonly string[]): PropertyMap {
  const out: PropertyMap = {};
  for (const name of stable) if (outputs[name] !== undefined && outputs[name] !== null) out[name] = outputs[name];
  return out;
}
