// What an output is when the answer nulls or leaves it out: one table of rules per resource.

import type { Values } from "./properties";

type Fallback =
  | "program"
  | "stored"
  /** E.g. the service's documented default. */
  | { readonly value: unknown };

export interface OutputRule {
  /** "cleared": none, recorded as null. "absent": as if left out. */
  readonly nullMeans: "cleared" | "absent";
  /** The first neither null nor absent wins, else the last one's value. */
  readonly whenAbsent: readonly Fallback[];
}

/** An output without a rule is as answered (null is "cleared"). */
export type OutputRules<N extends string> = Readonly<Partial<Record<N, OutputRule>>>;

const AS_ANSWERED: OutputRule = { nullMeans: "cleared", whenAbsent: [] };

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
