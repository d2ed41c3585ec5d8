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
  return f.property !== "" ? f.property : (/^([^\s:]+)(?: is | must | \(|: )/.exec(f.reason)?.[1] ?? f.reason);
}

/** What a call that must fail rejects with; the test fails if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}

type Check = (olds: Record<string, unknown>, news: Record<string, unknown>) => Promise<{ failures?: Failure[] }>;

/**
 * The failures `check` reports for a new program: `base` (a valid one, or nothing) with the given
 * properties over it.
 */
export function checkFailures(
  check: Check,
  base: Record<string, unknown> = {},
): (props: Record<string, unknown>) => Promise<Failure[]> {
  return async (props) => (await check({}, { ...base, ...props })).failures ?? [];
}
