// Webhook and SavedSearch against the emulator over real HTTP, through the dynamic door's methods:
// the lifecycle, write-only secrets kept and sent again, the 409 paths, and a saved search's delete
// that would take alerts along. A destroy deletes at once what it knows no dependency between (an
// import records none): a delete waits, within the retry policy, for an alert on its way out.

import { describe, expect, it, vi } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import * as webhook from "../../provider/webhook/provider";
import * as search from "../../provider/savedSearch/provider";
import * as alert from "../../provider/alert/provider";
import { StillReferencedError } from "../../provider/errors";
import { FAST_RETRIES, emulatorPerTest } from "../support/emulatorPerTest";
import { useRuntime } from "../../provider/runtime/runtime";
import { searchAlert } from "../support/fixtures";

const SECRET = "tok-3f9a-very-secret";
const hook = {
  name: "ops",
  service: "generic",
  url: "https://hooks.example.com/ops",
  headers: { Authorization: `Bearer ${SECRET}` },
  queryParams: { key: SECRET },
};
const errors = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };

/**
 * Runs `deleting` and deletes the alert once that delete has looked at the alerts and found it, as a
 * destroy deleting both at once may: the delete's next look is 100 to 200 ms later.
 */
async function alertDeletedMeanwhile(
  requests: () => string[],
  alertId: string,
  deleting: () => Promise<void>,
): Promise<void> {
  useRuntime({ retryPolicy: { ...FAST_RETRIES, maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 400 } });
  const alertGone = async () => {
    await vi.waitFor(() => expect(requests()).toContain("GET /api/v2/alerts"), { interval: 2, timeout: 2_000 });
    await alert.delete(alertId, {});
  };
  await Promise.all([deleting(), alertGone()]);
}

describe("Webhook against the emulator", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "webhook test" });
  const stored = (id: string) => service.emulator.snapshot().webhooks?.[id];

  it("creates a webhook whose write-only headers reach the service and stay in the outputs", async () => {
    const { id, outs } = await webhook.create(hook);
    expect(stored(id)).toMatchObject({ headers: hook.headers, queryParams: hook.queryParams });
    expect(outs).toMatchObject({ ...hook, createdAt: expect.any(String) });
  });

  it("reads through the list (no GET of one) and keeps the write-only fields from the state", async () => {
    const { id, outs } = await webhook.create(hook);
    service.emulator.resetRequestLog();
    const read = await webhook.read(id, outs);
    expect(service.requests()).toEqual(["GET /api/v2/webhooks"]);
    expect(read.props).toMatchObject({ headers: hook.headers, queryParams: hook.queryParams, url: hook.url });
    expect(JSON.stringify(read.inputs)).not.toContain(SECRET);
  });

  it("reads a webhook deleted outside the stack as gone", async () => {
    const { id, outs } = await webhook.create(hook);
    await fetch(`${service.emulator.url}/api/v2/webhooks/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${service.emulator.token}` },
    });
    expect(await webhook.read(id, outs)).toEqual({});
  });

  it("sends every write-only field on a PUT that changes the url, so none is dropped", async () => {
    const { id, outs } = await webhook.create(hook);
    const news = { ...hook, url: "https://hooks.example.com/moved" };
    await webhook.update(id, outs, news);
    expect(stored(id)).toMatchObject({ url: news.url, headers: hook.headers, queryParams: hook.queryParams });
  });

  it("sees drift of the url and puts it back with one PUT", async () => {
    const { id, outs } = await webhook.create(hook);
    // Another writer moves the url.
    await fetch(`${service.emulator.url}/api/v2/webhooks/${id}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${service.emulator.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "ops", service: "generic", url: "https://elsewhere.example.com/" }),
    });
    const read = await webhook.read(id, outs);
    const diff = await webhook.diff(id, read.props ?? {}, hook);
    expect(diff.detailedDiff).toHaveProperty("url");
    await webhook.update(id, read.props ?? {}, hook);
    expect(stored(id)).toMatchObject({ url: hook.url, headers: hook.headers });
  });

  it("retries a PUT answered 409 for a concurrent change after a fresh read, and says so", async () => {
    const { id, outs } = await webhook.create(hook);
    service.emulator.raceWebhookPut(id, "https://raced.example.com/");
    service.emulator.resetRequestLog();
    await webhook.update(id, outs, { ...hook, name: "ops2" });
    expect(service.requests()).toEqual([
      `PUT /api/v2/webhooks/${id}`,
      "GET /api/v2/webhooks",
      `PUT /api/v2/webhooks/${id}`,
    ]);
    expect(stored(id)).toMatchObject({ name: "ops2", url: hook.url });
    expect(service.notices.join("\n")).toMatch(/changed by another writer/);
  });

  it("fails a delete refused with 409 naming the alerts outside the stack that use the webhook", async () => {
    const { id } = await webhook.create(hook);
    const made = await alert.create({ ...searchAlert, name: "cpu high", channel: { type: "webhook", webhookId: id } });
    const failure = await webhook.delete(id, {}).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StillReferencedError);
    expect((failure as Error).message).toContain(`"cpu high" (${made.id})`);
    expect(stored(id)).toBeDefined();
  });

  it("deletes a webhook once the alert using it is deleted meanwhile", async () => {
    const { id } = await webhook.create(hook);
    const made = await alert.create({ ...searchAlert, name: "cpu high", channel: { type: "webhook", webhookId: id } });
    service.emulator.resetRequestLog();
    await alertDeletedMeanwhile(
      () => service.requests(),
      made.id,
      () => webhook.delete(id, {}),
    );
    expect(stored(id)).toBeUndefined();
    expect(service.requests().filter((r) => r.startsWith("DELETE /api/v2/webhooks"))).toHaveLength(2);
  });

  it("never puts a secret value in an error", async () => {
    const { id } = await webhook.create(hook);
    const failure = await webhook.create(hook).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((failure as Error).message).toContain("A webhook with this service and name already exists");
    expect((failure as Error).message).not.toContain(SECRET);
    expect(stored(id)).toBeDefined();
  });

  it("deletes a webhook no alert uses", async () => {
    const { id } = await webhook.create(hook);
    await webhook.delete(id, {});
    expect(stored(id)).toBeUndefined();
  });
});

describe("SavedSearch against the emulator", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "saved search test" });
  const stored = (id: string) => service.emulator.snapshot().savedSearches?.[id];

  it("creates, reads with no diff, updates in place and deletes", async () => {
    const { id, outs } = await search.create(errors);
    expect(outs).toMatchObject({ ...errors, select: "", whereLanguage: "lucene", tags: [], filters: [] });
    const read = await search.read(id, outs);
    expect((await search.diff(id, read.props ?? {}, errors)).changes).toBe(false);
    await search.update(id, outs, { ...errors, filters: [{ condition: "ServiceName IN ('api')" }] });
    expect(stored(id)?.filters).toEqual([{ type: "sql", condition: "ServiceName IN ('api')" }]);
    await search.delete(id, {});
    expect(stored(id)).toBeUndefined();
  });

  it("sees a field set outside the stack as drift from its default", async () => {
    const { id, outs } = await search.create(errors);
    await fetch(`${service.emulator.url}/api/v2/saved-searches/${id}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${service.emulator.token}`, "content-type": "application/json" },
      body: JSON.stringify({ ...errors, orderBy: "Timestamp DESC" }),
    });
    const read = await search.read(id, outs);
    expect((await search.diff(id, read.props ?? {}, errors)).detailedDiff).toHaveProperty("orderBy");
  });

  it("deletes a saved search once the alert watching it is deleted meanwhile", async () => {
    const { id } = await search.create(errors);
    const made = await alert.create({ ...searchAlert, name: "errors up" });
    service.emulator.watchSearch(made.id, id);
    service.emulator.resetRequestLog();
    await alertDeletedMeanwhile(
      () => service.requests(),
      made.id,
      () => search.delete(id, {}),
    );
    expect(service.emulator.snapshot().savedSearches?.[id]).toBeUndefined();
  });

  it("refuses to delete a saved search alerts outside the stack watch, naming them, and deletes nothing", async () => {
    const { id } = await search.create(errors);
    const made = await alert.create({ ...searchAlert, name: "errors up" });
    service.emulator.watchSearch(made.id, id);
    service.emulator.resetRequestLog();
    const failure = await search.delete(id, {}).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StillReferencedError);
    expect((failure as Error).message).toContain(`"errors up" (${made.id})`);
    expect(service.requests().filter((r) => r.startsWith("DELETE"))).toEqual([]);
    expect(service.emulator.snapshot().alerts[made.id]).toBeDefined();
  });
});
