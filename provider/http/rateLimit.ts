// Client-side pacing. The services limit each credential (area B: 10 requests per 10 s), and the
// engine runs many resource operations at once in one provider host; without pacing a large stack
// spends its time in 429s and backoff. One limiter per credential and area, shared by every
// resource in the host process (kept in runtime.ts).

import { performance } from "node:perf_hooks";
import type { AreaConnection } from "../runtime/connection";
import type { RateLimit } from "../serviceFacts/rateLimits";
import { runtime } from "../runtime/runtime";

/** Slack per window, because our clock and the service's window edges are not the same. */
function marginMs(windowMs: number): number {
  return Math.min(250, 15 + windowMs * 0.02);
}

/** A clock that never goes back (the wall clock may, and the limiter would then overrun). */
export const monotonicNow = (): number => performance.timeOrigin + performance.now();

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A sliding-window log: never more than `requests` sends in any span of `perSeconds`. Any fixed
 * window the service counts in is such a span, so a paced caller sees no 429 from its own traffic.
 * Slots are reserved synchronously in call order, so waiters are served first come, first served.
 */
export class SlidingWindowLimiter {
  private readonly windowMs: number;
  private readonly reserved: number[] = [];
  private pausedUntil = 0;

  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = monotonicNow,
    private readonly sleep: (ms: number) => Promise<void> = realSleep,
  ) {
    if (!(Number.isInteger(limit.requests) && limit.requests >= 1 && limit.perSeconds > 0)) {
      throw new RangeError("a rate limit needs a whole number of requests >= 1 and a period > 0 seconds");
    }
    this.windowMs = limit.perSeconds * 1000;
  }

  /**
   * Resolves when the caller may send, with the slot it holds; the send is counted from then until
   * `settle(slot)` moves it to when the answer came. `options.sleep` replaces the limiter's own
   * (a caller's sleep may throw to stop waiting; the slot is then given back); `options.onWait`
   * hears how long the caller is about to wait each time its slot is planned.
   */
  async acquire(
    options: { sleep?: (ms: number) => Promise<void>; onWait?: (ms: number) => void } = {},
  ): Promise<number> {
    const sleep = options.sleep ?? this.sleep;
    for (;;) {
      const at = this.reserve();
      try {
        if (at - this.now() > 0) options.onWait?.(at - this.now());
        // Timers may fire a little early; a slot is never used before its time.
        for (let wait = at - this.now(); wait > 0; wait = at - this.now()) await sleep(Math.ceil(wait));
      } catch (err) {
        this.release(at);
        throw err;
      }
      // A 429 seen meanwhile (another process shares the credential) moves everyone back, and so
      // does an earlier send answered later than its slot said (see settle): then reserve again.
      if (this.now() >= this.pausedUntil && this.windowHasRoom(at)) return at;
      this.release(at);
    }
  }

  /**
   * The request in this slot was answered (or failed) now. The service opened its window when the
   * request arrived, which may be well after we sent it (a new connection, a busy host); it surely
   * arrived before the answer. Counting the slot from now keeps the next send of the window clear
   * of that edge, whatever the delay. Seen on the real engine: counted from the send alone, two
   * requests paced exactly at a 1/1 s limit drew a 429 when the first one's connection was slow.
   */
  settle(slot: number): void {
    const i = this.reserved.lastIndexOf(slot);
    if (i < 0) return;
    this.reserved.splice(i, 1);
    const settled = Math.max(slot, this.now());
    // Kept sorted: reserve() reads the n-th latest slot.
    let j = this.reserved.length;
    while (j > 0 && (this.reserved[j - 1] as number) > settled) j--;
    this.reserved.splice(j, 0, settled);
  }

  /** The service said "not before"; hold every caller of this credential until then. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.max(0, ms));
  }

  /** When the limiter lets callers through again after a pause (0 when never paused). */
  get resumesAt(): number {
    return this.pausedUntil;
  }

  private reserve(): number {
    const n = this.limit.requests;
    let at = Math.max(this.now(), this.pausedUntil);
    if (this.reserved.length >= n) {
      const nthLast = this.reserved[this.reserved.length - n] as number;
      at = Math.max(at, nthLast + this.windowMs + marginMs(this.windowMs));
    }
    this.reserved.push(at);
    // Only the last n reservations ever matter.
    if (this.reserved.length > n * 2) this.reserved.splice(0, this.reserved.length - n);
    return at;
  }

  /** Whether fewer than N other sends were counted within one window before now. */
  private windowHasRoom(own: number): boolean {
    const now = this.now();
    const since = now - this.windowMs - marginMs(this.windowMs);
    let counted = 0;
    let skippedOwn = false;
    for (const t of this.reserved) {
      if (!skippedOwn && t === own) {
        skippedOwn = true;
        continue;
      }
      if (t > since && t <= now) counted++;
    }
    return counted < this.limit.requests;
  }

  private release(at: number): void {
    const i = this.reserved.lastIndexOf(at);
    if (i >= 0) this.reserved.splice(i, 1);
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
  let block = blocks.get(conn.credentialId);
  if (!block) {
    block = new CredentialBlock();
    blocks.set(conn.credentialId, block);
  }
  return block;
}

/** The process-wide limiter of a credential (the runtime's, so every copy of the package shares it), or undefined when pacing is off. */
export function limiterFor(conn: AreaConnection): SlidingWindowLimiter | undefined {
  if (!conn.rateLimit) return undefined;
  const limiters = runtime().limiters;
  const key = `${conn.credentialId}:${conn.rateLimit.requests}/${conn.rateLimit.perSeconds}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new SlidingWindowLimiter(conn.rateLimit);
    limiters.set(key, limiter);
  }
  return limiter;
}
