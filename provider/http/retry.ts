// Which failed attempts are tried again, and when: decided here alone.

import { performance } from "node:perf_hooks";
import type { RetryPolicy } from "../runtime/runtime";

export { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_RETRY_POLICY, type RetryPolicy } from "../runtime/runtime";

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Transient failures before the request reached the service. */
const NOT_SENT_TRANSIENT: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EAI_AGAIN",
]);

/** Our code for an answer that is not HTTP at all: undici's parser error has none. */
export const NOT_HTTP = "NOT_HTTP";

/** Failures before anything was sent that another try will not cure. */
function notSentPermanent(code: string): boolean {
  return (
    code === "ENOTFOUND" ||
    // Not HTTP: not the service, which never read our request.
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

/** Failures after the request may have been sent: retried when repeating is safe. */
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

/** "outcome-unknown": a POST that may have been processed, never retried. */
export type RetryDecision = "retry" | "fail" | "outcome-unknown";

/** Writes safe to repeat, so retried on a 500 even if the change was stored. */
export const IDEMPOTENT_WRITES: ReadonlySet<string> = new Set(["PUT", "PATCH", "DELETE"]);

/** `readsOnConflict`: a 409 is retried after a fresh read, not refused. */
export function retryDecision(method: string, outcome: AttemptOutcome, readsOnConflict = false): RetryDecision {
  // POST creates; repeating one whose outcome is unknown could create a duplicate.
  const repeatable = method !== "POST";
  if (outcome.kind === "status") {
    if (outcome.status === 429) return "retry"; // a rate-limited request was not processed
    if (outcome.status === 409 && method === "PUT" && readsOnConflict) return "retry";
    if (RETRYABLE_STATUSES.has(outcome.status)) return repeatable ? "retry" : "outcome-unknown";
    if (outcome.status === 500 && IDEMPOTENT_WRITES.has(method)) return "retry";
    // A 5xx may follow the store: for a POST say so, not invite a re-run.
    if (!repeatable && outcome.status >= 500) return "outcome-unknown";
    return "fail";
  }
  const code = outcome.code;
  if (NOT_SENT_TRANSIENT.has(code)) return "retry";
  if (notSentPermanent(code)) return "fail";
  if (repeatable) return MAYBE_SENT_TRANSIENT.has(code) ? "retry" : "fail";
  // A POST that failed in a way we cannot place may have landed.
  return "outcome-unknown";
}

/** A retried DELETE's 404 is its success: an earlier attempt may have deleted, its answer lost. */
export function doneOnRetry(method: string, attempt: number, outcome: AttemptOutcome): boolean {
  return method === "DELETE" && attempt > 1 && outcome.kind === "status" && outcome.status === 404;
}

export type HeaderLookup = (name: string) => string | undefined;

/** A header's seconds: a plain non-negative decimal, nothing else. */
function seconds(raw: string): number | undefined {
  const text = raw.trim();
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/** The wait the service asked for, in ms: the longest its headers say. */
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
    // Some services send the reset's epoch second, not the seconds until it.
    waits.push(s > 1_000_000_000 ? s * 1000 - now : s * 1000);
  }
  if (waits.length === 0) return undefined;
  return Math.max(0, ...waits);
}

/** Jittered backoff before attempt `attempt + 1`, never below the service's wait. */
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

/** Never goes back, unlike the wall clock: limiters and budgets would overrun. */
export const monotonicNow = (): number => performance.timeOrigin + performance.now();

/** A retry policy's attempts and total time, counted from its start. */
export class RetryBudget {
  private readonly started = monotonicNow();

  constructor(private readonly policy: RetryPolicy) {}

  /** Whether one more attempt after `made` and `delayMs` stays within the budget. */
  allowsAnother(made: number, delayMs = 0): boolean {
    return made < this.policy.maxAttempts && monotonicNow() - this.started + delayMs <= this.policy.maxTotalMs;
  }
}
