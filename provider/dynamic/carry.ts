// The dynamic host's one workaround; the native plugin answers previews itself and needs none.

import { hasChanged, type ComparedForm } from "../protocol/diff";
import { containsUnknown, type PropertyMap } from "../protocol/properties";

/**
 * Outputs an update cannot change (an ApiKey's keySuffix), carried in the checked inputs: the Node host
 * has no provider previews, so preview takes the checked inputs as an update's outputs, and an output
 * outside them would preview a change `up` never makes. Not across a replace. The carry starts with the
 * first refresh: the engine stores no inputs from a create. Details: docs/design/preview.md.
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

/** `read` adds these to its inputs, so the carry has them to copy. */
export function stableOutputsOf(outputs: PropertyMap, stable: readonly string[]): PropertyMap {
  const out: PropertyMap = {};
  for (const name of stable) if (outputs[name] !== undefined && outputs[name] !== null) out[name] = outputs[name];
  return out;
}
