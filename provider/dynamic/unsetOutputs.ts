// What the three resource classes pass their constructor for outputs not given yet.

/**
 * Each name mapped to undefined. Pulumi exposes on a resource instance only the properties its
 * constructor passes, so every output is named, unset, even when the program gives no argument
 * (a read by id); the secret ones must be named too, or the host would store them in plain text.
 */
export function unsetOutputs<const N extends string>(names: readonly N[]): Record<N, undefined> {
  return Object.fromEntries(names.map((n) => [n, undefined])) as Record<N, undefined>;
}
