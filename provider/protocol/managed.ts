// Which of a resource's arguments the program manages. Only those are sent, compared and shown as
// drift; what the program leaves out is the service's (or someone else's) to set.

import type { Values } from "./properties";

/** The names among `names` the program sets; an explicit null counts (it asks for "none" or "unset"). */
export function managedIn<const N extends string>(names: readonly N[], props: Values): N[] {
  return names.filter((n) => props[n] !== undefined);
}

/**
 * The names among `names` that stored outputs record as managed: the list under `listedAs` when
 * the state has one, else those set, as state written before the list existed says.
 */
export function managedInState<const N extends string>(names: readonly N[], state: Values, listedAs: string): N[] {
  const listed = state[listedAs];
  return Array.isArray(listed) ? names.filter((n) => listed.includes(n)) : managedIn(names, state);
}
