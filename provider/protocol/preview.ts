// Outputs a preview promises before any request. Only the native plugin can ask this; the dynamic
// host has carryStableOutputs (dynamic/carry.ts).

import { UNKNOWN, type Values } from "./properties";

/** `known` as it is; each of `decided` that it lacks is unknown (the service decides it). */
export function previewOutputs<S extends Values>(known: Partial<S>, decided: readonly (keyof S & string)[]): S;
export function previewOutputs(known: Values, decided: readonly string[]): Record<string, unknown>;
export function previewOutputs(known: Values, decided: readonly string[]): Values {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(known)) if (value !== undefined) out[name] = value;
  for (const name of decided) if (out[name] === undefined) out[name] = UNKNOWN;
  return out;
}
