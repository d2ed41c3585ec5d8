import { request } from "undici";
import { describe, expect, it } from "vitest";
import {
  DELIBERATE,
  UUID_V4,
  alerting,
  bearer,
  cloud,
  data,
  deliberately,
  settingsPath,
  start,
  validAlert,
} from "./helpers";

describe("fault injection", () => {
  it("failNext answers the next N area A requests 503 {message}, then serves again", async () => {
    const emu = await start();
    emu.setFaults({ failNext: 2 });
    const first = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    const second = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    const third = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect([first.status, second.status, third.status]).toEqual([503, 503, 200]);
    expect(first.json).toEqual({ message: expect.any(String) });
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(1);
  });

  it("failBeforeCommit answers only the matching requests 503, unprocessed, counting them down", async () => {
    const emu = await start();
    emu.setFaults({ failBeforeCommit: { method: "POST", pathPattern: /^\/api\/v2\/alerts$/, count: 1 } });
    const refused = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    const listed = await alerting(emu, "GET", "/api/v2/alerts");
    const made = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect([refused.status, listed.status, made.status]).toEqual([503, 200, 200]);
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(1);
  });

  it("failNext answers area B 503 {status, error, requestId}", async () => {
    const emu = await start();
    emu.setFaults({ failNext: 1 });
    const answer = await cloud(emu, "GET", settingsPath());
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ status: 503, error: expect.any(String), requestId: expect.stringMatching(UUID_V4) });
  });

  it("503 answers appear in the request log", async () => {
    const emu = await start();
    emu.setFaults({ failNext: 1 });
    await cloud(emu, "GET", settingsPath());
    await cloud(emu, "GET", settingsPath());
    expect(emu.requests.map((r) => r.status)).toEqual([503, 200]);
  });

  it("latencyMs delays every answer", async () => {
    const emu = await start({ latencyMs: 150 });
    const began = Date.now();
    await cloud(emu, "GET", settingsPath());
    expect(Date.now() - began).toBeGreaterThanOrEqual(140);
  });

  it("latencyWritesOnly delays writes and answers reads at once", async () => {
    const emu = await start();
    emu.setFaults({ latencyMs: 600, latencyWritesOnly: true });
    let began = Date.now();
    await cloud(emu, "GET", settingsPath());
    expect(Date.now() - began).toBeLessThan(400);
    began = Date.now();
    expect((await cloud(emu, "PUT", settingsPath(), { db_max_threads: 1 })).status).toBe(200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(590);
  });

  it("setFaults replaces the plan, dropping the earlier latency", async () => {
    const emu = await start({ latencyMs: 1000 });
    emu.setFaults({});
    const began = Date.now();
    await cloud(emu, "GET", settingsPath());
    expect(Date.now() - began).toBeLessThan(500);
  });

  it("cutAfterCommit commits the change, then closes the connection without an answer", async () => {
    const emu = await start();
    emu.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /^\/api\/v2\/alerts$/, count: 1 } });
    await expect(
      request(`${emu.url}/api/v2/alerts`, {
        method: "POST",
        headers: { authorization: bearer(emu), "content-type": "application/json" },
        body: JSON.stringify(validAlert),
      }),
    ).rejects.toThrow();
    expect(Object.values(emu.snapshot().alerts)).toEqual([expect.objectContaining({ name: validAlert.name })]);
    expect(emu.requests.at(-1)).toMatchObject({ method: "POST", path: "/api/v2/alerts", status: 0 });
  });

  it("cutAfterCommit stops after count cuts and leaves other requests alone", async () => {
    const emu = await start();
    emu.setFaults({ cutAfterCommit: { method: "PUT", pathPattern: /\/settings$/, count: 1 } });
    expect((await cloud(emu, "GET", settingsPath())).status).toBe(200);
    await expect(cloud(emu, "PUT", settingsPath(), { db_max_threads: 1 })).rejects.toThrow();
    expect((await cloud(emu, "PUT", settingsPath(), { db_max_threads: 1 })).status).toBe(200);
  });

  it("setFaults copies the plan, so the caller's object is not counted down", async () => {
    const emu = await start();
    const plan = { failNext: 1 };
    emu.setFaults(plan);
    await cloud(emu, "GET", settingsPath());
    expect(plan.failNext).toBe(1);
  });
});

describe("request log", () => {
  it(
    "records area, method, path, its query apart, status and arrival time, including 401s",
    deliberately(async () => {
      const emu = await start();
      const before = Date.now();
      await alerting(emu, "POST", "/api/v2/alerts", validAlert);
      await fetch(`${emu.url}/v1/organizations/x/keys?debug=1`, { method: "POST", headers: DELIBERATE });
      expect(emu.requests).toEqual([
        { area: "alerting", method: "POST", path: "/api/v2/alerts", status: 200, at: expect.any(Number) },
        {
          area: "cloud",
          method: "POST",
          path: "/v1/organizations/x/keys",
          query: "debug=1",
          status: 401,
          at: expect.any(Number),
        },
      ]);
      expect(emu.requests[0]?.at).toBeGreaterThanOrEqual(before);
    }),
  );

  it("resetRequestLog empties the same array callers hold", async () => {
    const emu = await start();
    const log = emu.requests;
    await cloud(emu, "GET", settingsPath());
    emu.resetRequestLog();
    expect(log).toEqual([]);
    await cloud(emu, "GET", settingsPath());
    expect(log).toHaveLength(1);
  });

  it(
    "answers 404 for a path outside both areas",
    deliberately(async () => {
      const emu = await start();
      const answer = await fetch(`${emu.url}/nowhere`, { headers: DELIBERATE });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({ message: expect.any(String) });
    }),
  );
});

describe("snapshot", () => {
  it("is a deep copy that later changes and caller edits do not touch", async () => {
    const emu = await start();
    const created = data(await alerting(emu, "POST", "/api/v2/alerts", validAlert));
    const snap = emu.snapshot();
    const alert = snap.alerts[created.id];
    if (alert) alert.threshold = 999;
    await alerting(emu, "DELETE", `/api/v2/alerts/${created.id}`);
    expect(snap.alerts[created.id]?.threshold).toBe(999);
    expect(emu.snapshot().alerts).toEqual({});
  });
});
