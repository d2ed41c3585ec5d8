// Fixed-window rate limiting per credential, as the real services describe theirs: a window opens
// with a credential's first counted request and admits `requests` requests until it ends.

import type { RateLimit } from "../provider/serviceFacts/rateLimits";

// The limits themselves are facts the provider paces by too; the emulator's entry point exports them from here.
export { DEFAULT_RATE_LIMITS, type RateLimit } from "../provider/serviceFacts/rateLimits";

/** `remaining` and `resetSeconds` (whole, rounded up) are what the service's RateLimit-* headers state. */
type Admission =
  | { ok: true; limit?: number; remaining?: number; resetSeconds?: number }
  | { ok: false; resetSeconds: number; limit: number };

interface Window {
  startedAt: number;
  count: number;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: RateLimit | false,
    private readonly now: () => number = Date.now,
  ) {
    if (limit !== false && !(Number.isInteger(limit.requests) && limit.requests >= 1 && limit.perSeconds > 0)) {
      throw new Error("a rate limit needs a whole number of requests >= 1 and a period > 0 seconds");
    }
  }

  /** The window's length in whole seconds, rounded up (0 when there is no limit). */
  get windowSeconds(): number {
    return this.limit === false ? 0 : Math.ceil(this.limit.perSeconds);
  }

  /** Counts one request for `credential`, or refuses it. A refused request is not counted. */
  take(credential: string): Admission {
    if (this.limit === false) return { ok: true };
    const now = this.now();
    const periodMs = this.limit.perSeconds * 1000;
    let window = this.windows.get(credential);
    if (window === undefined || now - window.startedAt >= periodMs) {
      this.forgetEndedWindows(now, periodMs);
      window = { startedAt: now, count: 0 };
      this.windows.set(credential, window);
    }
    if (window.count >= this.limit.requests) {
      // Whole seconds, rounded up and at least 1, so a client that waits this long is admitted.
      return {
        ok: false,
        resetSeconds: Math.max(1, Math.ceil((window.startedAt + periodMs - now) / 1000)),
        limit: this.limit.requests,
      };
    }
    window.count += 1;
    return {
      ok: true,
      limit: this.limit.requests,
      remaining: this.limit.requests - window.count,
      resetSeconds: Math.max(1, Math.ceil((window.startedAt + periodMs - now) / 1000)),
    };
  }

  // Keeps the map from growing with credentials that stopped calling.
  private forgetEndedWindows(now: number, periodMs: number): void {
    for (const [credential, window] of this.windows) {
      if (now - window.startedAt >= periodMs) this.windows.delete(credential);
    }
  }
}
