// Failures as tests look at them: where a check failure points (its property, or for a nested value,
// which names no property so the engine does not show a top-level lookup of it as {<nil>}, the path
// its reason starts with), what a resource's check reports for a program, and what a call that
// must fail rejects with.

import { expect } from "vitest";

interface Failure {
  property: string;
  reason: string;
}

export function where(f: Failure): string;
export function where(f: Failure | undefined): string | undefined;
export function where(f: Failure | undefined): string | undefined {
  if (f === undefined) return undefined;
  if (f.property !== "") return f.property;
  // After the code every reason starts with ([INVALID_INPUT], [CONFIG]).
  const words = f.reason.replace(/^\[[A-Z_]+\] /, "");
  return /^([^\s:]+)(?: is | must | \(|: )/.exec(words)?.[1] ?? words;
}

/** What a call that must fail rejects with; the test fails if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}

type Check = (olds: Record<string, unknown>, news: Record<string, unknown>) => Promise<{ failures?: Failure[] }>;

/** Every check failure's reason starts with its code (docs/errors.md); what follows is its words. */
const CODED = /^\[(INVALID_INPUT|CONFIG)\] /;

/**
 * The failures `check` reports for a new program: `base` (a valid one, or nothing) with the given
 * properties over it, each held to start with its code and given as the words after it.
 */
export function checkFailures(
  check: Check,
  base: Record<string, unknown> = {},
): (props: Record<string, unknown>) => Promise<Failure[]> {
  return async (props) =>
    ((await check({}, { ...base, ...props })).failures ?? []).map((f) => {
      expect(f.reason, "a check failure starts with its code").toMatch(CODED);
      return { property: f.property, reason: f.reason.replace(CODED, "") };
    });
}
