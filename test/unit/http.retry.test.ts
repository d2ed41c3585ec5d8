// When the HTTP layer tries again, how long it waits, and when it stops: 429/502/503/504 are
// retried with backoff, and 500 for the idempotent writes (PUT, PATCH, DELETE); the service's own "wait this long" is honoured; attempts and total time
// are bounded; a POST is never repeated when it may already have created something.

import { performance } from "node:perf_hooks";
import { beforeEach, describe, expect, it } from "vitest";
import { connectionFor } from "../../provider/runtime/connection";
import { send } from "../../provider/http/client";
import { useRuntime } from "../../provider/runtime/runtime";
import { ApiError, OutcomeUnknownError, RateLimitWaitError } from "../../provider/errors";
import {
  RetryBudget,
  retryDecision,
  retryDelayMs,
  serverRequestedDelayMs,
  DEFAULT_RETRY_POLICY,
} from "../../provider/http/retry";
import { CANARY, errorText, mockApiPerTest, requestId } from "../support/mockApi";
import { failure } from "../support/failures";

const PATH = "/v1/organizations/org-1/services/svc-1/pipes/pipe-1/settings";
const KEYS = "/v1/organizations/org-1/keys";

const mock = mockApiPerTest();
/** Arrival times (performance.now) of every request the fake service saw, per "METHOD path". */
let arrivals: Map<string, number[]>;
/** The same, by the wall clock (Date.now), for waits given as an HTTP date. */
let wallArrivals: number[];

beforeEach(() => {
  arrivals = new Map();
  wallArrivals = [];
});

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The fake service answers `method path` with these replies, one per request, in order. */
function script(method: string, path: string, replies: Reply[]) {
  for (const r of replies) {
    mock.api.cloud.intercept({ path, method }).reply(() => {
      const key = `${method} ${path}`;
      arrivals.set(key, [...(arrivals.get(key) ?? []), performance.now()]);
      wallArrivals.push(Date.now());
      return {
        statusCode: r.status,
        data: JSON.stringify(
          r.body ??
            (r.status < 300
              ? { status: r.status, requestId: requestId(), result: {} }
              : { status: r.status, error: `status ${r.status}`, requestId: requestId() }),
        ),
        responseOptions: { headers: { "content-type": "application/json", ...r.headers } },
      };
    });
  }
}

function seen(method: string, path: string): number[] {
  return arrivals.get(`${method} ${path}`) ?? [];
}

const ok: Reply = { status: 200 };

describe("retryable statuses", () => {
  for (const status of [429, 502, 503, 504]) {
    it(`a PUT answered ${status} is tried again and succeeds`, async () => {
      script("PUT", PATH, [{ status }, ok]);
      const res = await send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} });
      expect(res.status).toBe(200);
      expect(seen("PUT", PATH)).toHaveLength(2);
    });
  }

  it("a GET answered 503 twice is tried a third time and succeeds", async () => {
    script("GET", PATH, [{ status: 503 }, { status: 503 }, ok]);
    await send(connectionFor("cloud"), { method: "GET", path: PATH });
    expect(seen("GET", PATH)).toHaveLength(3);
  });

  it("a DELETE answered 502 is tried again", async () => {
    script("DELETE", PATH, [{ status: 502 }, ok]);
    await send(connectionFor("cloud"), { method: "DELETE", path: PATH });
    expect(seen("DELETE", PATH)).toHaveLength(2);
  });
});

describe("an idempotent write answered 500, which may come after the change was stored", () => {
  for (const method of ["PUT", "PATCH", "DELETE"] as const) {
    it(`a ${method} answered 500 is tried again and succeeds`, async () => {
      script(method, PATH, [{ status: 500 }, ok]);
      const res = await send(connectionFor("cloud"), {
        method,
        path: PATH,
        ...(method === "DELETE" ? {} : { body: {} }),
      });
      expect(res.status).toBe(200);
      expect(seen(method, PATH)).toHaveLength(2);
    });
  }

  it("a DELETE answered 500, then 404 on the retry, succeeds: the first attempt deleted it", async () => {
    script("DELETE", PATH, [{ status: 500 }, { status: 404 }]);
    const res = await send(connectionFor("cloud"), { method: "DELETE", path: PATH });
    expect(res.status).toBe(404);
    expect(seen("DELETE", PATH)).toHaveLength(2);
  });

  it("a DELETE answered 404 on its first attempt fails with the 404, for the caller to read as gone", async () => {
    script("DELETE", PATH, [{ status: 404 }, ok]);
    const err = await failure(send(connectionFor("cloud"), { method: "DELETE", path: PATH }));
    expect((err as ApiError).status).toBe(404);
    expect(seen("DELETE", PATH)).toHaveLength(1);
  });

  it("a PUT answered 500 on every attempt fails with the 500 after maxAttempts", async () => {
    script("PUT", PATH, [{ status: 500 }, { status: 500 }, { status: 500 }]);
    useRuntime({ retryPolicy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
    expect((err as ApiError).status).toBe(500);
    expect(seen("PUT", PATH)).toHaveLength(3);
  });
});

describe("statuses that are not retried", () => {
  for (const status of [400, 401, 403, 404, 409]) {
    it(`a PUT answered ${status} fails at once with an ApiError after exactly one request`, async () => {
      script("PUT", PATH, [{ status }, ok]);
      const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(status);
      expect(seen("PUT", PATH)).toHaveLength(1);
    });
  }
});

describe("the wait the service asks for", () => {
  async function gapAfter(headers: Record<string, string>): Promise<number> {
    script("PUT", PATH, [{ status: 429, headers }, ok]);
    await send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} });
    const [first = 0, second = 0] = seen("PUT", PATH);
    return second - first;
  }

  it("Retry-After in seconds is waited out in full before the next attempt", async () => {
    expect(await gapAfter({ "retry-after": "0.15" })).toBeGreaterThanOrEqual(150);
  });

  it("Retry-After as an HTTP date is waited out until that date", async () => {
    const date = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000).toUTCString();
    script("PUT", PATH, [{ status: 503, headers: { "retry-after": date } }, ok]);
    await send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} });
    expect(wallArrivals).toHaveLength(2);
    expect(wallArrivals[1]).toBeGreaterThanOrEqual(Date.parse(date));
  });

  it("X-RateLimit-Reset in seconds is waited out in full", async () => {
    expect(await gapAfter({ "x-ratelimit-reset": "0.12" })).toBeGreaterThanOrEqual(120);
  });

  it("RateLimit-Reset in seconds is waited out in full", async () => {
    expect(await gapAfter({ "ratelimit-reset": "0.12" })).toBeGreaterThanOrEqual(120);
  });

  it("when several are given, the longest is waited out", async () => {
    expect(await gapAfter({ "retry-after": "0.05", "x-ratelimit-reset": "0.14" })).toBeGreaterThanOrEqual(140);
  });

  it("longer than the time budget fails at once with the 429, without a second request", async () => {
    useRuntime({ retryPolicy: { maxAttempts: 5, maxTotalMs: 1_000, baseDelayMs: 1, maxDelayMs: 5 } });
    script("PUT", PATH, [{ status: 429, headers: { "retry-after": "3600" } }, ok]);
    const started = performance.now();
    const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
    expect(err).toBeInstanceOf(RateLimitWaitError);
    expect(((err as RateLimitWaitError).cause as ApiError).status).toBe(429);
    expect(String(err)).toContain("asked this credential to wait 60 min");
    expect(seen("PUT", PATH)).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("bounds", () => {
  it("stops after maxAttempts and reports the last answer", async () => {
    useRuntime({ retryPolicy: { maxAttempts: 3, maxTotalMs: 5_000, baseDelayMs: 1, maxDelayMs: 2 } });
    script("PUT", PATH, [{ status: 503 }, { status: 503 }, { status: 504 }, ok]);
    const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(504);
    expect(seen("PUT", PATH)).toHaveLength(3);
  });

  it("starts no retry once the total time budget would be passed", async () => {
    useRuntime({ retryPolicy: { maxAttempts: 1_000, maxTotalMs: 120, baseDelayMs: 40, maxDelayMs: 40 } });
    script(
      "PUT",
      PATH,
      Array.from({ length: 20 }, () => ({ status: 503 })),
    );
    const started = performance.now();
    const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
    expect((err as ApiError).status).toBe(503);
    const attempts = seen("PUT", PATH).length;
    expect(attempts).toBeGreaterThanOrEqual(2);
    // Waits are 20..40 ms, so at most 120/20 of them fit: 7 attempts in all.
    expect(attempts).toBeLessThanOrEqual(7);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("a POST, which creates", () => {
  const creates = 'the API key "deployer"';

  it("answered 429 is tried again: the service did not process it", async () => {
    script("POST", KEYS, [{ status: 429, headers: { "retry-after": "0" } }, ok]);
    await send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates });
    expect(seen("POST", KEYS)).toHaveLength(2);
  });

  for (const status of [500, 502, 503, 504, 507]) {
    it(`answered ${status} fails with OutcomeUnknownError saying the named object may have been created, after exactly one request`, async () => {
      script("POST", KEYS, [{ status, body: { status, error: "upstream trouble", requestId: requestId() } }, ok]);
      const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates }));
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect(seen("POST", KEYS)).toHaveLength(1);
      expect(mock.api.agent.pendingInterceptors()).toHaveLength(1);
      expect(String(err)).toContain(`POST ${KEYS}`);
      expect(String(err)).toContain('the API key "deployer" may have been created');
      expect(String(err)).toContain("upstream trouble");
      expect(err).toMatchObject({ method: "POST", path: KEYS, what: creates, status, requestId: requestId() });
    });
  }

  it("whose outcome is unknown names 'the object' when the caller named nothing", async () => {
    script("POST", KEYS, [{ status: 503 }]);
    const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {} }));
    expect(String(err)).toContain("the object may have been created");
  });

  it("whose outcome is unknown carries no credential even if the service echoed one", async () => {
    script("POST", KEYS, [
      { status: 503, body: { status: 503, error: `busy for ${CANARY.keyId}:${CANARY.keySecret}` } },
    ]);
    const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates }));
    expect(errorText(err)).not.toContain(CANARY.keySecret);
    expect(errorText(err)).not.toContain(CANARY.keyId);
  });

  for (const status of [400, 401, 403, 404, 409, 499]) {
    it(`answered ${status} is an ordinary ApiError, not an unknown outcome: the service refused it`, async () => {
      script("POST", KEYS, [{ status }]);
      const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates }));
      expect(err).toBeInstanceOf(ApiError);
      expect(err).not.toBeInstanceOf(OutcomeUnknownError);
      expect(seen("POST", KEYS)).toHaveLength(1);
    });
  }
});

describe("the retry rules on their own", () => {
  it("retry only what was surely not processed for a POST", () => {
    expect(retryDecision("POST", { kind: "status", status: 429 })).toBe("retry");
    expect(retryDecision("POST", { kind: "transport", code: "ECONNREFUSED" })).toBe("retry");
    expect(retryDecision("POST", { kind: "transport", code: "UND_ERR_CONNECT_TIMEOUT" })).toBe("retry");
    expect(retryDecision("POST", { kind: "status", status: 503 })).toBe("outcome-unknown");
    expect(retryDecision("POST", { kind: "transport", code: "UND_ERR_SOCKET" })).toBe("outcome-unknown");
    expect(retryDecision("POST", { kind: "transport", code: "ECONNRESET" })).toBe("outcome-unknown");
    expect(retryDecision("POST", { kind: "transport", code: "SOMETHING_NEW" })).toBe("outcome-unknown");
  });

  it("fail at once, for any method, where nothing was sent and another try cannot help", () => {
    for (const method of ["POST", "PUT"]) {
      expect(retryDecision(method, { kind: "transport", code: "ENOTFOUND" })).toBe("fail");
      expect(retryDecision(method, { kind: "transport", code: "DEPTH_ZERO_SELF_SIGNED_CERT" })).toBe("fail");
      expect(retryDecision(method, { kind: "transport", code: "ERR_TLS_CERT_ALTNAME_INVALID" })).toBe("fail");
    }
  });

  it("retry a PUT's 409 only when it has a fresh read to make first (a concurrent change)", () => {
    expect(retryDecision("PUT", { kind: "status", status: 409 }, true)).toBe("retry");
    expect(retryDecision("PUT", { kind: "status", status: 409 })).toBe("fail");
    expect(retryDecision("DELETE", { kind: "status", status: 409 }, true)).toBe("fail");
  });

  it("retry a 500 of PUT, PATCH and DELETE, never of a POST", () => {
    for (const method of ["PUT", "PATCH", "DELETE"])
      expect(retryDecision(method, { kind: "status", status: 500 })).toBe("retry");
    expect(retryDecision("POST", { kind: "status", status: 500 })).toBe("outcome-unknown");
  });

  it("retry connection failures of a PUT, whatever the stage", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "ATTEMPT_TIMEOUT"]) {
      expect(retryDecision("PUT", { kind: "transport", code })).toBe("retry");
    }
  });

  const now = Date.parse("2030-01-01T00:00:00.000Z");
  const h = (m: Record<string, string>) => (n: string) => m[n];

  it("read Retry-After as seconds or an HTTP date, a date past as no wait", () => {
    expect(serverRequestedDelayMs(h({ "retry-after": "7" }), now)).toBe(7_000);
    expect(serverRequestedDelayMs(h({ "retry-after": "Tue, 01 Jan 2030 00:00:05 GMT" }), now)).toBe(5_000);
    expect(serverRequestedDelayMs(h({ "retry-after": "Mon, 31 Dec 2029 23:59:00 GMT" }), now)).toBe(0);
  });

  it("read the reset headers as seconds or an epoch second", () => {
    expect(serverRequestedDelayMs(h({ "x-ratelimit-reset": "3" }), now)).toBe(3_000);
    expect(serverRequestedDelayMs(h({ "x-ratelimit-reset": String(now / 1000 + 4) }), now)).toBe(4_000);
    expect(serverRequestedDelayMs(h({ "ratelimit-reset": "2" }), now)).toBe(2_000);
  });

  it("read no wait from an unreadable Retry-After or from no header at all", () => {
    expect(serverRequestedDelayMs(h({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(serverRequestedDelayMs(h({}), now)).toBeUndefined();
  });

  it("back off exponentially with jitter, capped, and never below what the service asked", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(retryDelayMs(1, undefined, policy, () => 0)).toBe(50);
    expect(retryDelayMs(1, undefined, policy, () => 1)).toBe(100);
    expect(retryDelayMs(3, undefined, policy, () => 1)).toBe(400);
    expect(retryDelayMs(10, undefined, policy, () => 1)).toBe(1_000);
    expect(retryDelayMs(10, undefined, policy, () => 0)).toBe(500);
    expect(retryDelayMs(1, 2_000, policy, () => 0)).toBe(2_000);
    expect(retryDelayMs(1, 2_000, policy, () => 1)).toBeGreaterThan(2_000);
  });

  it("allow another attempt while both the attempts and the total time last", () => {
    const budget = new RetryBudget({ ...DEFAULT_RETRY_POLICY, maxAttempts: 3, maxTotalMs: 60_000 });
    expect(budget.allowsAnother(1, 1_000)).toBe(true);
    expect(budget.allowsAnother(2, 59_000)).toBe(true);
  });

  it("allow none once the attempts are made, whatever time is left", () => {
    const budget = new RetryBudget({ ...DEFAULT_RETRY_POLICY, maxAttempts: 3, maxTotalMs: 60_000 });
    expect(budget.allowsAnother(3)).toBe(false);
  });

  it("allow none whose wait would end past the total time", () => {
    const budget = new RetryBudget({ ...DEFAULT_RETRY_POLICY, maxAttempts: 10, maxTotalMs: 60_000 });
    expect(budget.allowsAnother(1, 60_001)).toBe(false);
  });
});
