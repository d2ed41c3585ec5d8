// How each output of a resource is read from the service's answer when the answer says null or
// leaves the member out. Each resource states its rules as one table; outputsFrom reads it.

import type { Values } from "./properties";

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

/** The rules of outputs N; one without a rule is as the answer says (null is "cleared"). */
export type OutputRules<N extends string> = Readonly<Partial<Record<N, OutputRule>>>;

const AS_ANSWERED: OutputRule = { nullMeans: "cleared", whenAbsent: [] };

/**
 * The outputs `names` from an answer (its members under the outputs' names, as S types them), each
 * by its rule; the program's arguments and the stored outputs hold the same properties' values.
 */
export function outputsFrom<S extends Values, N extends keyof S & string>(
  rules: OutputRules<N>,
  names: readonly N[],
  answer: Partial<S>,
  known: { readonly program?: Partial<S>; readonly stored?: Partial<S> } = {},
): Partial<Pick<S, N>> {
  const out: Partial<Pick<S, N>> = {};
  for (const name of names) {
    const rule = rules[name] ?? AS_ANSWERED;
    let value = answer[name];
    if (value === null && rule.nullMeans === "absent") value = undefined;
    for (const fallback of value === undefined ? rule.whenAbsent : []) {
      // A fixed value is the definition's (null, or the service's default) for this very output.
      value =
        fallback === "program"
          ? known.program?.[name]
          : fallback === "stored"
            ? known.stored?.[name]
            : (fallback.value as S[N]);
      if (value !== undefined && value !== null) break;
    }
    if (value !== undefined) out[name] = value;
  }
  return out;
}
