// What a preview of a create or an update can say of the outputs before any request is sent. The
// dynamic host cannot ask a provider this (see carryStableOutputs in dynamic/carry.ts); the native plugin
// can, and what each resource answers is stated beside its create and update.

import { UNKNOWN, type PropertyMap } from "./properties";

/**
 * The outputs a preview promises: `known` as it is (what the program sets, what an update cannot
 * change), and each of `decided` that `known` lacks as not known yet (what the service decides).
 */
export function previewOutputs(known: PropertyMap, decided: readonly string[]): PropertyMap {
  const out: PropertyMap = {};
  for (const [name, value] of Object.entries(known)) if (value !== undefined) out[name] = value;
  for (const name of decided) if (out[name] === undefined) out[name] = UNKNOWN;
  return out;
}
