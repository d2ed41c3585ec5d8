// Failures as tests look at them: where a check failure points (its property, or for a nested value,
// which names no property so the engine does not show a top-level lookup of it as {<nil>}, the path
// its reason starts with), and what a call that must fail rejects with.

import { expect } from "vitest";

interface Failure {
  property: string;
  reason: string;
}

export function where(f: Failure): string;
export function where(f: Failure | undefined): string | undefined;
export function where(f: Failure | undefined): string | undefined {
  if (f === undefined) return undefined;
  return f.property !== "" ? f.property : (/^([^\s:]+)(?: is |: )/.exec(f.reason)?.[1] ?? f.reason);
}

/** What a call that must fail rejects with; the test fails if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}
