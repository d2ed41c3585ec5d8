// Client-side pacing. The services limit each credential (area B: 10 requests per 10 s), and the
// engine runs many resource operations at once in one provider host; without pacing a large stack
// spends its time in 429s and backoff. One limiter per credential and area, shared by every
// resource in the host process (kept in runtime.ts). It counts this process's requests; where the
// service's answers state its own count (area A's), it paces by that instead, which knows the
// requests of other processes and earlier runs on the same key.

import type { AreaConnection } from "../runtime/connection";
import { COUNTS_IN_ANSWERS, type RateLimit } from "../serviceFacts/rateLimits";
import { monotonicNow, type HeaderLookup } from "./retry";
import { runtime } from "../runtime/runtime";

/**
 * How long after we wrote a request the service may still count it: a tenth of the window, wide
 * enough for a lost packet and a busy machine (docs/design/http-client.md). Only an answer slower
 * than this counts from the margin; a faster one counts from itself.
 */
export function arrivalMarginMs(windowMs: number): number {
  return windowMs * 0.1;
}

/**
 * Slack for the two clocks: the service's timestamps may be whole milliseconds, and its clock may
 * run up to 0.1% apart from ours (NTP slews by at most 0.05%) over a window.
 */
export function clockSlackMs(windowMs: number): number {
  return 1 + windowMs * 0.001;
}

/**
 * How long after the reset an answer stated the next send of an exhausted window waits: the service
 * resets on a timer that may fire late (HyperDX's express-rate-limit: a `setInterval`), and a send
 * that still falls in the old window is refused with a wait of a whole window. A tenth of our own
 * window, at most 1 s; `RateLimit-Reset` is rounded up to whole seconds, which adds up to 1 s more.
 */
export function resetMarginMs(windowMs: number): number {
  return Math.min(1000, windowMs * 0.1);
}

/** While the service's count is unknown, how often a waiter looks whether the send that asks has been answered. */
export const ASKING_POLL_MS = 20;

/** The service's own count of a credential's requests, as one answer states it. */
export interface ServiceCount {
  /** How many more requests the service admits in its current window, this one counted. */
  readonly remaining: number;
  /** How long until that window resets, in ms. */
  readonly resetMs: number;
}

/** Whole non-negative seconds or requests, as the headers give them. */
function headerNumber(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  return text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/**
 * The count an answer states in `RateLimit-Remaining` and `RateLimit-Reset` (seconds; an epoch
 * second when it is that large), or undefined when it states none.
 */
export function serviceCountIn(header: HeaderLookup, nowWall: number): ServiceCount | undefined {
  const remaining = headerNumber(header("ratelimit-remaining"));
  const reset = headerNumber(header("ratelimit-reset"));
  if (remaining === undefined || reset === undefined) return undefined;
  const resetMs = reset > 1_000_000_000 ? Math.max(0, reset * 1000 - nowWall) : reset * 1000;
  return { remaining: Math.floor(remaining), resetMs };
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the limiter knows of one send. */
interface Send {
  readonly ticket: number;
  /** When it may go; once let through, when it was. */
  at: number;
  /** Let through by acquire: it is ours to count now. */
  granted: boolean;
  writtenAt?: number;
  /** Once its attempt ended: the latest time the service can have counted it, for good. */
  countedFrom?: number;
  /** Let through alone to learn the service's count (see `serviceAdmits`). */
  asking?: boolean;
}

/** The service's current window as its answers stated it. */
interface ServiceWindow {
  /** When it resets at the latest (our clock, margin included). */
  readonly endsAt: number;
  /** How many more sends it admits: the least any answer allowed, less the sends let through since. */
  allowance: number;
}

/** A send as the limiter counts it (for tests). */
export interface SendTimes {
  readonly grantedAt: number | undefined;
  readonly writtenAt: number | undefined;
  /** The latest time the service can have counted it, once its attempt ended. */
  readonly countedFrom: number | undefined;
}

/**
 * A sliding-window log: never more than `requests` sends counted in any span of `perSeconds`. Any
 * fixed window the service counts in is such a span, so a paced caller sees no 429 from its own
 * traffic. Slots are reserved synchronously in call order, so waiters are served first come, first
 * served.
 *
 * The service counts a request when it arrives. We cannot see that moment, so each send counts
 * from the latest time it can have arrived (see `countedFrom`), and the next send of a window goes
 * no earlier than a full window after it: then no two sends N apart can arrive within one window,
 * whatever the service's window edges are.
 */
export class SlidingWindowLimiter {
  private readonly windowMs: number;
  private readonly marginMs: number;
  private readonly slackMs: number;
  private readonly sends: Send[] = [];
  private nextTicket = 1;
  private pausedUntil = 0;
  /**
   * Whether the service's answers state its count: true once one did, false once the send that
   * asked was answered without it; undefined (expected, not heard yet) lets one send ask first.
   */
  private counting: boolean | undefined;
  private serviceWindow: ServiceWindow | undefined;
  private readonly resetMarginMs: number;

  /** `countsInAnswers`: the service is expected to state its count, so the first send goes alone to hear it. */
  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = monotonicNow,
    private readonly sleep: (ms: number) => Promise<void> = realSleep,
    countsInAnswers = false,
  ) {
    if (!(Number.isInteger(limit.requests) && limit.requests >= 1 && limit.perSeconds > 0)) {
      throw new RangeError("a rate limit needs a whole number of requests >= 1 and a period > 0 seconds");
    }
    this.windowMs = limit.perSeconds * 1000;
    this.marginMs = arrivalMarginMs(this.windowMs);
    this.slackMs = clockSlackMs(this.windowMs);
    this.resetMarginMs = resetMarginMs(this.windowMs);
    this.counting = countsInAnswers ? undefined : false;
  }

  /**
   * Resolves when the caller may send, with the ticket of its send: the caller says `written`
   * when the request went onto the socket and `settle` when its attempt ended. `options.sleep`
   * replaces the limiter's own (a caller's sleep may throw to stop waiting; the slot is then given
   * back); `options.onWait` hears how long the caller is about to wait each time its slot is planned.
   */
  async acquire(
    options: { sleep?: (ms: number) => Promise<void>; onWait?: (ms: number) => void } = {},
  ): Promise<number> {
    const sleep = options.sleep ?? this.sleep;
    const send = this.reserve();
    for (;;) {
      try {
        if (send.at - this.now() > 0) options.onWait?.(send.at - this.now());
        // Timers may fire a little early; a slot is never used before its time.
        for (let wait = send.at - this.now(); wait > 0; wait = send.at - this.now()) await sleep(Math.ceil(wait));
      } catch (err) {
        this.forget(send);
        throw err;
      }
      // The slot was planned on the hope that the sends before it would be answered at once; a 429
      // seen meanwhile (another process shares the credential) or a send that counts later than
      // hoped (written late, answered late) moves it back, keeping its place in the queue.
      const service = this.serviceAdmits(send);
      if (this.now() >= this.pausedUntil && this.windowHasRoom(send) && service !== "no") {
        send.granted = true;
        send.at = this.now();
        if (service === "asking") send.asking = true;
        else if (this.counting === true && this.serviceWindow !== undefined) this.serviceWindow.allowance -= 1;
        return send.ticket;
      }
      send.at = this.plan(send);
    }
  }

  /** The request of this ticket was written to the socket now: the service sees it from now on. */
  written(ticket: number): void {
    const send = this.find(ticket);
    if (send !== undefined && send.writtenAt === undefined && send.countedFrom === undefined)
      send.writtenAt = this.now();
  }

  /**
   * The attempt of this ticket ended now: `answered` when an answer (any status) came back, not
   * when the connection failed or the attempt timed out, with the service's count when the answer
   * stated it. From then on the send counts from a fixed time (see `countedFrom`).
   */
  settle(ticket: number, answered = true, count?: ServiceCount): void {
    const send = this.find(ticket);
    if (send === undefined || send.countedFrom !== undefined) return;
    const now = this.now();
    if (answered) this.hear(send, count, now);
    if (send.writtenAt !== undefined) {
      // It arrived before its answer, and within the margin after we wrote it.
      send.countedFrom = answered ? Math.min(now, send.writtenAt + this.marginMs) : send.writtenAt + this.marginMs;
    } else {
      // Answered with no write seen (a dispatcher that does not say, a mock): the answer is the
      // one bound we have. Never written and no answer: it never reached the service, but it
      // keeps the slot it was given, from when it was tried.
      send.countedFrom = answered ? now : send.at;
    }
  }

  /** The service said "not before"; hold every caller of this credential until then. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.max(0, ms));
  }

  /** When the limiter lets callers through again after a pause (0 when never paused). */
  get resumesAt(): number {
    return this.pausedUntil;
  }

  /** Until when the service's own count holds callers back (0 when it does not): its window is spent. */
  get serviceHoldsUntil(): number {
    const w = this.serviceWindow;
    return this.counting === true && w !== undefined && w.allowance <= 0 && this.now() < w.endsAt ? w.endsAt : 0;
  }

  /**
   * What an answer said of the service's count. The service counted this send and every send it
   * took before; any other send still in flight may be counted after it, so the answer allows
   * `remaining` less those. The least any answer of the window allowed stands (less the sends let
   * through since). An answer to a send let through before the known window ended, heard after it
   * ended, may tell of either window and is not used: the next send asks.
   */
  private hear(send: Send, count: ServiceCount | undefined, now: number): void {
    if (count === undefined) {
      // The send that asked was answered without a count: this service (or this path) states none.
      if (send.asking === true || this.counting === undefined) this.counting = false;
      return;
    }
    this.counting = true;
    const inFlight = this.sends.filter((s) => s !== send && s.granted && s.countedFrom === undefined).length;
    const allowance = count.remaining - inFlight;
    const known = this.serviceWindow;
    if (known !== undefined && send.at < known.endsAt) {
      if (now < known.endsAt) known.allowance = Math.min(known.allowance, allowance);
      return;
    }
    this.serviceWindow = { endsAt: now + count.resetMs + this.resetMarginMs, allowance };
  }

  /**
   * Whether the service's own count lets `send` go: "yes" (it does not state one, or its window
   * has room for this send after the earlier waiters), "no", or "asking": its count is unknown (not
   * heard yet, or the window it told of has ended), so this send goes alone, the earliest waiting,
   * with nothing else in flight, and its answer tells the count.
   */
  private serviceAdmits(send: Send): "yes" | "no" | "asking" {
    if (this.counting === false) return "yes";
    const ahead = this.sends.filter((s) => !s.granted && s.ticket < send.ticket).length;
    const w = this.serviceWindow;
    if (this.counting === true && w !== undefined && this.now() < w.endsAt) return w.allowance > ahead ? "yes" : "no";
    const inFlight = this.sends.some((s) => s.granted && s.countedFrom === undefined);
    return ahead === 0 && !inFlight ? "asking" : "no";
  }

  /** When a waiter held back by the service's count may look again: its window's reset, or soon while one send asks. */
  private serviceRetryAt(send: Send, now: number): number {
    if (this.serviceAdmits(send) !== "no") return now;
    const w = this.serviceWindow;
    if (this.counting === true && w !== undefined && now < w.endsAt) return w.endsAt;
    return now + ASKING_POLL_MS;
  }

  /** The sends let through that still count within a window, oldest first (for tests). */
  recent(): SendTimes[] {
    return this.sends
      .filter((s) => s.granted)
      .map((s) => ({ grantedAt: s.at, writtenAt: s.writtenAt, countedFrom: s.countedFrom }));
  }

  /**
   * The latest time the service can have counted a send (`bound`), or the earliest it may yet turn
   * out to be (`hope`, to plan a waiter's slot by; the slot is checked against the bound when it
   * comes). A send that ended counts from its fixed time (see `settle`). One in flight that was
   * written counts from its answer if that comes first, else from the write plus the margin: the
   * service counts a request on arrival, which is after we wrote it and before it answers; a new
   * connection's set-up comes before the write, so it delays neither. One let through but not
   * written yet may still arrive any time. A waiting one counts from its slot.
   */
  private countOf(send: Send, now: number, as: "bound" | "hope"): number {
    if (send.countedFrom !== undefined) return send.countedFrom;
    if (!send.granted) return send.at;
    if (send.writtenAt !== undefined) {
      const latest = send.writtenAt + this.marginMs;
      return as === "bound" ? latest : Math.min(Math.max(now, send.writtenAt), latest);
    }
    return as === "bound" ? Number.POSITIVE_INFINITY : Math.max(now, send.at);
  }

  private reserve(): Send {
    this.forgetOld(this.now());
    const send: Send = { ticket: this.nextTicket++, at: 0, granted: false };
    send.at = this.plan(send);
    this.sends.push(send);
    return send;
  }

  /**
   * When `send` may hope to go: a window after the N-th latest of the sends let through or queued
   * before it; where the service states its count (or is expected to), when that allows it instead.
   */
  private plan(send: Send): number {
    const n = this.limit.requests;
    const now = this.now();
    // Not `=== true`: while one send asks, the others look again soon rather than plan by our count.
    if (this.counting !== false) return Math.max(now, this.pausedUntil, this.serviceRetryAt(send, now));
    const counts = this.sends
      .filter((s) => s !== send && (s.granted || s.ticket < send.ticket))
      .map((s) => this.countOf(s, now, "hope"))
      .sort((a, b) => b - a);
    const after = counts.length >= n ? (counts[n - 1] as number) + this.windowMs + this.slackMs : now;
    return Math.max(now, this.pausedUntil, after, this.serviceRetryAt(send, now));
  }

  /**
   * Whether fewer than N other sends let through can have been counted within one window before now.
   * Where the service states its count, that is the count, and ours is not asked.
   */
  private windowHasRoom(own: Send): boolean {
    if (this.counting === true) return true;
    const now = this.now();
    const since = now - this.windowMs - this.slackMs;
    let counted = 0;
    for (const s of this.sends) if (s !== own && s.granted && this.countOf(s, now, "bound") > since) counted++;
    return counted < this.limit.requests;
  }

  /** Ended sends that no longer count in any window from now on. */
  private forgetOld(now: number): void {
    const since = now - this.windowMs - this.slackMs;
    for (let i = this.sends.length - 1; i >= 0; i--) {
      const counted = (this.sends[i] as Send).countedFrom;
      if (counted !== undefined && counted <= since) this.sends.splice(i, 1);
    }
  }

  private find(ticket: number): Send | undefined {
    return this.sends.find((s) => s.ticket === ticket);
  }

  private forget(send: Send): void {
    const i = this.sends.indexOf(send);
    if (i >= 0) this.sends.splice(i, 1);
  }
}

/**
 * What every request of one credential shares beyond pacing, whether pacing is on or off: a stop.
 * When the service asks for a wait longer than the retry budget, nothing of that credential should
 * sit paused for minutes: `blockUntil` wakes every request waiting (in the limiter's queue or before a
 * retry) and fails it, and fails new ones at once, until the service's wait is over.
 */
export class CredentialBlock {
  private current: { until: number; make: (ref: { method: string; path: string }) => Error } | undefined;
  private readonly wakers = new Set<() => void>();

  constructor(private readonly now: () => number = monotonicNow) {}

  /** Until `until` (this module's clock), every waiting and new request fails with `make(ref)`. */
  blockUntil(until: number, make: (ref: { method: string; path: string }) => Error): void {
    if (this.current === undefined || until > this.current.until) this.current = { until, make };
    for (const wake of [...this.wakers]) wake();
  }

  /** Throws the block's error while one stands; returns when none does. */
  throwIfBlocked(ref: { method: string; path: string }): void {
    const current = this.current;
    if (current === undefined) return;
    if (this.now() >= current.until) {
      this.current = undefined;
      return;
    }
    throw current.make(ref);
  }

  /** Sleeps at least `ms` (a timer may fire a little early), unless a block comes first: then throws it at once. */
  async wait(ms: number, ref: { method: string; path: string }): Promise<void> {
    this.throwIfBlocked(ref);
    const until = this.now() + ms;
    for (let left = ms; left > 0; left = until - this.now()) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.ceil(left));
        this.wakers.add(done);
      });
      this.throwIfBlocked(ref);
    }
  }

  /** How many requests are waiting on this block now (for tests). */
  get waiting(): number {
    return this.wakers.size;
  }
}

/** The process-wide block of a credential (the runtime's, so every copy of the package shares it). */
export function blockFor(conn: AreaConnection): CredentialBlock {
  const blocks = runtime().credentialBlocks;
  // Only this module puts blocks there; a second copy's class is another, so no instanceof.
  let block = blocks.get(conn.credentialId) as CredentialBlock | undefined;
  if (!block) {
    block = new CredentialBlock();
    blocks.set(conn.credentialId, block);
  }
  return block;
}

/**
 * The process-wide limiter of a credential (the runtime's, so every copy of the package shares it), or undefined when
 * pacing is off.
 */
export function limiterFor(conn: AreaConnection): SlidingWindowLimiter | undefined {
  if (!conn.rateLimit) return undefined;
  const limiters = runtime().limiters;
  const key = `${conn.credentialId}:${conn.rateLimit.requests}/${conn.rateLimit.perSeconds}`;
  let limiter = limiters.get(key) as SlidingWindowLimiter | undefined;
  if (!limiter) {
    limiter = new SlidingWindowLimiter(conn.rateLimit, monotonicNow, realSleep, COUNTS_IN_ANSWERS[conn.area]);
    limiters.set(key, limiter);
  }
  return limiter;
}
