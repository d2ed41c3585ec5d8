// Faults after commit (issue 10): the service made the object, but the client never learns it
// (a 500, or an answer that comes after the client gave up). The provider recovers by listing;
// these tests pin that each fault commits exactly once and answers as it says.

import { randomUUID } from "node:crypto";
import { request } from "undici";
import { describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { UUID_V4, alerting, basic, bearer, cloud, createKey, data, start, validAlert } from "./helpers";

const ALERTS = /^\/api\/v2\/alerts$/;
const KEYS = /^\/v1\/organizations\/[^/]+\/keys$/;

/** POSTs as a client that waits 200 ms for the answer's headers and then gives up; fails if an answer came. */
async function postGivingUp(emu: RunningEmulator, path: string, body: unknown): Promise<void> {
  const authorization = path.startsWith("/v1/") ? basic(emu.keyId, emu.keySecret) : bearer(emu);
  await expect(
    request(`${emu.url}${path}`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify(body),
      headersTimeout: 200,
    }),
  ).rejects.toThrow();
}

describe("failAfterCommit", () => {
  it("commits an alert create once, then answers 500 {message}", async () => {
    const emu = await start();
    emu.setFaults({ failAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1 } });
    const answer = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ message: expect.any(String) });
    expect(Object.values(emu.snapshot().alerts)).toEqual([expect.objectContaining({ name: validAlert.name })]);
  });

  it("commits a key create once, then answers 500 {status, error, requestId} without the key's credentials", async () => {
    const emu = await start();
    const org = randomUUID();
    emu.setFaults({ failAfterCommit: { method: "POST", pathPattern: KEYS, count: 1 } });
    const answer = await cloud(emu, "POST", `/v1/organizations/${org}/keys`, { name: "lost", roles: ["admin"] });
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ status: 500, error: expect.any(String), requestId: expect.stringMatching(UUID_V4) });
    expect(Object.values(emu.snapshot().keys)).toEqual([
      expect.objectContaining({ name: "lost", organizationId: org }),
    ]);
  });

  it("logs the 500 it answered", async () => {
    const emu = await start();
    emu.setFaults({ failAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1 } });
    await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect(emu.requests).toEqual([
      {
        area: "alerting",
        method: "POST",
        path: "/api/v2/alerts",
        status: 500,
        at: expect.any(Number),
        fault: "failAfterCommit",
      },
    ]);
  });

  it("stops after count requests and leaves other methods alone", async () => {
    const emu = await start();
    emu.setFaults({ failAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1 } });
    expect((await alerting(emu, "GET", "/api/v2/alerts")).status).toBe(200);
    expect((await alerting(emu, "POST", "/api/v2/alerts", validAlert)).status).toBe(500);
    expect((await alerting(emu, "POST", "/api/v2/alerts", validAlert)).status).toBe(200);
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(2);
  });

  it("matches the path without its query string", async () => {
    const emu = await start();
    emu.setFaults({ failAfterCommit: { method: "GET", pathPattern: ALERTS, count: 1 } });
    expect((await alerting(emu, "GET", "/api/v2/alerts?limit=10")).status).toBe(500);
  });

  it("does not take a request that failNext refused before processing", async () => {
    const emu = await start();
    emu.setFaults({ failNext: 1, failAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1 } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await alerting(emu, "POST", "/api/v2/alerts", validAlert)).status);
    expect(statuses).toEqual([503, 500, 200]);
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(2);
  });
});

describe("delayAfterCommit", () => {
  it("commits a key create once while the client times out", async () => {
    const emu = await start();
    const org = randomUUID();
    emu.setFaults({ delayAfterCommit: { method: "POST", pathPattern: KEYS, count: 1, ms: 60_000 } });
    await postGivingUp(emu, `/v1/organizations/${org}/keys`, { name: "late", roles: ["admin"] });
    expect(Object.values(emu.snapshot().keys)).toEqual([
      expect.objectContaining({ name: "late", organizationId: org }),
    ]);
  });

  it("logs status 0 when the client hung up during the hold", async () => {
    const emu = await start();
    emu.setFaults({ delayAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1, ms: 60_000 } });
    await postGivingUp(emu, "/api/v2/alerts", validAlert);
    // The entry is written when the emulator sees the connection close, just after the client gives up.
    await vi.waitFor(() =>
      expect(emu.requests).toEqual([expect.objectContaining({ method: "POST", path: "/api/v2/alerts", status: 0 })]),
    );
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(1);
  });

  it("answers the real answer after the hold to a client that waits", async () => {
    const emu = await start();
    emu.setFaults({ delayAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1, ms: 50 } });
    const answer = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect(answer.status).toBe(200);
    expect(emu.snapshot().alerts[data(answer).id]).toEqual(data(answer));
    expect(emu.requests.at(-1)).toMatchObject({ status: 200 });
  });

  it("stops after count requests", async () => {
    const emu = await start();
    emu.setFaults({ delayAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1, ms: 60_000 } });
    await postGivingUp(emu, "/api/v2/alerts", validAlert);
    expect((await alerting(emu, "POST", "/api/v2/alerts", validAlert)).status).toBe(200);
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(2);
  });
});

describe("faults after commit together", () => {
  it("let at most one fault take a request: cut first, then fail, then delay", async () => {
    const emu = await start();
    const org = randomUUID();
    const one = { method: "POST", pathPattern: KEYS, count: 1 };
    emu.setFaults({ cutAfterCommit: { ...one }, failAfterCommit: { ...one }, delayAfterCommit: { ...one, ms: 1 } });
    await expect(createKey(emu, org)).rejects.toThrow();
    expect((await cloud(emu, "POST", `/v1/organizations/${org}/keys`, { roles: ["admin"] })).status).toBe(500);
    expect((await cloud(emu, "POST", `/v1/organizations/${org}/keys`, { roles: ["admin"] })).status).toBe(200);
    expect((await cloud(emu, "POST", `/v1/organizations/${org}/keys`, { roles: ["admin"] })).status).toBe(200);
    expect(emu.requests.map((r) => r.status)).toEqual([0, 500, 200, 200]);
    expect(Object.keys(emu.snapshot().keys)).toHaveLength(4);
  });

  it("setFaults copies them, so the caller's counts are not counted down", async () => {
    const emu = await start();
    const plan = {
      failAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1 },
      delayAfterCommit: { method: "POST", pathPattern: ALERTS, count: 1, ms: 1 },
    };
    emu.setFaults(plan);
    await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect([plan.failAfterCommit.count, plan.delayAfterCommit.count]).toEqual([1, 1]);
  });
});
