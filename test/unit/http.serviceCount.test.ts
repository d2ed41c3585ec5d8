// Pacing by the service's own count: where its answers state `RateLimit-Remaining` and
// `RateLimit-Reset` (area A's, HyperDX's, on every answer), the limiter paces by them as well as by
// its own count, so requests made on the same key by another process or an earlier run are known.
// Decisions on virtual time against a service that counts in fixed windows as HyperDX's does
// (express-rate-limit's memory store: one window for every key, ended by a timer); then the wiring
// through `send`.

import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { connectionFor } from "../../provider/runtime/connection";
import { send } from "../../provider/http/client";
import {
  ASKING_POLL_MS,
  SlidingWindowLimiter,
  resetMarginMs,
  serviceCountIn,
  type ServiceCount,
} from "../../provider/http/rateLimit";
import { mockApiPerTest } from "../support/mockApi";
import { VirtualTime, grants } from "../support/windows";

/** A service counting `limit` requests per fixed window of `windowMs` for one key, its window opened at `openedAt`. */
class FixedWindowService {
  refused = 0;
  private used: number;
  private openedAt: number;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    opened: { at: number; used: number },
    private readonly now: () => number,
  ) {
    this.openedAt = opened.at;
    this.used = opened.used;
  }

  /** Counts a request arriving now; answers whether it was admitted and the count its answer states. */
  take(): { admitted: boolean; count: ServiceCount } {
    while (this.now() >= this.openedAt + this.windowMs) {
      this.openedAt += this.windowMs;
      this.used = 0;
    }
    this.used += 1;
    const admitted = this.used <= this.limit;
    if (!admitted) this.refused += 1;
    const resetMs = Math.ceil((this.openedAt + this.windowMs - this.now()) / 1000) * 1000;
    return { admitted, count: { remaining: Math.max(0, this.limit - this.used), resetMs } };
  }
}

const A_MINUTE = { requests: 100, perSeconds: 60 };

describe("pacing by the service's count", () => {
  it("with 60 of 100 spent 5 s before, lets 105 sends through with no refusal in about the window's remaining 55 s", async () => {
    const clock = new VirtualTime();
    const service = new FixedWindowService(100, 60_000, { at: -5_000, used: 60 }, clock.now);
    const limiter = new SlidingWindowLimiter(A_MINUTE, clock.now, clock.sleep, true);
    const at = await grants(limiter, clock, 105, () => service.take().count);
    expect(service.refused).toBe(0);
    expect(at.filter((t) => t < 55_000)).toHaveLength(40);
    // The rest wait for the window's end, rounded up to whole seconds, and the margin after it; one asks, then all go.
    expect(Math.min(...at.filter((t) => t >= 55_000))).toBeGreaterThanOrEqual(55_000 + resetMarginMs(60_000));
    expect(Math.max(...at)).toBeLessThanOrEqual(56_000 + resetMarginMs(60_000) + ASKING_POLL_MS);
  });

  it("is what keeps that run from refusals: counting only its own sends, the same run is refused", async () => {
    const clock = new VirtualTime();
    const service = new FixedWindowService(100, 60_000, { at: -5_000, used: 60 }, clock.now);
    const limiter = new SlidingWindowLimiter(A_MINUTE, clock.now, clock.sleep, false);
    await grants(limiter, clock, 105, () => void service.take());
    expect(service.refused).toBeGreaterThan(0);
  });

  it("lets the first send go alone, and the others only once its answer states the count", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter(A_MINUTE, clock.now, clock.sleep, true);
    const first = await limiter.acquire();
    let secondAt: number | undefined;
    const second = limiter.acquire().then(() => (secondAt = clock.now()));
    setImmediate(() => {
      clock.t = 5_000; // no answer for 5 s: the second still waits
      expect(secondAt).toBeUndefined();
      limiter.written(first);
      limiter.settle(first, true, { remaining: 50, resetMs: 30_000 });
    });
    await clock.runUntil(second);
    expect(secondAt).toBeGreaterThanOrEqual(5_000);
    expect(secondAt).toBeLessThanOrEqual(5_000 + ASKING_POLL_MS);
  });

  it("paces by its own count alone once the first answer states none", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 10, perSeconds: 1 }, clock.now, clock.sleep, true);
    const first = await limiter.acquire();
    limiter.settle(first, true, undefined);
    const at = await Promise.all(Array.from({ length: 5 }, () => limiter.acquire().then(() => clock.now())));
    expect(at).toEqual([0, 0, 0, 0, 0]);
  });

  it("holds every send when an answer says none remain, until the reset it states and the margin", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter(A_MINUTE, clock.now, clock.sleep, true);
    const first = await limiter.acquire();
    limiter.settle(first, true, { remaining: 0, resetMs: 30_000 });
    const next = limiter.acquire().then(() => clock.now());
    await clock.runUntil(next);
    expect(await next).toBe(30_000 + resetMarginMs(60_000));
  });

  it("counts the sends still in flight against what a later answer allows", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter(A_MINUTE, clock.now, clock.sleep, true);
    const asking = await limiter.acquire();
    limiter.settle(asking, true, { remaining: 10, resetMs: 30_000 });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    const c = await limiter.acquire();
    // Another process spent 5 meanwhile: the answer to a allows 4, and b and c, in flight, may come after it.
    limiter.settle(a, true, { remaining: 4, resetMs: 30_000 });
    const later = { remaining: 99, resetMs: 60_000 };
    const at = Array.from({ length: 5 }, () =>
      limiter.acquire().then((ticket) => {
        limiter.settle(ticket, true, later);
        return clock.now();
      }),
    );
    setImmediate(() => {
      clock.t = 1_000; // b and c are answered only now
      limiter.settle(b, true, { remaining: 3, resetMs: 29_000 });
      limiter.settle(c, true, { remaining: 2, resetMs: 29_000 });
    });
    const all = Promise.all(at);
    await clock.runUntil(all);
    expect((await all).filter((t) => t < 30_000)).toEqual([0, 0]);
  });
});

describe("the service's count in an answer", () => {
  const lookup = (headers: Record<string, string>) => (name: string) => headers[name];

  it("is read from RateLimit-Remaining and RateLimit-Reset in seconds", () => {
    expect(serviceCountIn(lookup({ "ratelimit-remaining": "40", "ratelimit-reset": "58" }), 0)).toEqual({
      remaining: 40,
      resetMs: 58_000,
    });
  });

  it("reads a reset that large as an epoch second", () => {
    const now = Date.UTC(2026, 10, 24, 7, 0, 0);
    const count = serviceCountIn(
      lookup({ "ratelimit-remaining": "3", "ratelimit-reset": String(now / 1000 + 12) }),
      now,
    );
    expect(count).toEqual({ remaining: 3, resetMs: 12_000 });
  });

  it("is none when either header is missing or not a number", () => {
    expect(serviceCountIn(lookup({ "ratelimit-reset": "5" }), 0)).toBeUndefined();
    expect(serviceCountIn(lookup({ "ratelimit-remaining": "5" }), 0)).toBeUndefined();
    expect(serviceCountIn(lookup({ "ratelimit-remaining": "many", "ratelimit-reset": "5" }), 0)).toBeUndefined();
  });
});

describe("sends of area A", () => {
  const mock = mockApiPerTest();

  it("are paced by the RateLimit-* headers of the answers: with 7 of 10 spent elsewhere, 12 draw no 429", async () => {
    process.env.ALERTPIPE_ALERTING_RATE_LIMIT = "10/1";
    const service = new FixedWindowService(10, 1_000, { at: performance.now(), used: 7 }, () => performance.now());
    mock.api.alerting
      .intercept({ path: "/api/v2/alerts", method: "GET" })
      .reply(() => {
        const { admitted, count } = service.take();
        return {
          statusCode: admitted ? 200 : 429,
          data: JSON.stringify(admitted ? { data: [] } : { message: "Too many requests, please try again later." }),
          responseOptions: {
            headers: {
              "content-type": "application/json",
              "ratelimit-limit": "10",
              "ratelimit-remaining": String(count.remaining),
              "ratelimit-reset": String(count.resetMs / 1000),
            },
          },
        };
      })
      .times(40);
    await Promise.all(
      Array.from({ length: 12 }, () => send(connectionFor("alerting"), { method: "GET", path: "/api/v2/alerts" })),
    );
    expect(service.refused).toBe(0);
  });
});
