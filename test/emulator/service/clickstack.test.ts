// The emulator's managed ClickStack (cloudDialect "clickhouse"): the Cloud document's routes for
// alerts, webhooks and saved searches under a service's /clickstack, Basic auth of the organization's
// keys, the cloud envelope both ways, bare-array lists paged by limit/offset, the Cloud schemas'
// rules, a 409 for a webhook still used, the saved-search delete that takes its alerts, and an HTML
// 404 for a route the gateway does not serve.

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../../emulator/index";
import { basic, call, cloud, createKey, result, start, type Answer } from "./helpers";
import type { RunningEmulator } from "../../../emulator/index";

const ORG = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const SVC = "7b2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e";
const BASE = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;

const cloudMode = () => start({ cloudDialect: "clickhouse", rateLimits: { cloud: false, alerting: false } });

async function made(emu: RunningEmulator, path: string, body: unknown): Promise<string> {
  const answer = await cloud(emu, "POST", `${BASE}${path}`, body);
  expect(answer.status).toBe(200);
  return result<{ id: string }>(answer).id;
}

async function referents(emu: RunningEmulator): Promise<{ hook: string; search: string }> {
  return {
    hook: await made(emu, "/webhooks", { name: "ops", service: "generic", url: "https://example.com/ops" }),
    search: await made(emu, "/saved-searches", { name: "errors", sourceId: SEEDED_SOURCES[0].id }),
  };
}

function searchAlert(r: { hook: string; search: string }, threshold = 5): Record<string, unknown> {
  return {
    threshold,
    interval: "5m",
    source: "saved_search",
    thresholdType: "above",
    savedSearchId: r.search,
    channel: { type: "webhook", webhookId: r.hook },
  };
}

function envelopeOf(answer: Answer): void {
  expect(answer.json).toMatchObject({ status: 200, requestId: expect.any(String) });
  expect(answer.json).not.toHaveProperty("data");
}

describe("managed ClickStack in the emulator's ClickHouse Cloud mode", () => {
  it("answers each object in the cloud envelope: `result`, no `data`, no `channels` on an alert", async () => {
    const emu = await cloudMode();
    const r = await referents(emu);
    const answer = await cloud(emu, "POST", `${BASE}/alerts`, searchAlert(r));
    envelopeOf(answer);
    const alert = result(answer);
    expect(alert).toMatchObject({ source: "saved_search", channel: { type: "webhook", webhookId: r.hook } });
    expect(alert).not.toHaveProperty("channels");
    const got = await cloud(emu, "GET", `${BASE}/alerts/${String(alert.id)}`);
    envelopeOf(got);
    expect(result(got)).toEqual(alert);
  });

  it("lists as a bare `result` array, paged by limit and offset, capped at 1000", async () => {
    const emu = await cloudMode();
    const r = await referents(emu);
    for (let i = 0; i < 3; i++) await made(emu, "/alerts", searchAlert(r, i));
    const page = await cloud(emu, "GET", `${BASE}/alerts?limit=2&offset=0`);
    envelopeOf(page);
    expect(Array.isArray(page.json.result)).toBe(true);
    expect(result<unknown[]>(page)).toHaveLength(2);
    expect(page.json).not.toHaveProperty("meta");
    expect(result<unknown[]>(await cloud(emu, "GET", `${BASE}/alerts?limit=2&offset=2`))).toHaveLength(1);
    expect((await cloud(emu, "GET", `${BASE}/alerts?limit=1001`)).status).toBe(400);
  });

  it("answers errors as `{status, error, requestId}`", async () => {
    const emu = await cloudMode();
    const answer = await cloud(emu, "GET", `${BASE}/alerts/${"a".repeat(24)}`);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ status: 404, error: expect.any(String), requestId: expect.any(String) });
  });

  it("refuses an alert's `channels`, which the Cloud schema does not have", async () => {
    const emu = await cloudMode();
    const r = await referents(emu);
    const { channel, ...rest } = searchAlert(r);
    const answer = await cloud(emu, "POST", `${BASE}/alerts`, { ...rest, channels: [channel] });
    expect(answer.status).toBe(400);
    expect(String(answer.json.error)).toContain("channels");
    expect(Object.keys(emu.snapshot().alerts)).toEqual([]);
  });

  it("keeps a webhook channel's webhookService, slackChannelId and severity, and answers them", async () => {
    const emu = await cloudMode();
    const r = await referents(emu);
    const channel = { type: "webhook", webhookId: r.hook, webhookService: "pagerduty_api", severity: "critical" };
    const id = await made(emu, "/alerts", { ...searchAlert(r), channel });
    expect(result(await cloud(emu, "GET", `${BASE}/alerts/${id}`)).channel).toEqual(channel);
    const plain = { type: "webhook", webhookId: r.hook };
    const put = await cloud(emu, "PUT", `${BASE}/alerts/${id}`, { ...searchAlert(r), channel: plain });
    expect(result(put).channel).toEqual(plain);
    const bad = await cloud(emu, "PUT", `${BASE}/alerts/${id}`, {
      ...searchAlert(r),
      channel: { ...plain, severity: "p1" },
    });
    expect(bad.status).toBe(400);
  });

  it("refuses an email channel, which it does not emulate, with 400", async () => {
    const emu = await cloudMode();
    const r = await referents(emu);
    const channel = { type: "email", emailRecipients: ["oncall@example.com"] };
    const answer = await cloud(emu, "POST", `${BASE}/alerts`, { ...searchAlert(r), channel });
    expect(answer.status).toBe(400);
    expect(String(answer.json.error)).toContain("email channels are not emulated");
  });

  it("takes the organization's own keys and refuses another organization's with 403, none with 401", async () => {
    const emu = await cloudMode();
    const own = await createKey(emu, ORG);
    const other = await createKey(emu, randomUUID());
    expect((await cloud(emu, "GET", `${BASE}/webhooks`, undefined, basic(own.keyId, own.keySecret))).status).toBe(200);
    expect((await cloud(emu, "GET", `${BASE}/webhooks`, undefined, basic(other.keyId, other.keySecret))).status).toBe(
      403,
    );
    expect((await call(emu, "GET", `${BASE}/webhooks`)).status).toBe(401);
    // The alerting token is not a key of the cloud API.
    expect((await call(emu, "GET", `${BASE}/webhooks`, { auth: `Bearer ${emu.token}` })).status).toBe(401);
  });

  it("refuses to delete a webhook an alert still uses, with 409", async () => {
    const emu = await cloudMode();
    const r = await referents(emu);
    await made(emu, "/alerts", searchAlert(r));
    const answer = await cloud(emu, "DELETE", `${BASE}/webhooks/${r.hook}`);
    expect(answer.status).toBe(409);
    expect(emu.snapshot().webhooks?.[r.hook]).toBeDefined();
  });

  it("deletes a saved search with the alerts that watch it", async () => {
    const emu = await cloudMode();
    const r = await referents(emu);
    await made(emu, "/alerts", searchAlert(r));
    const answer = await cloud(emu, "DELETE", `${BASE}/saved-searches/${r.search}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 200, requestId: expect.any(String) });
    expect(Object.keys(emu.snapshot().alerts)).toEqual([]);
  });

  it.each([
    ["GET", `${BASE}/webhooks/${"b".repeat(24)}`],
    ["GET", `${BASE}/teams`],
    ["PATCH", `${BASE}/alerts/${"c".repeat(24)}`],
    ["GET", `/v1/organizations/${ORG}/nothing-here`],
  ])("answers %s %s, a route the gateway does not serve, with an HTML 404", async (method, path) => {
    const emu = await cloudMode();
    const res = await fetch(emu.url + path, { method, headers: { authorization: basic(emu.keyId, emu.keySecret) } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/^<!DOCTYPE html>/);
  });

  it("serves none of it in the contract's cloud dialect", async () => {
    const emu = await start({ rateLimits: { cloud: false, alerting: false } });
    const answer = await cloud(emu, "GET", `${BASE}/alerts`);
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ status: 404, error: expect.any(String) });
  });
});
