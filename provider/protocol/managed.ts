// Only managed arguments are sent, compared and shown as drift; the rest is the service's to set.

import type { Values } from "./properties";

/** An explicit null counts: it asks for "none" or "unset". */
export function managedIn<const N extends string>(names: readonly N[], props: Values): N[] {
  return names.filter((n) => props[n] !== undefined);
}

/** A state older than the `listedAs` list manages those set. */
export function managedInState<const N extends string>(names: readonly N[], state: Values, listedAs: string): N[] {
  const listed = state[listedAs];
  return Array.isArray(listed) ? names.filter((n) => listed.includes(n)) : managedIn(names, state);
}
