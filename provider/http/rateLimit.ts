// Pacing per credential (a key at an origin, whatever the area: one budget per key), so a big stack
// does not spend its time in 429s. Where answers state the service's count (area A), that paces
// instead: it also sees other processes' requests.

import type { AreaConnection } from "../runtime/connection";
import { COUNTS_IN_ANSWERS, type RateLimit } from "../serviceFacts/rateLimits";
import { monotonicNow, type HeaderLookup } from "./retry";
import { runtime } from "../runtime/runtime";

/** How late after our write a request may arrive (docs/design/http-client.md). */
export function arrivalMarginMs(windowMs: number): number {
  return windowMs * 0.1;
}

/** Slack for whole-millisecond timestamps and a clock 0.1% off ours. */
export function clockSlackMs(windowMs: number): number {
  return 1 + windowMs * 0.001;
}

/** Wait past a stated reset: a late reset timer refuses a send for a whole window. */
export function resetMarginMs(windowMs: number): number {
  return Math.min(1000, windowMs * 0.1);
}

/** How often a waiter looks whether the asking send was answered. */
export const ASKING_POLL_MS = 20;

/** The service's own count of a credential's requests, as one answer states it. */
export interface ServiceCount {
  /** Requests the service still admits in its window, this one counted. */
  readonly remaining: number;
  /** How long until that window resets, in ms. */
  readonly resetMs: number;
}

/** Whole non-negative seconds or requests, as the headers give them. */
function headerNumber(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  return text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/** The count an answer's `RateLimit-*` headers state. */
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
  /** Once its attempt ended: the latest the service can have counted it. */
  countedFrom?: number;
  /** Let through alone to learn the service's count (see `serviceAdmits`). */
  asking?: boolean;
  /** Not ours: counted at creation for another process's send (`reservedAtStart`). */
  reserved?: boolean;
}

/** The service's current window as its answers stated it. */
interface ServiceWindow {
  /** When it resets at the latest (our clock, margin included). */
  readonly endsAt: number;
  /** Sends it still admits: the least any answer allowed, less those let through since. */
  allowance: number;
}

/** A send as the limiter counts it (for tests). */
export interface SendTimes {
  readonly grantedAt: number | undefined;
  readonly writtenAt: number | undefined;
  /** The latest the service can have counted it, once its attempt ended. */
  readonly countedFrom: number | undefined;
}

/**
 * A sliding-window log: at most `requests` sends in any `perSeconds`, so in any fixed window too;
 * first come, first served. A send counts from the latest time it can have arrived.
 */
export class SlidingWindowLimiter {
  private readonly windowMs: number;
  private readonly marginMs: number;
  private readonly slackMs: number;
  private readonly sends: Send[] = [];
  private nextTicket = 1;
  private pausedUntil = 0;
  /** Whether answers state the service's count; undefined while the first send asks. */
  private counting: boolean | undefined;
  private serviceWindow: ServiceWindow | undefined;
  private readonly resetMarginMs: number;

  /**
   * `countsInAnswers`: the first send goes alone to hear the service's count. `reservedAtStart`: sends
   * counted as made at creation, so its first window admits that many fewer (another process's, unseen).
   */
  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = monotonicNow,
    private readonly sleep: (ms: number) => Promise<void> = realSleep,
    countsInAnswers = false,
    reservedAtStart = 0,
  ) {
    if (!(Number.isInteger(limit.requests) && limit.requests >= 1 && limit.perSeconds > 0)) {
      throw new RangeError("a rate limit needs a whole number of requests >= 1 and a period > 0 seconds");
    }
    this.windowMs = limit.perSeconds * 1000;
    this.marginMs = arrivalMarginMs(this.windowMs);
    this.slackMs = clockSlackMs(this.windowMs);
    this.resetMarginMs = resetMarginMs(this.windowMs);
    this.counting = countsInAnswers ? undefined : false;
    const createdAt = this.now();
    for (let i = 0; i < reservedAtStart; i++)
      this.sends.push({
        ticket: this.nextTicket++,
        at: createdAt,
        granted: true,
        countedFrom: createdAt,
        reserved: true,
      });
  }

  /** Resolves when the caller may send, with a ticket for `written` and `settle`. */
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
      // A 429 meanwhile or a later count moves the slot back, keeping its place.
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

  /** The ticket's request reached the socket: the service may count it from now. */
  written(ticket: number): void {
    const send = this.find(ticket);
    if (send !== undefined && send.writtenAt === undefined && send.countedFrom === undefined)
      send.writtenAt = this.now();
  }

  /** The ticket's attempt ended; `answered` unless the connection failed or timed out. */
  settle(ticket: number, answered = true, count?: ServiceCount): void {
    const send = this.find(ticket);
    if (send === undefined || send.countedFrom !== undefined) return;
    const now = this.now();
    if (answered) this.hear(send, count, now);
    if (send.writtenAt !== undefined) {
      // It arrived before its answer, and within the margin after we wrote it.
      send.countedFrom = answered ? Math.min(now, send.writtenAt + this.marginMs) : send.writtenAt + this.marginMs;
    } else {
      // No write seen (a mock): the answer bounds it. Neither written nor answered: it keeps its slot.
      send.countedFrom = answered ? now : send.at;
    }
  }

  /** The service said "not before": hold the credential's callers until then. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.max(0, ms));
  }

  /** When a pause ends (0 when never paused). */
  get resumesAt(): number {
    return this.pausedUntil;
  }

  /** Until when the service's spent window holds callers back (0 when it does not). */
  get serviceHoldsUntil(): number {
    const w = this.serviceWindow;
    return this.counting === true && w !== undefined && w.allowance <= 0 && this.now() < w.endsAt ? w.endsAt : 0;
  }

  /**
   * Takes an answer's count, less the sends still in flight; the least of a window stands. An answer
   * heard after the window to a send from within it may tell of either: the next send asks.
   */
  private hear(send: Send, count: ServiceCount | undefined, now: number): void {
    if (count === undefined) {
      // The asking send got no count: this service (or path) states none.
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

  /** "asking" while the count is unknown: the earliest waiter goes alone, and its answer tells it. */
  private serviceAdmits(send: Send): "yes" | "no" | "asking" {
    if (this.counting === false) return "yes";
    const ahead = this.sends.filter((s) => !s.granted && s.ticket < send.ticket).length;
    const w = this.serviceWindow;
    if (this.counting === true && w !== undefined && this.now() < w.endsAt) return w.allowance > ahead ? "yes" : "no";
    const inFlight = this.sends.some((s) => s.granted && s.countedFrom === undefined);
    return ahead === 0 && !inFlight ? "asking" : "no";
  }

  /** When a held-back waiter looks again: the window's reset, or soon while one send asks. */
  private serviceRetryAt(send: Send, now: number): number {
    if (this.serviceAdmits(send) !== "no") return now;
    const w = this.serviceWindow;
    if (this.counting === true && w !== undefined && now < w.endsAt) return w.endsAt;
    return now + ASKING_POLL_MS;
  }

  /** The sends let through that still count, oldest first, the reserved one aside (for tests). */
  recent(): SendTimes[] {
    return this.sends
      .filter((s) => s.granted && s.reserved !== true)
      .map((s) => ({ grantedAt: s.at, writtenAt: s.writtenAt, countedFrom: s.countedFrom }));
  }

  /**
   * When the service counted a send, at the latest (`bound`) or earliest (`hope`, to plan by). It
   * counts on arrival: after our write, before the answer; unwritten, any time.
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

  /** A window after the N-th latest earlier send, or as the service's count allows. */
  private plan(send: Send): number {
    const n = this.limit.requests;
    const now = this.now();
    // Not `=== true`: while one send asks, the others poll rather than plan by our count.
    if (this.counting !== false) return Math.max(now, this.pausedUntil, this.serviceRetryAt(send, now));
    const counts = this.sends
      .filter((s) => s !== send && (s.granted || s.ticket < send.ticket))
      .map((s) => this.countOf(s, now, "hope"))
      .sort((a, b) => b - a);
    const after = counts.length >= n ? (counts[n - 1] as number) + this.windowMs + this.slackMs : now;
    return Math.max(now, this.pausedUntil, after, this.serviceRetryAt(send, now));
  }

  /** Whether our count has room now; a stated service count overrides it. */
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

/** A credential's stop: every request fails at once until a wait too long to sit out is over. */
export class CredentialBlock {
  private current: { until: number; make: (ref: { method: string; path: string }) => Error } | undefined;
  private readonly wakers = new Set<() => void>();

  constructor(private readonly now: () => number = monotonicNow) {}

  /** Until `until`, every waiting and new request fails with `make(ref)`. */
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

  /** Sleeps at least `ms` (timers fire early), unless a block comes first: then throws it. */
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

/** The process-wide block of a credential, shared by every copy of the package. */
export function blockFor(conn: AreaConnection): CredentialBlock {
  const blocks = runtime().credentialBlocks;
  // A second copy's class is another, so no instanceof.
  let block = blocks.get(conn.credentialId) as CredentialBlock | undefined;
  if (!block) {
    block = new CredentialBlock();
    blocks.set(conn.credentialId, block);
  }
  return block;
}

/**
 * Sends a fresh process's limiter counts as made in its first window: the credential check of the
 * preview process `pulumi up` ran just before (provider/http/credentials.ts), which this process cannot
 * see. None under a limit of one request, where it would hold every process's first send a window.
 * Cost and why: docs/design/retries-and-pacing.md.
 */
export function reservedAtStart(limit: RateLimit): number {
  return limit.requests >= 2 ? 1 : 0;
}

/** The process-wide limiter of a credential, or undefined when pacing is off. */
export function limiterFor(conn: AreaConnection): SlidingWindowLimiter | undefined {
  if (!conn.rateLimit) return undefined;
  const limiters = runtime().limiters;
  const key = `${conn.credentialId}:${conn.rateLimit.requests}/${conn.rateLimit.perSeconds}`;
  let limiter = limiters.get(key) as SlidingWindowLimiter | undefined;
  if (!limiter) {
    limiter = new SlidingWindowLimiter(
      conn.rateLimit,
      monotonicNow,
      realSleep,
      COUNTS_IN_ANSWERS[conn.area],
      reservedAtStart(conn.rateLimit),
    );
    limiters.set(key, limiter);
  }
  return limiter;
}
