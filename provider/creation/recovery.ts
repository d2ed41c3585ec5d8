// What a create does when the answer to its POST is lost (the connection cut after sending, a
// timeout, a 5xx): the service may or may not have made the object. Running again blindly makes a
// second one; stopping leaves one nobody manages. So look for it, on what was sent, and decide.
// Each resource says how to list and match (its behaviour.ts); the steps and their order live here.

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
  /** Sends the POST and resolves with what it made. */
  readonly post: () => Promise<T>;
  /**
   * Lists the service's objects and keeps those that match what was sent by the POST sent at `sentAt` (our clock, ms).
   */
  readonly look: (sentAt: number) => Promise<readonly C[]>;
  /** Words for the notice, e.g. `the alert "cpu high"`. */
  readonly description: string;
}

/** The object found is the create's: it is recorded. */
interface AdoptingSteps<T, C extends Candidate> extends StepsBase<T, C> {
  /** Makes the create's result from the one object found. */
  readonly adopt: (found: C) => Promise<T>;
}

/**
 * The object found cannot be used (a key whose secret was in the lost answer): it is removed and the POST sent again.
 */
interface DiscardingSteps<T, C extends Candidate> extends StepsBase<T, C> {
  /** Removes the one object found; a failure is the create's. */
  readonly discard: (found: C) => Promise<void>;
  /** Why it is removed, for the notice, e.g. "but its secret was in the lost answer, so nobody can use it". */
  readonly discarding: string;
  /** What sending the POST again does, for the notice, e.g. "making the key again". */
  readonly remaking: string;
}

export type LostAnswerSteps<T, C extends Candidate> = AdoptingSteps<T, C> | DiscardingSteps<T, C>;

/**
 * How far the service's clock may be behind ours. A candidate must have been created after the
 * send; but its creation time is the service's clock and the send time ours, and an object made by
 * the lost POST must never be passed over because the two clocks disagree. Five minutes covers an
 * unsynchronised machine by a wide margin, while an identical object made long before (a
 * hand-made copy, a stray of an earlier run) is still told apart.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Whether an object the service lists may have been made by a POST sent at `sentAt` (our clock,
 * ms): its creation time, when it has a readable one, is no earlier than the send less the skew.
 * An object without one cannot be ruled out on time, so it stays a candidate.
 */
export function createdAfterSend(createdAt: unknown, sentAt: number): boolean {
  if (typeof createdAt !== "string") return true;
  const at = Date.parse(createdAt);
  return Number.isNaN(at) || at >= sentAt - CLOCK_SKEW_MS;
}

/**
 * Sends the POST; when its outcome is unknown, looks for what it may have made (on what was sent,
 * created after that POST's own send). Exactly one match: adopted, or, when it cannot be used,
 * discarded and the POST sent again. Several: fails naming each. None, twice, a couple of seconds
 * apart: the POST is sent again. Every POST sent again whose answer is lost too is chased the same
 * way, so the create ends with the one object it made or fails surely having made none that is
 * left, within the retry budget (the policy's attempts and total time, counted in POSTs from the
 * first send); once that is spent, the last lost answer is reported, saying what the looks found.
 * A 2xx without an id is not a lost answer and is reported as it is.
 */
export async function createRecovering<T, C extends Candidate>(steps: LostAnswerSteps<T, C>): Promise<T> {
  const policy = runtime().retryPolicy;
  const budget = new RetryBudget(policy);
  for (let posts = 1; ; posts++) {
    // Taken before each POST: what a lost one made was created after it.
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

/**
 * The one object the lost POST made, undefined when two looks a couple of seconds apart find none; several fail naming
 * each.
 */
async function lookTwice<C extends Candidate>(
  lost: OutcomeUnknownError,
  steps: StepsBase<unknown, C>,
  sentAt: number,
): Promise<C | undefined> {
  for (const look of ["first", "second"] as const) {
    // The wait before the second look is the runtime's (timings.secondLookMs), so tests shorten it there.
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

/** The last lost answer, once the budget for sending again is spent, with what the looks found. */
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

/**
 * A 2xx whose body has no id we can read (createdWithoutId): the answer was not lost, the object
 * surely exists and the service would not say which it is. Looking would guess; the error says so.
 */
function answered(err: OutcomeUnknownError): boolean {
  return err.status !== undefined && err.status >= 200 && err.status < 300;
}

/** One look: the matches, or the lost answer's own error (saying the object may exist) with why the look failed. */
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
 * A create answered 2xx, but without an id we can read: the object surely exists and Pulumi cannot
 * record it. Said as an unknown outcome, whose advice (find it, delete it) is the way out; a plain
 * error would invite a re-run that makes a second one.
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
    {
      cause,
      status: res.status,
      requestId: cause.requestId,
    },
  );
}

/** The new object's id in a create's answer, read by `schema`; an answer without a usable one is createdWithoutId. */
export function createdId(res: ApiResponse, what: string, schema: z.ZodType<{ data: { id: string } }>): string {
  try {
    return decode(schema, res).data.id;
  } catch (err) {
    if (err instanceof UnexpectedResponseError) throw createdWithoutId(res, what, err);
    throw err;
  }
}
