// How each output of a resource is read from the service's answer when the answer says null or
// leaves the member out. Each resource states its rules as one table; outputsFrom reads it.

import type { PropertyMap } from "./properties";

/** Where an output's value comes from when the answer leaves it out. */
type Fallback =
  /** What the program's arguments say it is. */
  | "program"
  /** What the stored outputs hold. */
  | "stored"
  /** A fixed value, e.g. the service's documented default. */
  | { readonly value: unknown };

export interface OutputRule {
  /** "cleared": the service says there is none, recorded as null. "absent": as if left out. */
  readonly nullMeans: "cleared" | "absent";
  /** Tried in order; the first that is neither null nor absent wins, else the last one's value. */
  readonly whenAbsent: readonly Fallback[];
}

export type OutputRules<N extends string> = Readonly<Record<N, OutputRule>>;

/** The outputs `names` from an answer (its members under the outputs' names), each by its rule. */
export function outputsFrom<N extends string>(
  rules: OutputRules<N>,
  names: readonly N[],
  answer: PropertyMap,
  known: { readonly program?: PropertyMap; readonly stored?: PropertyMap } = {},
): Partial<Record<N, unknown>> {
  const out: Partial<Record<N, unknown>> = {};
  for (const name of names) {
    const rule = rules[name];
    let value = answer[name];
    if (value === null && rule.nullMeans === "absent") value = undefined;
    for (const fallback of value === undefined ? rule.whenAbsent : []) {
      value =
        fallback === "program" ? known.program?.[name] : fallback === "stored" ? known.stored?.[name] : fallback.value;
      if (value !== undefined && value !== null) break;
    }
    if (value !== undefined) out[name] = value;
  }
  return out;
}
