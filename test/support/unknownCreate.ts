// Test support: the tests each resource passes against the mocked API when a create's outcome is
// unknown, a 503 or a cut connection: the POST is sent once, never again, and the error says the
// named object may have been created, without the configured credential; a plain 400 is not one.

import { expect, it } from "vitest";
import { ApiError, OutcomeUnknownError } from "../../provider/errors";
import { failure } from "./failures";
import { answerOnce, cutOnce, errorText, type MockApi, type SeenRequest } from "./mockApi";

export interface UnknownCreate {
  mock: { readonly api: MockApi; readonly seen: SeenRequest[] };
  area: "alerting" | "cloud";
  /** The collection the create POSTs to. */
  path: string;
  /** The service's answer to a create it cannot take now, with status 503, and to a bad one, with 400. */
  unavailable: unknown;
  badRequest: unknown;
  create: () => Promise<unknown>;
  /** What the user is told may have been created: `the alert "High CPU"`. */
  named: string;
  /** The resource's kind in the tests' names. */
  what: string;
  /** The configured credential no error may carry. */
  credential: { name: string; value: string };
}

export function unknownCreateTests(c: UnknownCreate): void {
  const post = { method: "POST", path: c.path };
  // A 503 answer is used up once sent; a cut one stays listed as pending, so only after a 503 does
  // the mock's list show that the second answer was never asked for (the requests seen show it for both).
  const faults = [
    { fault: "a 503", arm: () => answerOnce(c.mock.api[c.area], c.mock.seen, post, 503, c.unavailable), left: 1 },
    { fault: "a cut connection", arm: () => cutOnce(c.mock.api[c.area], c.mock.seen, post), left: undefined },
  ];
  for (const { fault, arm, left } of faults) {
    it(`on ${fault} sends the POST once, never again`, async () => {
      arm();
      arm();
      await failure(c.create());
      expect(c.mock.seen.map((s) => `${s.method} ${s.path}`)).toEqual([`POST ${c.path}`]);
      if (left !== undefined) expect(c.mock.api.agent.pendingInterceptors()).toHaveLength(left);
    });

    it(`on ${fault} says the named ${c.what} may have been created, without the ${c.credential.name}`, async () => {
      arm();
      const err = await failure(c.create());
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect(String(err)).toContain(`POST ${c.path}`);
      expect(String(err)).toContain(`${c.named} may have been created`);
      expect(errorText(err)).not.toContain(c.credential.value);
    });
  }

  it("is not what a plain 400 gives: that is an ordinary API error", async () => {
    answerOnce(c.mock.api[c.area], c.mock.seen, post, 400, c.badRequest);
    const err = await failure(c.create());
    expect(err).toBeInstanceOf(ApiError);
    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
  });
}
