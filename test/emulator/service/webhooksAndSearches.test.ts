// The emulator's webhooks, saved searches and sources answer as HyperDX's external API v2 does
// (docs/design/webhooks-and-saved-searches.md, its checklist).

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES, type RunningEmulator } from "../../../emulator";
import { alerting, deliberately, start, validAlert } from "./helpers";

const SOURCE = SEEDED_SOURCES[0].id;
const generic = { name: "ops", service: "generic", url: "https://hooks.example.com/x" };

async function made(emu: RunningEmulator, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await alerting(emu, "POST", path, body);
  expect(answer.status).toBe(200);
  return answer.json.data as Record<string, unknown>;
}

describe("emulator webhooks", () => {
  it(
    "has no GET of one webhook; the list pages with meta and X-Total-Count",
    deliberately(async () => {
      const emu = await start();
      const hook = await made(emu, "/api/v2/webhooks", generic);
      expect((await alerting(emu, "GET", `/api/v2/webhooks/${String(hook.id)}`)).status).toBe(405);
      const list = await alerting(emu, "GET", "/api/v2/webhooks?limit=1&offset=0");
      expect(list.json.meta).toEqual({ total: 1, limit: 1, offset: 0 });
      expect(list.headers.get("x-total-count")).toBe("1");
    }),
  );

  it("never answers headers or queryParams, and a generic body only", async () => {
    const emu = await start();
    const body = { ...generic, headers: { "X-Token": "s3cret" }, queryParams: { k: "v" }, body: "{}" };
    expect(await made(emu, "/api/v2/webhooks", body)).not.toHaveProperty("headers");
    const incident = await made(emu, "/api/v2/webhooks", { ...body, service: "incidentio" });
    expect(Object.keys(incident)).not.toEqual(expect.arrayContaining(["headers", "queryParams", "body"]));
    expect(JSON.stringify((await alerting(emu, "GET", "/api/v2/webhooks")).json)).not.toContain("s3cret");
  });

  it("stores a trimmed name and refuses a blank one", async () => {
    const emu = await start();
    expect((await made(emu, "/api/v2/webhooks", { ...generic, name: "  ops  " })).name).toBe("ops");
    const blank = await alerting(emu, "POST", "/api/v2/webhooks", { ...generic, name: "   " });
    expect(blank.json.message).toBe("Body validation failed: name: String must contain at least 1 character(s)");
  });

  it("refuses the same service and name twice, and allows it under another service", async () => {
    const emu = await start();
    await made(emu, "/api/v2/webhooks", generic);
    const again = await alerting(emu, "POST", "/api/v2/webhooks", { ...generic, name: " ops" });
    expect([again.status, again.json.message]).toEqual([400, "A webhook with this service and name already exists"]);
    await made(emu, "/api/v2/webhooks", { ...generic, service: "incidentio" });
  });

  it.each([
    [
      { ...generic, service: "slack", url: "https://hooks.slack.com/x", headers: { a: "b" } },
      "headers: headers is not supported for the slack webhook service",
    ],
    [
      { ...generic, service: "slack", url: "https://evilslack.com/x" },
      "does not have hostname that ends in 'slack.com'",
    ],
    [{ ...generic, url: "ftp://example.com/" }, "Webhook URL must use HTTP or HTTPS"],
    [{ ...generic, url: "http://10.0.0.1/" }, "Webhook URL resolves to a private or reserved address."],
    [{ ...generic, url: "http://127.1/" }, "Webhook URL resolves to a private or reserved address."],
    [{ ...generic, url: "http://[::1]/" }, "Webhook URL resolves to a private or reserved address."],
    [{ ...generic, url: "http://localhost:8080/" }, "Webhook URL resolves to a private or reserved address."],
    [{ ...generic, headers: { "1abc": "x" } }, "headers.1abc: Header name cannot start with a number"],
    [{ ...generic, headers: { A: "x\ny" } }, "headers.A: Header values cannot contain control characters"],
  ])("refuses %j with the service's words", async (body, words) => {
    const emu = await start();
    const answer = await alerting(emu, "POST", "/api/v2/webhooks", body);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toContain(words);
  });

  it("accepts a name that only resolves to a private address", async () => {
    const emu = await start();
    await made(emu, "/api/v2/webhooks", { ...generic, url: "http://internal.corp/" });
  });

  it("keeps omitted headers on a PUT to the same url, drops them on a new url, clears them on {}", async () => {
    const emu = await start();
    const id = String((await made(emu, "/api/v2/webhooks", { ...generic, headers: { A: "1" } })).id);
    const stored = () => emu.snapshot().webhooks?.[id]?.headers;
    await alerting(emu, "PUT", `/api/v2/webhooks/${id}`, generic);
    expect(stored()).toEqual({ A: "1" });
    await alerting(emu, "PUT", `/api/v2/webhooks/${id}`, { ...generic, headers: {} });
    expect(stored()).toBeUndefined();
    await alerting(emu, "PUT", `/api/v2/webhooks/${id}`, { ...generic, headers: { A: "1" } });
    await alerting(emu, "PUT", `/api/v2/webhooks/${id}`, { ...generic, url: "https://other.example.com/" });
    expect(stored()).toBeUndefined();
  });

  it("answers 409 to a DELETE while an alert's first channel names the webhook, with a count", async () => {
    const emu = await start();
    const id = String((await made(emu, "/api/v2/webhooks", generic)).id);
    await made(emu, "/api/v2/alerts", { ...validAlert, channel: { type: "webhook", webhookId: id } });
    const answer = await alerting(emu, "DELETE", `/api/v2/webhooks/${id}`);
    expect([answer.status, answer.json.message]).toEqual([
      409,
      "Cannot delete webhook: 1 alert(s) still reference it. Reassign or remove those alerts first.",
    ]);
  });

  it("answers 409 to a PUT that races a change of the url (raceWebhookPut)", async () => {
    const emu = await start();
    const id = String((await made(emu, "/api/v2/webhooks", generic)).id);
    emu.raceWebhookPut(id, "https://moved.example.com/");
    const answer = await alerting(emu, "PUT", `/api/v2/webhooks/${id}`, { ...generic, name: "renamed" });
    expect([answer.status, answer.json.message]).toEqual([
      409,
      "Webhook was modified concurrently; please retry with the current state",
    ]);
    expect((await alerting(emu, "PUT", `/api/v2/webhooks/${id}`, generic)).status).toBe(200);
  });
});

describe("emulator saved searches and sources", () => {
  it("answers the defaults of every field a create leaves out", async () => {
    const emu = await start();
    const search = await made(emu, "/api/v2/saved-searches", { name: "errors", sourceId: SOURCE });
    expect(search).toMatchObject({
      select: "",
      where: "",
      whereLanguage: "lucene",
      orderBy: "",
      tags: [],
      filters: [],
    });
    expect(search.teamId).toBe(emu.snapshot().team);
  });

  it("refuses an unknown sourceId, on a PUT to an unknown id too", async () => {
    const emu = await start();
    const body = { name: "x", sourceId: "65a0000000000000000000ff" };
    for (const [method, path] of [
      ["POST", "/api/v2/saved-searches"],
      ["PUT", "/api/v2/saved-searches/65a0000000000000000000aa"],
    ] as const) {
      const answer = await alerting(emu, method, path, body);
      expect([answer.status, answer.json.message]).toEqual([400, "sourceId must be an existing source id"]);
    }
  });

  it(
    "refuses a lucene filter on create and answers a renderable one with its type written out",
    deliberately(async () => {
      const emu = await start();
      const lucene = await alerting(emu, "POST", "/api/v2/saved-searches", {
        name: "x",
        sourceId: SOURCE,
        filters: [{ type: "lucene", condition: "level:error" }],
      });
      expect(lucene.json.message).toMatch(/^filters\[0\] must be a sidebar-renderable SQL predicate/);
      const ok = await made(emu, "/api/v2/saved-searches", {
        name: "x",
        sourceId: SOURCE,
        filters: [{ condition: "A IN ('x')" }],
      });
      expect(ok.filters).toEqual([{ type: "sql", condition: "A IN ('x')" }]);
    }),
  );

  it("deletes the alerts watching a saved search with it", async () => {
    const emu = await start();
    const id = String((await made(emu, "/api/v2/saved-searches", { name: "x", sourceId: SOURCE })).id);
    const alert = String((await made(emu, "/api/v2/alerts", validAlert)).id);
    emu.watchSearch(alert, id);
    expect((await alerting(emu, "DELETE", `/api/v2/saved-searches/${id}`)).json).toEqual({});
    expect(emu.snapshot().alerts[alert]).toBeUndefined();
  });

  it("lists the seeded log sources without paging, with the defaults the service writes out", async () => {
    const emu = await start();
    const answer = await alerting(emu, "GET", "/api/v2/sources");
    const defaults = { disabled: false, querySettings: [], highlightedTraceAttributeExpressions: [] };
    expect(answer.json).toEqual({
      data: SEEDED_SOURCES.map((s): unknown => expect.objectContaining({ ...s, ...defaults })),
    });
  });
});
