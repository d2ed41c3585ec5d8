// Webhook and SavedSearch with importId take over an existing object instead of creating one,
// through the dynamic door's methods against the emulator: a webhook found in the list (it has no
// GET of one), a search by its GET; one PUT only when the object differs or the program holds a
// write-only field, which cannot be read; never a POST.

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import * as webhook from "../../provider/webhook/provider";
import * as search from "../../provider/savedSearch/provider";
import { ImportNotFoundError } from "../../provider/errors";
import { emulatorPerTest, type EmulatorPerTest } from "../support/emulatorPerTest";
import { failure } from "../support/failures";

const MISSING_ID = "0123456789abcdef01234567";
const hook = { name: "ops", service: "generic", url: "https://hooks.example.com/ops" };
const errors = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };

/** An object made outside the stack with the service's own POST, the request log started afresh after it. */
async function byHand(service: EmulatorPerTest, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${service.emulator.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${service.emulator.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const { data } = (await res.json()) as { data: { id: string } };
  service.emulator.resetRequestLog();
  return data.id;
}

describe("Webhook importId, against the emulator", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "webhook import test" });
  const existing = (body: Record<string, unknown>) => byHand(service, "/api/v2/webhooks", body);
  const stored = (id: string) => service.emulator.snapshot().webhooks?.[id];

  it("takes over a webhook that already is what the program says with one list read and nothing else", async () => {
    const id = await existing(hook);
    const { id: taken } = await webhook.create({ ...hook, importId: id });
    expect(taken).toBe(id);
    expect(service.requests()).toEqual(["GET /api/v2/webhooks"]);
  });

  it("writes the program's values with one PUT when a readable field differs", async () => {
    const id = await existing({ ...hook, description: "set in the UI" });
    const { outs } = await webhook.create({ ...hook, importId: id });
    expect(service.requests()).toEqual(["GET /api/v2/webhooks", `PUT /api/v2/webhooks/${id}`]);
    expect(stored(id)?.description ?? "").toBe("");
    expect(outs).toMatchObject({ ...hook, createdAt: expect.any(String) });
  });

  it("sends the program's write-only headers with one PUT, since they cannot be read to compare", async () => {
    const id = await existing(hook);
    const headers = { Authorization: "Bearer from-the-program" };
    const { outs } = await webhook.create({ ...hook, headers, importId: id });
    expect(service.requests()).toEqual(["GET /api/v2/webhooks", `PUT /api/v2/webhooks/${id}`]);
    expect(stored(id)).toMatchObject({ headers });
    expect(outs).toMatchObject({ headers });
  });

  it("fails naming the id and the list, with nothing created, when the list does not hold it", async () => {
    const err = await failure(webhook.create({ ...hook, importId: MISSING_ID }));
    expect(err).toBeInstanceOf(ImportNotFoundError);
    expect(String(err)).toContain(`importId "${MISSING_ID}": GET /api/v2/webhooks does not list it`);
    expect(service.requests()).toEqual(["GET /api/v2/webhooks"]);
  });

  it("sees no change when importId is removed after the take-over", async () => {
    const id = await existing(hook);
    const { outs } = await webhook.create({ ...hook, importId: id });
    expect(await webhook.diff(id, outs, hook)).toMatchObject({ changes: false, replaces: [] });
  });
});

describe("SavedSearch importId, against the emulator", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "saved search import test" });
  const existing = (body: Record<string, unknown>) => byHand(service, "/api/v2/saved-searches", body);

  it("takes over a search that already is what the program says with one GET and nothing else", async () => {
    const id = await existing(errors);
    const { id: taken } = await search.create({ ...errors, importId: id });
    expect(taken).toBe(id);
    expect(service.requests()).toEqual([`GET /api/v2/saved-searches/${id}`]);
  });

  it("writes the program's whole body with one PUT when the live search differs", async () => {
    const id = await existing({ ...errors, orderBy: "Timestamp DESC" });
    const { outs } = await search.create({ ...errors, importId: id });
    expect(service.requests()).toEqual([`GET /api/v2/saved-searches/${id}`, `PUT /api/v2/saved-searches/${id}`]);
    expect(service.emulator.snapshot().savedSearches?.[id]?.orderBy ?? "").toBe("");
    expect(outs).toMatchObject({ ...errors, orderBy: "" });
  });

  it("fails with IMPORT_NOT_FOUND, sending no POST, when there is no such search", async () => {
    const err = await failure(search.create({ ...errors, importId: MISSING_ID }));
    expect((err as ImportNotFoundError).code).toBe("IMPORT_NOT_FOUND");
    expect(service.requests()).toEqual([`GET /api/v2/saved-searches/${MISSING_ID}`]);
  });
});
