// Webhook, SavedSearch and Alert on managed ClickStack: the Cloud API's gateway of the emulator in
// its ClickHouse Cloud mode, through the dynamic door's methods. Each request goes to the service's
// `/clickstack` path with the Cloud key; answers come in the Cloud envelope; an HTML 404 is never
// "gone".

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import * as webhook from "../../provider/webhook/provider";
import * as search from "../../provider/savedSearch/provider";
import * as alert from "../../provider/alert/provider";
import { RouteNotServedError } from "../../provider/errors";
import { CLICKSTACK_IDS, emulatorPerTest } from "../support/emulatorPerTest";

const BASE = `/v1/organizations/${CLICKSTACK_IDS.organizationId}/services/${CLICKSTACK_IDS.serviceId}/clickstack`;
const hook = { name: "ops", service: "generic", url: "https://hooks.example.com/ops" };
const errors = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };

describe("managed ClickStack against the emulator's ClickHouse Cloud mode", () => {
  const service = emulatorPerTest({ service: "clickstack", helper: "managed ClickStack test" });

  async function searchAlertOn(): Promise<{ hookId: string; searchId: string; alertId: string }> {
    const made = await webhook.create(hook);
    const found = await search.create(errors);
    const a = await alert.create({
      threshold: 5,
      interval: "5m",
      source: "search",
      thresholdType: "above",
      savedSearchId: found.id,
      channels: [{ type: "webhook", webhookId: made.id }],
    });
    return { hookId: made.id, searchId: found.id, alertId: a.id };
  }

  it("sends every request under the service's /clickstack path, none to /api/v2, and never asks the dialect", async () => {
    await searchAlertOn();
    const paths = service.requests();
    expect(paths).toEqual([`POST ${BASE}/webhooks`, `POST ${BASE}/saved-searches`, `POST ${BASE}/alerts`]);
    expect(service.emulator.requests.every((r) => r.area === "cloud")).toBe(true);
  });

  it("sends one channel as `channel`, never `channels`, and reads the alert back as the program has it", async () => {
    const { hookId, alertId } = await searchAlertOn();
    const stored = service.emulator.snapshot().alerts[alertId];
    expect(stored?.channel).toEqual({ type: "webhook", webhookId: hookId });
    expect(stored?.channels).toBeUndefined();
    const read = await alert.read(alertId, {
      threshold: 5,
      interval: "5m",
      source: "search",
      thresholdType: "above",
      channels: [{ type: "webhook", webhookId: hookId }],
    });
    expect(read.props).toMatchObject({ source: "search", channel: { type: "webhook", webhookId: hookId } });
  });

  it("reads each kind through the bare-array lists of the Cloud envelope and sees a deletion by hand as gone", async () => {
    const { hookId, searchId, alertId } = await searchAlertOn();
    const hookRead = await webhook.read(hookId, { ...hook });
    expect(hookRead.props).toMatchObject({ name: "ops", url: hook.url });
    const searchRead = await search.read(searchId, { ...errors });
    expect(searchRead.props).toMatchObject({ name: "errors", where: "level:error" });
    await alert.delete(alertId, {});
    expect(await alert.read(alertId, { threshold: 5 })).toEqual({});
  });

  it("reads a list of more than 1000 page by page (limit 1000) until a short page: the 1,001st alert is found", async () => {
    const { hookId, searchId } = await searchAlertOn();
    const body = (threshold: number) => ({
      threshold,
      interval: "5m",
      source: "search",
      thresholdType: "above",
      savedSearchId: searchId,
      channel: { type: "webhook", webhookId: hookId },
    });
    for (let i = 1; i <= 1000; i++) await alert.create(body(i));
    const last = Object.values(service.emulator.snapshot().alerts).at(-1);
    service.emulator.resetRequestLog();
    const read = await alert.read(last?.id ?? "", body(1000));
    expect(read.props).toMatchObject({ threshold: 1000 });
    // The log keeps paths without their query: two pages, the second short.
    expect(service.requests()).toEqual([`GET ${BASE}/alerts`, `GET ${BASE}/alerts`]);
  }, 120_000);

  it("takes the gateway's HTML 404 as a route it does not serve: the error says so, and the alert is not dropped", async () => {
    const { alertId } = await searchAlertOn();
    // A cloudUrl with a path too many: every route is one the gateway does not serve.
    process.env.ALERTPIPE_CLOUD_URL = `${service.emulator.url}/v1/v1`;
    const failed = await alert.read(alertId, { threshold: 5 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(RouteNotServedError);
    expect(String(failed)).toContain("serves no such route");
    expect(String(failed)).toContain("not taken as gone");
    await expect(alert.delete(alertId, {})).rejects.toBeInstanceOf(RouteNotServedError);
    expect(Object.keys(service.emulator.snapshot().alerts)).toEqual([alertId]);
  });

  it("takes cloudUrl with or without its trailing /v1, never sending /v1/v1", async () => {
    process.env.ALERTPIPE_CLOUD_URL = `${service.emulator.url}/v1`;
    await webhook.create(hook);
    expect(service.requests()).toEqual([`POST ${BASE}/webhooks`]);
  });

  it("destroys in order and leaves nothing: the alert, then its saved search and webhook", async () => {
    const { hookId, searchId, alertId } = await searchAlertOn();
    await alert.delete(alertId, {});
    await search.delete(searchId, { ...errors });
    await webhook.delete(hookId, { ...hook });
    const state = service.emulator.snapshot();
    expect(Object.keys(state.alerts)).toEqual([]);
    expect(Object.keys(state.webhooks ?? {})).toEqual([]);
    expect(Object.keys(state.savedSearches ?? {})).toEqual([]);
  });
});
