// Client-side pacing: one limiter per credential (key and origin, whatever the area), shared by every send in the process,
// that never lets more than N requests be counted in any span of W, serves callers in order, and
// holds everyone back after the service answers 429 (another process may share the key). A send
// counts from the latest time the service can have counted it: its answer, or its write to the
// socket plus the arrival margin, whichever is earlier.

import { performance } from "node:perf_hooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectionFor, credentialFingerprint, type AreaConnection } from "../../provider/runtime/connection";
import { send } from "../../provider/http/client";
import {
  SlidingWindowLimiter,
  arrivalMarginMs,
  blockFor,
  clockSlackMs,
  limiterFor,
  reservedAtStart,
} from "../../provider/http/rateLimit";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { mockApiPerTest, requestId } from "../support/mockApi";
import { VirtualTime, busiestWindow, grants } from "../support/windows";

describe("the sliding-window limiter", () => {
  it("never lets more than N sends out in any window of W", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 5, perSeconds: 1 }, clock.now, clock.sleep);
    const at = await grants(limiter, clock, 40);
    expect(busiestWindow(at, 1_000)).toBe(5);
  });

  it("lets the first N through at once", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 5, perSeconds: 1 }, clock.now, clock.sleep);
    const at = await grants(limiter, clock, 7);
    expect(at.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(at[5]).toBeGreaterThanOrEqual(1_000);
  });

  it("serves waiters first come, first served", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 3, perSeconds: 1 }, clock.now, clock.sleep);
    const at = await grants(limiter, clock, 12);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it("lets 50 sends through a 10-per-1-s limit within 1.10x the 4 s the limit imposes", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 10, perSeconds: 1 }, clock.now, clock.sleep);
    const at = await grants(limiter, clock, 50);
    expect(busiestWindow(at, 1_000)).toBe(10);
    expect(Math.max(...at)).toBeGreaterThanOrEqual(4_000);
    expect(Math.max(...at)).toBeLessThanOrEqual(4_400);
  });

  it("holds every caller, queued ones included, until a pause ends", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 2, perSeconds: 1 }, clock.now, clock.sleep);
    const first = await grants(limiter, clock, 2); // the window is now full
    expect(first).toEqual([0, 0]);
    const queued = Array.from({ length: 4 }, () =>
      limiter.acquire().then((ticket) => {
        limiter.written(ticket);
        limiter.settle(ticket);
        return clock.now();
      }),
    );
    limiter.pauseFor(5_000); // a 429 said "not before 5 s"
    const all = Promise.all(queued);
    await clock.runUntil(all);
    const at = await all;
    expect(Math.min(...at)).toBeGreaterThanOrEqual(5_000);
    expect(busiestWindow([...first, ...at], 1_000)).toBeLessThanOrEqual(2);
  });

  /** A 1-per-1-s limiter whose first send went at 0; `then` plays what happens to it, and the time the second send is let through is answered. */
  async function secondSendAfter(then: (first: number, clock: VirtualTime, limiter: SlidingWindowLimiter) => void) {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 1, perSeconds: 1 }, clock.now, clock.sleep);
    const first = await limiter.acquire();
    const second = limiter.acquire().then(() => clock.now());
    setImmediate(() => then(first, clock, limiter));
    await clock.runUntil(second);
    return { at: await second, window: 1_000, margin: arrivalMarginMs(1_000), slack: clockSlackMs(1_000) };
  }

  it("counts a send answered within the margin from its answer, with no margin added", async () => {
    const { at, window, slack } = await secondSendAfter((first, clock, limiter) => {
      clock.t = 5;
      limiter.written(first);
      clock.t = 20; // answered 15 ms after the write: it arrived no later than that
      limiter.settle(first);
    });
    expect(at).toBe(20 + window + slack);
  });

  it("counts a send answered later than the margin from its write plus the margin", async () => {
    const { at, window, margin, slack } = await secondSendAfter((first, clock, limiter) => {
      clock.t = 5;
      limiter.written(first);
      clock.t = 300; // a slow answer: the service still counted it on arrival, within the margin of the write
      limiter.settle(first);
    });
    expect(at).toBe(5 + margin + window + slack);
  });

  it("counts a send written but not yet answered from its write plus the margin", async () => {
    const { at, window, margin, slack } = await secondSendAfter((first, clock, limiter) => {
      clock.t = 5;
      limiter.written(first); // and no answer before the second send goes
    });
    expect(at).toBe(5 + margin + window + slack);
  });

  it("holds the next send while a send let through is not written yet (a slow new connection)", async () => {
    const { at, window, margin, slack } = await secondSendAfter((first, clock, limiter) => {
      clock.sleep(1_500).then(
        () => limiter.written(first),
        () => {},
      ); // connected and written at 1.5 s
    });
    expect(at).toBe(1_500 + margin + window + slack);
  });

  it("counts a send that failed before it was written from when it was let through", async () => {
    const { at, window, slack } = await secondSendAfter((first, clock, limiter) => {
      clock.t = 400; // the connection was refused: nothing reached the service
      limiter.settle(first, false);
    });
    expect(at).toBe(0 + window + slack);
  });

  it("counts a send answered with no write heard from its answer", async () => {
    const { at, window, slack } = await secondSendAfter((first, clock, limiter) => {
      clock.t = 300; // a dispatcher that does not say when it wrote
      limiter.settle(first);
    });
    expect(at).toBe(300 + window + slack);
  });

  it("counts a send written but never answered (timed out, cut) from its write plus the margin", async () => {
    const { at, window, margin, slack } = await secondSendAfter((first, clock, limiter) => {
      clock.t = 5;
      limiter.written(first);
      clock.t = 900;
      limiter.settle(first, false);
    });
    expect(at).toBe(5 + margin + window + slack);
  });

  it("keeps a re-planned waiter ahead of those queued after it", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter({ requests: 1, perSeconds: 1 }, clock.now, clock.sleep);
    const first = await limiter.acquire();
    const order: string[] = [];
    const second = limiter.acquire().then((t) => {
      order.push("second");
      limiter.written(t);
      limiter.settle(t);
    });
    const third = limiter.acquire().then((t) => {
      order.push("third");
      limiter.written(t);
      limiter.settle(t);
    });
    setImmediate(() => {
      clock.t = 5;
      limiter.written(first);
      clock.t = 300; // later than the second send hoped: it is planned again
      limiter.settle(first);
    });
    await clock.runUntil(Promise.all([second, third]));
    expect(order).toEqual(["second", "third"]);
  });

  it("refuses a limit that is not a whole number of requests per positive period", () => {
    expect(() => new SlidingWindowLimiter({ requests: 0, perSeconds: 1 })).toThrow(RangeError);
    expect(() => new SlidingWindowLimiter({ requests: 1.5, perSeconds: 1 })).toThrow(RangeError);
    expect(() => new SlidingWindowLimiter({ requests: 1, perSeconds: 0 })).toThrow(RangeError);
  });
});

describe("a fresh process's limiter, one send of its first window reserved", () => {
  // pulumi up previews and updates in two provider processes: the preview's credential check spends a
  // request of the window the update starts in, which the update's own count cannot see.
  const LIMIT = { requests: 10, perSeconds: 10 };
  const CHECK_BEFORE = -100; // the preview process's check, 100 ms before the update's limiter exists

  it("keeps another process's send just before its start and its own sends within N in any window", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter(LIMIT, clock.now, clock.sleep, false, reservedAtStart(LIMIT));
    const at = await grants(limiter, clock, 25);
    expect(busiestWindow([CHECK_BEFORE, ...at], 10_000)).toBe(10);
    expect(at.filter((t) => t === 0)).toHaveLength(9);
  });

  it("would let that send and its own make N + 1 in a window without the reservation", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter(LIMIT, clock.now, clock.sleep);
    const at = await grants(limiter, clock, 25);
    expect(busiestWindow([CHECK_BEFORE, ...at], 10_000)).toBe(11);
  });

  it("costs a window only where a process's sends are a multiple of N: 10 take 10 s instead of 0, 25 take 20 s either way", async () => {
    const last = async (reserved: number, count: number): Promise<number> => {
      const clock = new VirtualTime();
      return Math.max(
        ...(await grants(new SlidingWindowLimiter(LIMIT, clock.now, clock.sleep, false, reserved), clock, count)),
      );
    };
    expect(await last(0, 10)).toBe(0);
    expect(await last(1, 10)).toBeGreaterThanOrEqual(10_000);
    expect(await last(1, 10)).toBeLessThan(10_100);
    expect(Math.floor((await last(0, 25)) / 10_000)).toBe(2);
    expect(Math.floor((await last(1, 25)) / 10_000)).toBe(2);
  });

  it("is one send under the published limits, none under a limit of one request (it would hold every first send)", () => {
    expect(reservedAtStart({ requests: 10, perSeconds: 10 })).toBe(1);
    expect(reservedAtStart({ requests: 100, perSeconds: 60 })).toBe(1);
    expect(reservedAtStart({ requests: 1, perSeconds: 10 })).toBe(0);
  });

  it("drops the reserved send once its window is over", async () => {
    const clock = new VirtualTime();
    const limiter = new SlidingWindowLimiter(LIMIT, clock.now, clock.sleep, false, 1);
    expect(limiter.recent()).toEqual([]); // not a send of ours
    clock.t = 10_100;
    const at = await grants(limiter, clock, 10);
    expect(at.every((t) => t === 10_100)).toBe(true);
  });
});

describe("limiters in the process", () => {
  mockApiPerTest();

  it("are one per credential: two connections with the same key share one", () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "10/10";
    expect(limiterFor(connectionFor("cloud"))).toBe(limiterFor(connectionFor("cloud")));
  });

  it("are separate for different keys", () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "10/10";
    const a = limiterFor(connectionFor("cloud"));
    process.env.ALERTPIPE_CLOUD_KEY_ID = "another-key";
    expect(limiterFor(connectionFor("cloud"))).not.toBe(a);
  });

  it("are separate for the alerting token and the cloud key", () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "10/10";
    process.env.ALERTPIPE_ALERTING_RATE_LIMIT = "10/10";
    expect(limiterFor(connectionFor("alerting"))).not.toBe(limiterFor(connectionFor("cloud")));
  });

  it("are one per key whatever the area: a managed ClickStack connection with the Cloud key shares its limiter and its block", () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "10/10";
    process.env.ALERTPIPE_CLOUD_URL = "https://api.clickhouse.cloud/v1";
    const cloud = connectionFor("cloud");
    // What a managed connection is: the alerting area, the Cloud's origin and key, its own base path.
    const baseUrl = "https://api.clickhouse.cloud/v1/organizations/o/services/s/clickstack";
    const managed: AreaConnection = {
      ...cloud,
      area: "alerting",
      baseUrl,
      credentialId: credentialFingerprint(baseUrl, cloud.authorization),
    };
    expect(limiterFor(managed)).toBe(limiterFor(cloud));
    expect(blockFor(managed)).toBe(blockFor(cloud));
  });

  it("spend one budget: 10 sends of the cloud area and 10 of another area on the same key take two windows, not one", async () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "10/1";
    const cloud = connectionFor("cloud");
    const other: AreaConnection = { ...cloud, area: "alerting" };
    const limiters = [limiterFor(cloud), limiterFor(other)];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const limiter = limiters[i % 2];
        const ticket = await limiter?.acquire();
        if (ticket !== undefined) limiter?.settle(ticket);
      }),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it("default to the published limits", () => {
    delete process.env.ALERTPIPE_CLOUD_RATE_LIMIT;
    delete process.env.ALERTPIPE_ALERTING_RATE_LIMIT;
    expect(limiterFor(connectionFor("cloud"))?.limit).toEqual({ requests: 10, perSeconds: 10 });
    expect(limiterFor(connectionFor("alerting"))?.limit).toEqual({ requests: 100, perSeconds: 60 });
  });

  it("are none where the limit is 'off'", () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "off";
    expect(limiterFor(connectionFor("cloud"))).toBeUndefined();
  });
});

describe("sends through the limiter", () => {
  const PATH = "/v1/organizations/org-1/services/svc-1/pipes/pipe-1/settings";
  const mock = mockApiPerTest();
  let arrivals: number[];
  let limited: number;

  beforeEach(() => {
    arrivals = [];
    limited = 0;
  });
  afterEach(() => {
    resetRuntime();
  });

  /** A service that counts like the real one: a fixed window opened by the first request. */
  function fixedWindowService(requests: number, windowMs: number, times: number) {
    let opened = -Infinity;
    let count = 0;
    mock.api.cloud
      .intercept({ path: PATH, method: "PUT" })
      .reply(() => {
        const now = performance.now();
        if (now - opened >= windowMs) {
          opened = now;
          count = 0;
        }
        if (count >= requests) {
          limited++;
          return {
            statusCode: 429,
            data: JSON.stringify({ status: 429, error: "rate limited", requestId: requestId() }),
            responseOptions: { headers: { "x-ratelimit-reset": String((opened + windowMs - now) / 1000) } },
          };
        }
        count++;
        arrivals.push(now);
        return {
          statusCode: 200,
          data: JSON.stringify({ status: 200, requestId: requestId(), result: {} }),
          responseOptions: { headers: { "content-type": "application/json" } },
        };
      })
      .times(times);
  }

  it("share one limiter across concurrent sends of one credential: no window of W holds more than N", async () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "4/0.25";
    fixedWindowService(Number.POSITIVE_INFINITY, 1, 12); // limits nothing, records arrivals
    await Promise.all(
      Array.from({ length: 12 }, () => send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} })),
    );
    expect(arrivals).toHaveLength(12);
    expect(busiestWindow(arrivals, 250)).toBeLessThanOrEqual(4);
  });

  it("keep a service that counts in fixed windows from ever answering 429", async () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "5/0.2";
    fixedWindowService(5, 200, 40);
    await Promise.all(
      Array.from({ length: 15 }, () => send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} })),
    );
    expect(limited).toBe(0);
    expect(arrivals).toHaveLength(15);
  });

  it("after a 429 with a reset header hold the other sends of that credential until the reset", async () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "100/1";
    let limitedAt = 0;
    mock.api.cloud.intercept({ path: "/first", method: "PUT" }).reply(() => {
      limitedAt = performance.now();
      return {
        statusCode: 429,
        data: JSON.stringify({ status: 429, error: "rate limited" }),
        responseOptions: { headers: { "ratelimit-reset": "0.2" } },
      };
    });
    mock.api.cloud.intercept({ path: "/first", method: "PUT" }).reply(200, { result: {} });
    let otherAt = 0;
    mock.api.cloud.intercept({ path: "/other", method: "PUT" }).reply(() => {
      otherAt = performance.now();
      return { statusCode: 200, data: JSON.stringify({ result: {} }) };
    });
    const conn = connectionFor("cloud");
    const first = send(conn, { method: "PUT", path: "/first", body: {} });
    while (!limiterFor(conn)?.resumesAt) await new Promise((resolve) => setImmediate(resolve)); // the client has read the 429
    await send(connectionFor("cloud"), { method: "PUT", path: "/other", body: {} });
    await first;
    expect(otherAt - limitedAt).toBeGreaterThanOrEqual(200);
  });

  it("after a 429 without a reset header still hold the credential for the backoff", async () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "100/1";
    mock.api.cloud.intercept({ path: PATH, method: "PUT" }).reply(429, { status: 429, error: "rate limited" });
    mock.api.cloud.intercept({ path: PATH, method: "PUT" }).reply(200, { result: {} });
    const conn = connectionFor("cloud");
    const before = performance.timeOrigin + performance.now();
    await send(conn, { method: "PUT", path: PATH, body: {} });
    expect(limiterFor(conn)?.resumesAt).toBeGreaterThan(before);
  });

  it("count the time budget from the first send, so waiting in the queue does not use up the retries", async () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "1/0.15";
    useRuntime({ retryPolicy: { maxAttempts: 3, maxTotalMs: 100, baseDelayMs: 1, maxDelayMs: 2 } });
    mock.api.cloud.intercept({ path: "/a", method: "PUT" }).reply(200, { result: {} });
    mock.api.cloud.intercept({ path: "/b", method: "PUT" }).reply(503, { status: 503, error: "busy" });
    mock.api.cloud.intercept({ path: "/b", method: "PUT" }).reply(200, { result: {} });
    const conn = connectionFor("cloud");
    // b queues behind a for 150 ms, longer than the whole budget of 100 ms, and is still retried.
    const [, b] = await Promise.all([
      send(conn, { method: "PUT", path: "/a", body: {} }),
      send(conn, { method: "PUT", path: "/b", body: {} }),
    ]);
    expect(b.status).toBe(200);
  });
});
