// What a preview of a create or an update can say of the outputs before any request is sent. The
// dynamic host cannot ask a provider this (see carryStableOutputs in dynamic/carry.ts); the native plugin
// can, and what each resource answers is stated beside its create and update.

import { UNKNOWN, type Values } from "./properties";

/**
 * The outputs a preview promises: `known` as it is (what the program sets, what an update cannot
 * change), and each of `decided` that `known` lacks as not known yet (what the service decides).
 */
export function previewOutputs<S extends Values>(known: Partial<S>, decided: readonly (keyof S & string)[]): S;
/** The same over values no definition types. */
export function previewOutputs(known: Values, decided: readonly string[]): Record<string, unknown>;
export function previewOutputs(known: Values, decided: readonly string[]): Values {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(known)) if (value !== undefined) out[name] = value;
  for (const name of decided) if (out[name] === undefined) out[name] = UNKNOWN;
  // Pulumi's unknown stands in for a value of any type in preview, as it does in ArgsOf.
  return out;
}
