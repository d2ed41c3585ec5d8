// Asking the alerting service which spelling of `source` it speaks (provider/alert/dialect.ts), when
// `alertpipe:alertingDialect` does not say: once per process, however many writes wait on the
// answer; a failed question fails the write that needed it, sends nothing else, and is asked again.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import { ALERT_ID } from "../support/fixtures";
import { answerOnce, mockApiPerTest } from "../support/mockApi";

const mock = mockApiPerTest();
const host = { __provider: "serialized" };
const search = {
  source: "search",
  threshold: 3,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "hook-1" },
  savedSearchId: "search-1",
};
const created = (id: string) => ({ data: { ...search, source: "saved_search", id } });

/** The dialect asked of the service: the config's "contract" of the mock API unset. */
function ask(): void {
  delete process.env.ALERTPIPE_ALERTING_DIALECT;
}

describe("the service's dialect, asked", () => {
  it("is asked once for two search alerts made at the same time, and both are sent saved_search", async () => {
    ask();
    answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: "/api/v2" }, 200, { version: "v2", user: {} });
    answerOnce(mock.api.alerting, mock.seen, { method: "POST", path: "/api/v2/alerts" }, 200, created(ALERT_ID));
    answerOnce(mock.api.alerting, mock.seen, { method: "POST", path: "/api/v2/alerts" }, 200, created("a2"));
    const made = await Promise.all([alert.create({ ...search, ...host }), alert.create({ ...search, ...host })]);
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/v2",
      "POST /api/v2/alerts",
      "POST /api/v2/alerts",
    ]);
    expect(mock.seen.slice(1).map((r) => (r.body as { source?: unknown }).source)).toEqual([
      "saved_search",
      "saved_search",
    ]);
    expect(made.map((m) => (m.outs as { source?: unknown }).source)).toEqual(["search", "search"]);
  });

  it("a refused question (401) fails the write naming GET /api/v2, sends no POST, and is asked again by the next write", async () => {
    ask();
    answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: "/api/v2" }, 401, "Unauthorized");
    await expect(alert.create({ ...search, ...host })).rejects.toThrow(/GET \/api\/v2 failed with status 401/);
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v2"]);
    answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: "/api/v2" }, 404, { message: "no endpoint" });
    answerOnce(mock.api.alerting, mock.seen, { method: "POST", path: "/api/v2/alerts" }, 200, created(ALERT_ID));
    await alert.create({ ...search, ...host });
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/v2",
      "GET /api/v2",
      "POST /api/v2/alerts",
    ]);
    expect((mock.seen[2]?.body as { source?: unknown }).source).toBe("search");
  });
});
