// The differential suite (issue 31): every request shape the Alert resource sends, and the
// validation failures its check guards against, sent alike to the real alerting service (HyperDX's
// own API server) and to the emulator in its 2026 mode; the status, the error's shape, the answer's
// members and their kinds, the values sent back, and the RateLimit-* headers must agree. A row marked
// `kept` is a difference kept on purpose, listed with its reason in
// docs/design/real-alerting-service.md; it asserts the two still differ, so that list stays true.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { call, makeReferents, realServicePerFile, type Answer, type Referents } from "../support/realService";

const service = realServicePerFile();
let referents: Referents;
let emulator: RunningEmulator;

/** A second webhook of the real service, for an alert of two channels (the emulator checks none). */
let secondHook = "";

beforeAll(async () => {
  referents = await makeReferents(service());
  const hook = await call(service(), "POST", "/api/v2/webhooks", {
    name: "second-hook",
    service: "generic",
    url: "https://example.com/hooks/second",
  });
  secondHook = (hook.body as { data: { id: string } }).data.id;
  emulator = await startEmulator({ mode: "2026", rateLimits: { cloud: false } });
});
afterAll(async () => {
  await emulator?.close();
});

const NOT_AN_ALERT = "0123456789abcdef01234567";

interface Request {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: Record<string, unknown>;
}

interface Row {
  /** The request shape, in words. */
  what: string;
  /** `alert`: an alert this target made first (a tile alert); `gone` when it has been deleted since. */
  make: (r: Referents, alert: string) => Request;
  needs?: "alert" | "gone";
  /** A difference kept on purpose: why (the docs list it). */
  kept?: string;
}

/** What the Alert resource sends for a tile alert, every optional argument set. */
const tile = (r: Referents): Record<string, unknown> => ({
  threshold: 5,
  interval: "5m",
  source: "tile",
  thresholdType: "above",
  channel: { type: "webhook", webhookId: r.webhookId },
  dashboardId: r.dashboardId,
  tileId: r.tileId,
  name: "errors over 5",
  message: "too many errors",
});

type Change = Record<string, unknown> | ((r: Referents) => Record<string, unknown>);

/** A create whose body is a tile alert's with `change` applied (undefined removes a member). */
const createWith =
  (change: Change) =>
  (r: Referents): Request => ({
    method: "POST",
    path: "/api/v2/alerts",
    body: Object.fromEntries(
      Object.entries({ ...tile(r), ...(typeof change === "function" ? change(r) : change) }).filter(
        ([, v]) => v !== undefined,
      ),
    ),
  });

const hook = (webhookId: string) => ({ type: "webhook", webhookId });

/** A search alert as the real service spells it. */
const searchAlert = (r: Referents): Record<string, unknown> => ({
  source: "saved_search",
  savedSearchId: r.savedSearchId,
  dashboardId: undefined,
  tileId: undefined,
});

const ROWS: Row[] = [
  { what: "create a tile alert", make: createWith({}) },
  { what: "create a tile alert without name or message", make: createWith({ name: undefined, message: undefined }) },
  {
    what: 'create a search alert as the contract spells it (source "search", no saved search)',
    make: createWith({ source: "search", dashboardId: undefined, tileId: undefined }),
  },
  {
    what: "create a search alert as the service spells it (saved_search, savedSearchId)",
    make: createWith(searchAlert),
  },
  {
    what: "create a saved-search alert that also names a dashboard and a tile",
    make: createWith((r) => ({ ...searchAlert(r), dashboardId: "d", tileId: "t" })),
  },
  { what: "read an alert", needs: "alert", make: (_r, id) => ({ method: "GET", path: `/api/v2/alerts/${id}` }) },
  { what: "list a page of alerts", make: () => ({ method: "GET", path: "/api/v2/alerts?limit=1000&offset=0" }) },
  {
    what: "update an alert with its whole body, the name removed",
    needs: "alert",
    make: (r, id) => ({
      method: "PUT",
      path: `/api/v2/alerts/${id}`,
      body: { ...tile(r), threshold: 9, name: undefined },
    }),
  },
  {
    what: "update an alert that is gone",
    make: (r) => ({ method: "PUT", path: `/api/v2/alerts/${NOT_AN_ALERT}`, body: tile(r) }),
  },
  { what: "delete an alert", needs: "alert", make: (_r, id) => ({ method: "DELETE", path: `/api/v2/alerts/${id}` }) },
  {
    what: "delete an alert already gone",
    needs: "gone",
    make: (_r, id) => ({ method: "DELETE", path: `/api/v2/alerts/${id}` }),
  },
  { what: "read an alert that is gone", make: () => ({ method: "GET", path: `/api/v2/alerts/${NOT_AN_ALERT}` }) },
  // What the provider asks to learn the spelling of `source` (provider/alert/dialect.ts).
  { what: "ask the API's version and the key's user", make: () => ({ method: "GET", path: "/api/v2" }) },
  {
    what: "read an import id that is not an ObjectId",
    make: () => ({ method: "GET", path: "/api/v2/alerts/not-an-object-id" }),
  },
  {
    what: "read an import id of 12 characters (an ObjectId to the service)",
    make: () => ({ method: "GET", path: "/api/v2/alerts/twelve-chars" }),
  },
  // Issue 27's members, as the Alert resource sends them.
  { what: "create a between alert with thresholdMax", make: createWith({ thresholdType: "between", thresholdMax: 9 }) },
  {
    what: "create an alert of two channels",
    make: createWith((r) => ({ channels: [hook(r.webhookId), hook(secondHook)] })),
  },
  { what: "create an alert with a schedule offset", make: createWith({ scheduleOffsetMinutes: 2 }) },
  { what: "create an alert with a schedule start", make: createWith({ scheduleStartAt: "2026-01-15T10:00:00Z" }) },
  {
    what: "create an alert with a note and consecutive windows",
    make: createWith({ note: "**see** the runbook", numConsecutiveWindows: 3 }),
  },
  {
    what: "create a search alert grouped by a column",
    make: createWith((r) => ({ ...searchAlert(r), groupBy: "ServiceName" })),
  },
  { what: "create a tile alert with groupBy (dropped)", make: createWith({ groupBy: "ServiceName" }) },
  {
    what: "update an alert to a range with a schedule start",
    needs: "alert",
    make: (r, id) => ({
      method: "PUT",
      path: `/api/v2/alerts/${id}`,
      body: { ...tile(r), thresholdType: "not_between", thresholdMax: 7, scheduleStartAt: "2026-01-15T10:00:00Z" },
    }),
  },
  { what: "a between alert without thresholdMax", make: createWith({ thresholdType: "between" }) },
  { what: "a thresholdMax below the threshold", make: createWith({ thresholdType: "not_between", thresholdMax: 1 }) },
  { what: "channels whose first is not channel", make: createWith({ channels: [hook(secondHook)] }) },
  { what: "a channel twice", make: createWith((r) => ({ channels: [hook(r.webhookId), hook(r.webhookId)] })) },
  { what: "a schedule offset as long as the interval", make: createWith({ scheduleOffsetMinutes: 5 }) },
  {
    what: "a schedule offset beside a schedule start",
    make: createWith({ scheduleOffsetMinutes: 1, scheduleStartAt: "2026-01-15T10:00:00Z" }),
  },
  {
    what: "a schedule start with an offset, not Z",
    make: createWith({ scheduleStartAt: "2026-01-15T10:00:00+01:00" }),
  },
  { what: "zero consecutive windows", make: createWith({ numConsecutiveWindows: 0 }) },
  { what: "an empty note", make: createWith({ note: "" }) },
  // What the check refuses before any request, sent anyway: the service must refuse it too.
  { what: "an interval not in the list", make: createWith({ interval: "2m" }) },
  { what: "a thresholdType other than above or below", make: createWith({ thresholdType: "sideways" }) },
  { what: "no source", make: createWith({ source: undefined }) },
  { what: "a source other than tile or search", make: createWith({ source: "metric" }) },
  { what: "a threshold that is not a number", make: createWith({ threshold: "5" }) },
  { what: "a negative threshold (the check and the service both take it)", make: createWith({ threshold: -1 }) },
  { what: "a tile alert without dashboardId", make: createWith({ dashboardId: undefined }) },
  { what: "a tile alert without tileId", make: createWith({ tileId: undefined }) },
  { what: "an empty name", make: createWith({ name: "" }) },
  { what: "a name of 513 characters", make: createWith({ name: "x".repeat(513) }) },
  { what: "a name of 257 emoji (514 UTF-16 units)", make: createWith({ name: "😀".repeat(257) }) },
  { what: "an empty message", make: createWith({ message: "" }) },
  { what: "a message of 4097 characters", make: createWith({ message: "x".repeat(4097) }) },
  { what: 'a channel type other than "webhook"', make: createWith({ channel: { type: "email", webhookId: "w" } }) },
  { what: "no channel", make: createWith({ channel: undefined }) },
  { what: "a member the alert does not have (the check refuses it)", make: createWith({ colour: "red" }) },
  // Kept on purpose: the emulator has no webhooks, dashboards or saved searches to look up.
  {
    what: "a webhook that does not exist",
    make: (r) => createWith({ channel: { type: "webhook", webhookId: NOT_AN_ALERT } })(r),
    kept: "the emulator keeps no webhooks: every webhookId names one",
  },
  {
    what: "a dashboard that does not exist",
    make: createWith({ dashboardId: NOT_AN_ALERT }),
    kept: "the emulator keeps no dashboards or tiles",
  },
  {
    what: "a saved search that does not exist",
    make: createWith((r) => ({ ...searchAlert(r), savedSearchId: NOT_AN_ALERT })),
    kept: "the emulator keeps no saved searches",
  },
];

/** A value's kind, members and all: what two answers to the same request must share. */
function shapeOf(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  }
  return typeof value;
}

/** The members an answer sends back as they were sent: each server's ids and times aside. */
const ECHOED = [
  "threshold",
  "interval",
  "source",
  "thresholdType",
  "channel",
  "channels",
  "name",
  "message",
  "dashboardId",
  "tileId",
  "savedSearchId",
  "state",
  "thresholdMax",
  "scheduleOffsetMinutes",
  "scheduleStartAt",
  "numConsecutiveWindows",
  "note",
  "groupBy",
];

const HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "x-total-count"];

/** What must agree between the two answers to one request. */
function comparable(answer: Answer): Record<string, unknown> {
  const data = (answer.body as { data?: unknown } | undefined)?.data;
  const alert = typeof data === "object" && data !== null && !Array.isArray(data) ? data : undefined;
  return {
    status: answer.status,
    contentType: (answer.headers["content-type"] ?? "").split(";")[0],
    shape: shapeOf(answer.body),
    echoed:
      alert === undefined
        ? undefined
        : Object.fromEntries(
            ECHOED.map((k) => [k, (alert as Record<string, unknown>)[k]]).filter(([, v]) => v !== undefined),
          ),
    headers: HEADERS.filter((h) => answer.headers[h] !== undefined),
  };
}

/** Sends the row's request to one target, making (and deleting) the alert it needs first. */
async function answerOf(target: { url: string; accessKey: string }, row: Row): Promise<Answer> {
  let id = "";
  if (row.needs !== undefined) {
    const made = await call(target, "POST", "/api/v2/alerts", tile(referents));
    id = (made.body as { data: { id: string } }).data.id;
    if (row.needs === "gone") await call(target, "DELETE", `/api/v2/alerts/${id}`);
  }
  const request = row.make(referents, id);
  const key = row.what === "an unknown key" ? "not-a-key" : target.accessKey;
  return call({ url: target.url, accessKey: key }, request.method, request.path, request.body);
}

describe("the real alerting service and the emulator's 2026 mode answer alike", () => {
  it.each(ROWS.filter((r) => r.kept === undefined).map((r) => [r.what, r] as const))("%s", async (_what, row) => {
    const real = comparable(await answerOf(service(), row));
    const emulated = comparable(await answerOf({ url: emulator.url, accessKey: emulator.token }, row));
    expect(emulated).toEqual(real);
  });

  it("refuse a key they do not know alike: 401 in plain text, the request counted", async () => {
    const row: Row = { what: "an unknown key", make: () => ({ method: "GET", path: "/api/v2/alerts" }) };
    const real = comparable(await answerOf(service(), row));
    const emulated = comparable(await answerOf({ url: emulator.url, accessKey: emulator.token }, row));
    expect(real).toMatchObject({ status: 401, contentType: "text/plain" });
    expect(emulated).toEqual(real);
  });
});

describe("differences kept on purpose (docs/design/real-alerting-service.md)", () => {
  it.each(ROWS.filter((r) => r.kept !== undefined).map((r) => [r.what, r] as const))(
    "%s: the real service refuses it, the emulator does not",
    async (_what, row) => {
      const real = await answerOf(service(), row);
      const emulated = await answerOf({ url: emulator.url, accessKey: emulator.token }, row);
      expect(real.status).toBe(400);
      expect(emulated.status).toBe(200);
    },
  );
});

describe("the key's 101st request of a window", () => {
  /** Spends the target's window to its last request, then sends one more. */
  async function overTheLimit(target: { url: string; accessKey: string }): Promise<Answer> {
    for (;;) {
      const answer = await call(target, "GET", "/api/v2/alerts?limit=1");
      if (answer.headers["ratelimit-remaining"] === "0" || answer.status === 429) break;
    }
    return call(target, "GET", "/api/v2/alerts?limit=1");
  }

  // Last in the file: it spends the key's window (about 55 requests after the rows above).
  it("is refused alike: 429 as text, Retry-After a whole window", async () => {
    const real = await overTheLimit(service());
    const emulated = await overTheLimit({ url: emulator.url, accessKey: emulator.token });
    expect(real).toMatchObject({ status: 429, headers: { "retry-after": "60" } });
    expect(comparable(emulated)).toEqual(comparable(real));
  });
});
