// A POST's answer lost (cut, timeout, 5xx): the object may exist. Sending again blindly makes a
// second; stopping leaves one unmanaged. So look for it by what was sent, then decide.

import {
  AmbiguousCreateError,
  HttpError,
  OutcomeUnknownError,
  UnexpectedResponseError,
  type RequestRef,
} from "../errors";
import { decode, type ApiResponse } from "../http/client";
import { RetryBudget } from "../http/retry";
import type { z } from "../protocol/zod";
import { notify } from "../runtime/notices";
import { runtime } from "../runtime/runtime";

export { listedId } from "../protocol/properties";

/** An object on the service that the lost POST may have made. */
export interface Candidate {
  readonly id: string;
}

interface StepsBase<T, C extends Candidate> {
  readonly post: () => Promise<T>;
  /** Objects matching what was sent by the POST sent at `sentAt` (our clock). */
  readonly look: (sentAt: number) => Promise<readonly C[]>;
  /** Words for the notice, e.g. `the alert "cpu high"`. */
  readonly description: string;
}

interface AdoptingSteps<T, C extends Candidate> extends StepsBase<T, C> {
  readonly adopt: (found: C) => Promise<T>;
}

/** The object found cannot be used (its secret was in the lost answer): removed, and POST again. */
interface DiscardingSteps<T, C extends Candidate> extends StepsBase<T, C> {
  /** A failure is the create's. */
  readonly discard: (found: C) => Promise<void>;
  /** For the notice. */
  readonly discarding: string;
  /** For the notice. */
  readonly remaking: string;
}

export type LostAnswerSteps<T, C extends Candidate> = AdoptingSteps<T, C> | DiscardingSteps<T, C>;

/**
 * How far the service's clock may lag ours: the lost POST's object must never be passed over for it,
 * while an identical one made long before (a hand-made copy) is still told apart.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** One without a readable creation time cannot be ruled out on time. */
export function createdAfterSend(createdAt: unknown, sentAt: number): boolean {
  if (typeof createdAt !== "string") return true;
  const at = Date.parse(createdAt);
  return Number.isNaN(at) || at >= sentAt - CLOCK_SKEW_MS;
}

/**
 * After a lost answer: one match is adopted (or discarded and POSTed again), several fail naming each,
 * none in two looks sends the POST again. So a create ends with the one object it made, or fails
 * having left none, within the retry budget. A 2xx without an id is no lost answer.
 */
export async function createRecovering<T, C extends Candidate>(steps: LostAnswerSteps<T, C>): Promise<T> {
  const policy = runtime().retryPolicy;
  const budget = new RetryBudget(policy);
  for (let posts = 1; ; posts++) {
    // Before each POST: what a lost one made was created after it.
    const sentAt = Date.now();
    let lost: OutcomeUnknownError;
    try {
      return await steps.post();
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError) || answered(err)) throw err;
      lost = err;
    }
    const only = await lookTwice(lost, steps, sentAt);
    const spent = !budget.allowsAnother(posts);
    if (only !== undefined && "adopt" in steps) {
      notify(
        `pulumi-alertpipe: ${lost.method} ${lost.path} lost its answer (${lost.reason}); found ${steps.description} it made (id ${only.id}) and recorded it.`,
      );
      return steps.adopt(only);
    }
    if (only !== undefined && "discard" in steps) {
      notify(
        `pulumi-alertpipe: ${lost.method} ${lost.path} lost its answer (${lost.reason}); found ${steps.description} it made (id ${only.id}) ${steps.discarding}: ` +
          `deleting it${spent ? "" : ` and ${steps.remaking}`}.`,
      );
      await steps.discard(only);
      if (spent)
        throw budgetSpent(lost, posts, `the one it made (id ${only.id}) was deleted, since nobody could use it`);
      continue;
    }
    if (spent) throw budgetSpent(lost, posts, "no object it made could be found");
    notify(
      `pulumi-alertpipe: ${lost.method} ${lost.path} lost its answer (${lost.reason}) and made nothing that could be found; sending it again.`,
    );
  }
}

/** Undefined when two looks find none; the second waits, as a service may store after it answers. */
async function lookTwice<C extends Candidate>(
  lost: OutcomeUnknownError,
  steps: StepsBase<unknown, C>,
  sentAt: number,
): Promise<C | undefined> {
  for (const look of ["first", "second"] as const) {
    // The runtime's wait, so tests shorten it.
    if (look === "second") await sleep(runtime().timings.secondLookMs);
    const found = await lookOnce(lost, steps, sentAt);
    if (found.length > 1)
      throw new AmbiguousCreateError(
        lost,
        found.map((c) => c.id),
      );
    if (found[0] !== undefined) return found[0];
  }
  return undefined;
}

/** Once the budget is spent: the last lost answer, with what the looks found. */
function budgetSpent(lost: OutcomeUnknownError, posts: number, found: string): OutcomeUnknownError {
  return new OutcomeUnknownError(
    lost,
    lost.what,
    `${lost.reason}; sent ${posts} times, each answer lost, the retry budget is spent, and ${found}`,
    {
      cause: lost,
      ...HttpError.answerOf(lost),
    },
  );
}

/** The object surely exists but the service would not say which: looking would guess. */
function answered(err: OutcomeUnknownError): boolean {
  return err.status !== undefined && err.status >= 200 && err.status < 300;
}

/** A failed look throws the lost answer's error (the object may exist), with why. */
async function lookOnce<C extends Candidate>(
  lost: OutcomeUnknownError,
  steps: StepsBase<unknown, C>,
  sentAt: number,
): Promise<readonly C[]> {
  try {
    return await steps.look(sentAt);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new OutcomeUnknownError(lost, lost.what, `${lost.reason}; looking for what it made failed too (${why})`, {
      cause: err,
      ...HttpError.answerOf(lost),
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A 2xx without a readable id: Pulumi cannot record the object. An unknown outcome, whose advice is
 * the way out; a plain error would invite a re-run that makes a second one.
 */
export function createdWithoutId(
  res: RequestRef & { status: number },
  what: string,
  cause: UnexpectedResponseError,
): OutcomeUnknownError {
  return new OutcomeUnknownError(
    res,
    what,
    `the service answered ${res.status} without the new object's id (${cause.problem})`,
    { cause, status: res.status, requestId: cause.requestId },
  );
}

/** Without a usable id: createdWithoutId. */
export function createdId(res: ApiResponse, what: string, schema: z.ZodType<{ data: { id: string } }>): string {
  try {
    return decode(schema, res).data.id;
  } catch (err) {
    if (err instanceof UnexpectedResponseError) throw createdWithoutId(res, what, err);
    throw err;
  }
}
