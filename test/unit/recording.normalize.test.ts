// The recorder's normalization (scripts/record/recording.ts): two recordings of the same scenario
// differ only where the server answered otherwise.

import { describe, expect, it } from "vitest";
import { FIXED, FIXED_TIME, normalize, ordinalId, type RawExchange } from "../../scripts/record/recording";

const KEY = "9beff396-46ca-40c1-beaf-3709ef1ee3f0";
const secrets = new Map([[KEY, FIXED.accessKey]]);

/** A create and a read of what it made, with the server's ids and times of one run. */
function run(webhook: string, alert: string, at: string): RawExchange[] {
  return [
    {
      role: "row",
      what: "create",
      request: {
        method: "POST",
        path: "/api/v2/alerts",
        body: { channel: { webhookId: webhook }, scheduleStartAt: "2026-01-15T10:00:00Z" },
      },
      answer: {
        status: 200,
        headers: { "ratelimit-remaining": "97", "ratelimit-reset": "12" },
        body: { data: { id: alert, createdAt: at, scheduleStartAt: "2026-01-15T10:00:00.000Z" } },
      },
    },
    {
      role: "row",
      what: "read",
      request: { method: "GET", path: `/api/v2/alerts/${alert}` },
      answer: {
        status: 200,
        headers: {},
        body: { data: { id: alert, user: { accessKey: KEY } }, message: `alert ${alert}` },
      },
    },
  ];
}

describe("normalize", () => {
  it("gives two runs with other ids, times and counters the same text", () => {
    const a = normalize(
      run("6b08c0612fa05b8bb2166d14", "6b08c0612fa05b8bb2166d99", "2026-11-26T23:27:29.286Z"),
      secrets,
      {},
    );
    const b = normalize(
      run("aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb", "2026-11-27T00:01:02.003Z"),
      secrets,
      {},
    );
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it("numbers ids by first appearance, the same id alike in a path, a body and a message", () => {
    const { exchanges } = normalize(
      run("6b08c0612fa05b8bb2166d14", "6b08c0612fa05b8bb2166d99", FIXED_TIME),
      secrets,
      {},
    );
    expect(exchanges[0]?.request.body).toMatchObject({ channel: { webhookId: ordinalId(1) } });
    expect(exchanges[1]?.request.path).toBe(`/api/v2/alerts/${ordinalId(2)}`);
    expect(exchanges[1]?.answer.body).toMatchObject({ message: `alert ${ordinalId(2)}` });
  });

  it("fixes the server's times and counters, keeps a time the request sent and hides the key", () => {
    const { exchanges } = normalize(
      run("6b08c0612fa05b8bb2166d14", "6b08c0612fa05b8bb2166d99", "2026-11-26T23:27:29.286Z"),
      secrets,
      {},
    );
    expect(exchanges[0]?.answer.body).toMatchObject({
      data: { createdAt: FIXED_TIME, scheduleStartAt: "2026-01-15T10:00:00.000Z" },
    });
    expect(exchanges[0]?.answer.headers).toEqual({
      "ratelimit-remaining": FIXED.counter,
      "ratelimit-reset": FIXED.counter,
    });
    expect(JSON.stringify(exchanges)).not.toContain(KEY);
  });
});

describe("a proxy's concurrent requests", () => {
  /** Two creates in flight together, then a list answered after both: in the order given. */
  function phase(order: "hook first" | "search first"): RawExchange[] {
    const create = (path: string, name: string, id: string, at: number): RawExchange => ({
      role: "row",
      what: "up",
      timing: { sentAt: at, answeredAt: at + 5 },
      request: { method: "POST", path, body: { name } },
      answer: { status: 200, headers: {}, body: { data: { id, name } } },
    });
    const hook = create("/api/v2/webhooks", "ops", "aaaaaaaaaaaaaaaaaaaaaaaa", order === "hook first" ? 0 : 1);
    const search = create(
      "/api/v2/saved-searches",
      "errors",
      "bbbbbbbbbbbbbbbbbbbbbbbb",
      order === "hook first" ? 1 : 0,
    );
    const list: RawExchange = {
      role: "row",
      what: "up",
      timing: { sentAt: 10, answeredAt: 11 },
      request: { method: "GET", path: "/api/v2/webhooks?limit=1000" },
      answer: { status: 200, headers: {}, body: { data: [{ id: "aaaaaaaaaaaaaaaaaaaaaaaa" }] } },
    };
    return order === "hook first" ? [hook, search, list] : [search, hook, list];
  }

  it("number and order alike however they interleaved, a list still after the write it saw", () => {
    const a = normalize(phase("hook first"), secrets, {});
    const b = normalize(phase("search first"), secrets, {});
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(a.exchanges.map((x) => x.request.path)).toEqual([
      "/api/v2/saved-searches",
      "/api/v2/webhooks",
      "/api/v2/webhooks?limit=1000",
    ]);
  });
});
