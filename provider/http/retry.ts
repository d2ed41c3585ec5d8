// Which failed attempts are tried again, and after how long. Every request of every resource goes
// through `send` in client.ts, which asks this module; 429s, 5xx and a DELETE's 404 on a retry are
// decided here and nowhere else.

import { performance } from "node:perf_hooks";
import type { RetryPolicy } from "../runtime/runtime";

export { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_RETRY_POLICY, type RetryPolicy } from "../runtime/runtime";

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Transport failures where the request surely never reached the service, and that may pass. */
const NOT_SENT_TRANSIENT: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EAI_AGAIN",
]);

/** Our code for an answer that is not HTTP at all (undici's parser error on its first bytes). */
export const NOT_HTTP = "NOT_HTTP";

/** Failures before anything was sent that another try will not cure: bad name, bad certificate, bad request. */
function notSentPermanent(code: string): boolean {
  return (
    code === "ENOTFOUND" ||
    // The server's first bytes were not HTTP: not the service, which never read our request as one.
    code === NOT_HTTP ||
    code === "UND_ERR_INVALID_ARG" ||
    code === "UND_ERR_NOT_SUPPORTED" ||
    code === "ERR_INVALID_URL" ||
    code === "ERR_INVALID_ARG_TYPE" ||
    code.startsWith("ERR_TLS_") ||
    code.startsWith("ERR_SSL_") ||
    code.startsWith("UNABLE_TO_") ||
    code.includes("CERT")
  );
}

/** Failures after the request may have been sent, worth another try when repeating it is safe. */
const MAYBE_SENT_TRANSIENT: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ATTEMPT_TIMEOUT",
]);

export type AttemptOutcome = { kind: "status"; status: number } | { kind: "transport"; code: string };

/**
 * What to do after a failed attempt:
 * - "retry": try again (after `retryDelayMs`);
 * - "fail": report the error as it is;
 * - "outcome-unknown": a POST that may have been processed; never retried, reported in words.
 */
export type RetryDecision = "retry" | "fail" | "outcome-unknown";

/**
 * The writes whose repetition does what the first did: a PUT or PATCH sends absolute values (the
 * settings, a key's fields, an alert's whole body), a DELETE of what is gone is done. A 500 may
 * come after the change was stored; sending the same again is safe, so these are retried on it.
 */
export const IDEMPOTENT_WRITES: ReadonlySet<string> = new Set(["PUT", "PATCH", "DELETE"]);

/**
 * `readsOnConflict`: the request has a fresh read to make before it is sent again after a 409 (a
 * webhook's PUT that raced a change of its url or service: the service asks to retry with the current
 * state). A 409 is otherwise a refusal.
 */
export function retryDecision(method: string, outcome: AttemptOutcome, readsOnConflict = false): RetryDecision {
  // POST creates; repeating one whose outcome is unknown could create a duplicate.
  const repeatable = method !== "POST";
  if (outcome.kind === "status") {
    if (outcome.status === 429) return "retry"; // a rate-limited request was not processed
    if (outcome.status === 409 && method === "PUT" && readsOnConflict) return "retry";
    if (RETRYABLE_STATUSES.has(outcome.status)) return repeatable ? "retry" : "outcome-unknown";
    if (outcome.status === 500 && IDEMPOTENT_WRITES.has(method)) return "retry";
    // A server error, 500 or any other, may come after the object was stored: for a POST say so,
    // rather than a plain refusal that invites running it again.
    if (!repeatable && outcome.status >= 500) return "outcome-unknown";
    return "fail";
  }
  const code = outcome.code;
  if (NOT_SENT_TRANSIENT.has(code)) return "retry";
  if (notSentPermanent(code)) return "fail";
  if (repeatable) return MAYBE_SENT_TRANSIENT.has(code) ? "retry" : "fail";
  // A POST that failed in a way we cannot place may have reached the service: say so, never
  // a plain transport error that invites a blind re-run.
  return "outcome-unknown";
}

/**
 * Whether a failed attempt is the request's success after all: a DELETE answered 404 on a retry
 * (`attempt` counts from 1). An earlier attempt may have deleted the object before its answer was
 * lost (a 500, a cut connection), so the 404 says the work is done, not that it failed.
 */
export function doneOnRetry(method: string, attempt: number, outcome: AttemptOutcome): boolean {
  return method === "DELETE" && attempt > 1 && outcome.kind === "status" && outcome.status === 404;
}

export type HeaderLookup = (name: string) => string | undefined;

/** Seconds as a header gives them: a plain non-negative decimal number, nothing else. */
function seconds(raw: string): number | undefined {
  const text = raw.trim();
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/**
 * The wait the service asked for, in ms, from `Retry-After` (seconds or an HTTP date),
 * `X-RateLimit-Reset` (seconds; epoch seconds when it is that large) or `RateLimit-Reset` (seconds).
 * The longest wins, since every one of them must have passed. `now` is the wall clock (for dates).
 */
export function serverRequestedDelayMs(header: HeaderLookup, now: number): number | undefined {
  const waits: number[] = [];
  const retryAfter = header("retry-after");
  if (retryAfter !== undefined && retryAfter.trim() !== "") {
    const s = seconds(retryAfter);
    if (s !== undefined) waits.push(s * 1000);
    else {
      const at = Date.parse(retryAfter);
      if (Number.isFinite(at)) waits.push(at - now);
    }
  }
  for (const name of ["x-ratelimit-reset", "ratelimit-reset"]) {
    const raw = header(name);
    const s = raw === undefined ? undefined : seconds(raw);
    if (s === undefined) continue;
    // Some services send the epoch second of the reset rather than the seconds until it.
    waits.push(s > 1_000_000_000 ? s * 1000 - now : s * 1000);
  }
  if (waits.length === 0) return undefined;
  return Math.max(0, ...waits);
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1). Capped exponential backoff with
 * jitter (between half and all of the cap), or the service's own wait plus a little jitter so
 * that parallel callers do not all return at the same instant; never less than the service asked.
 */
export function retryDelayMs(
  attempt: number,
  requested: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (requested !== undefined) return requested + random() * Math.min(policy.baseDelayMs, requested * 0.1 + 50);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** A clock that never goes back (the wall clock may, and a limiter or a budget would then overrun). */
export const monotonicNow = (): number => performance.timeOrigin + performance.now();

/**
 * A retry policy's budget from its start: its attempts and its total time. The sends, a lost
 * create's chase and a delete's looks for alerts on their way out all spend theirs through this.
 */
export class RetryBudget {
  private readonly started = monotonicNow();

  constructor(private readonly policy: RetryPolicy) {}

  /** Whether one more attempt, after `made` and a wait of `delayMs`, stays within the budget. */
  allowsAnother(made: number, delayMs = 0): boolean {
    return made < this.policy.maxAttempts && monotonicNow() - this.started + delayMs <= this.policy.maxTotalMs;
  }
}
