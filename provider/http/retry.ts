// Which failed attempts are tried again, and after how long. Every request of every resource goes
// through `send` in client.ts, which asks this module; 429s are retried here and nowhere else.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** No retry is started once this much time has passed since the first attempt. */
  readonly maxTotalMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  maxTotalMs: 120_000,
  baseDelayMs: 250,
  maxDelayMs: 15_000,
};

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Transport failures where the request surely never reached the service. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

/** Transport failures worth another try for a request that may be repeated safely. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  ...NOT_SENT_CODES,
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

export type AttemptOutcome = { kind: "status"; status: number } | { kind: "transport"; code: string };

/**
 * What to do after a failed attempt:
 * - "retry": try again (after `retryDelayMs`);
 * - "fail": report the error as it is;
 * - "outcome-unknown": a POST that may have been processed; never retried, reported in words.
 */
export type RetryDecision = "retry" | "fail" | "outcome-unknown";

export function decide(method: string, outcome: AttemptOutcome): RetryDecision {
  // POST creates; repeating one whose outcome is unknown could create a duplicate.
  const repeatable = method !== "POST";
  if (outcome.kind === "status") {
    if (outcome.status === 429) return "retry"; // a rate-limited request was not processed
    if (!RETRYABLE_STATUSES.has(outcome.status)) return "fail";
    return repeatable ? "retry" : "outcome-unknown";
  }
  if (NOT_SENT_CODES.has(outcome.code)) return "retry";
  if (!TRANSIENT_CODES.has(outcome.code)) return "fail";
  return repeatable ? "retry" : "outcome-unknown";
}

export type HeaderLookup = (name: string) => string | undefined;

/**
 * The wait the service asked for, in ms, from `Retry-After` (seconds or an HTTP date),
 * `X-RateLimit-Reset` (seconds; epoch seconds when it is that large) or `RateLimit-Reset` (seconds).
 * The longest wins, since every one of them must have passed.
 */
export function serverRequestedDelayMs(header: HeaderLookup, now: number): number | undefined {
  const waits: number[] = [];
  const retryAfter = header("retry-after");
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) waits.push(seconds * 1000);
    else {
      const at = Date.parse(retryAfter);
      if (Number.isFinite(at)) waits.push(at - now);
    }
  }
  for (const name of ["x-ratelimit-reset", "ratelimit-reset"]) {
    const raw = header(name);
    if (raw === undefined) continue;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds)) continue;
    // Some services send the epoch second of the reset rather than the seconds until it.
    waits.push(seconds > 1_000_000_000 ? seconds * 1000 - now : seconds * 1000);
  }
  if (waits.length === 0) return undefined;
  return Math.max(0, ...waits);
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1). Capped exponential backoff with full
 * jitter, or the service's own wait plus a little jitter so that parallel callers do not all
 * return at the same instant.
 */
export function retryDelayMs(attempt: number, requested: number | undefined, policy: RetryPolicy, random: () => number = Math.random): number {
  if (requested !== undefined) return requested + random() * Math.min(policy.baseDelayMs, requested * 0.1 + 50);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}
