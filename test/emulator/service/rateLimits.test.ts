import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../../emulator/limits";
import { alerting, basic, cloud, createKey, settingsPath, start } from "./helpers";

describe("area B rate limit", () => {
  it("answers 429 {status, error, requestId} with X-RateLimit-Reset once the window is used up", async () => {
    const emu = await start({ rateLimits: { cloud: { requests: 3, perSeconds: 10 } } });
    const path = settingsPath();
    for (let i = 0; i < 3; i++) expect((await cloud(emu, "GET", path)).status).toBe(200);
    const limited = await cloud(emu, "GET", path);
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ status: 429, error: expect.any(String) });
    const reset = limited.headers.get("x-ratelimit-reset");
    expect(reset).toMatch(/^\d+$/);
    expect(Number(reset)).toBeGreaterThanOrEqual(1);
    expect(Number(reset)).toBeLessThanOrEqual(10);
  });

  it("applies the default of 10 requests per 10 s when not configured", async () => {
    const emu = await start();
    const path = settingsPath();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await cloud(emu, "GET", path)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
  });

  it("admits requests again after the window ends", async () => {
    const emu = await start({ rateLimits: { cloud: { requests: 1, perSeconds: 0.3 } } });
    const path = settingsPath();
    expect((await cloud(emu, "GET", path)).status).toBe(200);
    expect((await cloud(emu, "GET", path)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 350));
    expect((await cloud(emu, "GET", path)).status).toBe(200);
  });

  it("counts each credential in its own window", async () => {
    const emu = await start({ rateLimits: { cloud: { requests: 2, perSeconds: 10 } } });
    const org = randomUUID();
    const created = await createKey(emu, org); // the bootstrap credential's first request
    const auth = basic(created.keyId, created.keySecret);
    expect((await cloud(emu, "GET", settingsPath(org), undefined, auth)).status).toBe(200);
    expect((await cloud(emu, "GET", settingsPath(org), undefined, auth)).status).toBe(200);
    expect((await cloud(emu, "GET", settingsPath(org), undefined, auth)).status).toBe(429);
    expect((await cloud(emu, "GET", settingsPath(org))).status).toBe(200);
  });

  it("does not count requests that fail authentication", async () => {
    const emu = await start({ rateLimits: { cloud: { requests: 1, perSeconds: 10 } } });
    for (let i = 0; i < 3; i++)
      expect((await cloud(emu, "GET", settingsPath(), undefined, basic(emu.keyId, "wrong"))).status).toBe(401);
    expect((await cloud(emu, "GET", settingsPath())).status).toBe(200);
  });

  it("is off when configured false", async () => {
    const emu = await start({ rateLimits: { cloud: false } });
    const statuses = await Promise.all(
      Array.from({ length: 25 }, () => cloud(emu, "GET", settingsPath()).then((a) => a.status)),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});

describe("area A rate limit", () => {
  it("answers 429 {message} with RateLimit-Reset once the window is used up", async () => {
    const emu = await start({ rateLimits: { alerting: { requests: 2, perSeconds: 60 } } });
    const path = "/api/v2/alerts/0123456789abcdef01234567";
    expect((await alerting(emu, "GET", path)).status).toBe(404);
    expect((await alerting(emu, "GET", path)).status).toBe(404);
    const limited = await alerting(emu, "GET", path);
    expect(limited.status).toBe(429);
    expect(typeof limited.json.message).toBe("string");
    const reset = Number(limited.headers.get("ratelimit-reset"));
    expect(Number.isInteger(reset) && reset >= 1 && reset <= 60).toBe(true);
  });

  it("is limited separately from area B", async () => {
    const emu = await start({
      rateLimits: { alerting: { requests: 1, perSeconds: 60 }, cloud: { requests: 1, perSeconds: 60 } },
    });
    expect((await alerting(emu, "GET", "/api/v2/alerts/0123456789abcdef01234567")).status).toBe(404);
    expect((await cloud(emu, "GET", settingsPath())).status).toBe(200);
  });
});

describe("fixed-window limiter", () => {
  it("does not count refused requests, so the window still ends on time", () => {
    let now = 0;
    const limiter = new FixedWindowLimiter({ requests: 1, perSeconds: 10 }, () => now);
    expect(limiter.take("a").ok).toBe(true);
    now = 9_000;
    expect(limiter.take("a")).toEqual({ ok: false, resetSeconds: 1, limit: expect.any(Number) });
    now = 10_000;
    expect(limiter.take("a").ok).toBe(true);
  });

  it("rounds the reset up to whole seconds", () => {
    let now = 0;
    const limiter = new FixedWindowLimiter({ requests: 1, perSeconds: 10 }, () => now);
    limiter.take("a");
    now = 1_500;
    expect(limiter.take("a")).toEqual({ ok: false, resetSeconds: 9, limit: expect.any(Number) });
  });

  it("refuses a configuration with less than one request per window", () => {
    expect(() => new FixedWindowLimiter({ requests: 0, perSeconds: 10 })).toThrow();
  });
});
