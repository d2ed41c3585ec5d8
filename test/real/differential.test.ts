// The differential suite (issue 31): every request shape the Alert, Webhook and SavedSearch resources
// send, and the validation failures their checks guard against, sent alike to the real alerting
// service (HyperDX's own API server) and to the emulator in its 2026 mode; the status, the error's
// shape (and a webhook's or saved search's words), the answer's members and their kinds, the values
// sent back, and the RateLimit-* headers must agree. A row marked
// `kept` is a difference kept on purpose, listed with its reason in
// docs/design/real-alerting-service.md; it asserts the two still differ, so that list stays true.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SEEDED_SOURCES } from "../../emulator/savedSearches";
import { call, makeReferents, realServicePerFile, type Answer, type Referents } from "../support/realService";

const service = realServicePerFile();
let emulator: RunningEmulator;

/** One side of the comparison: where it is, its key, and what its alerts refer to (each side its own). */
interface Target {
  readonly url: string;
  readonly accessKey: string;
  readonly refs: Refs;
  /** Its RateLimit-Remaining and when the window resets, as its last answer said. */
  remaining: number;
  resetAt: number;
  /** How many objects the rows' setups made here: the same count on both sides names them alike. */
  made: number;
}

let real: Target;
let emulated: Target;

/** What a target's alerts refer to, and a second webhook, for an alert of two channels. */
type Refs = Referents & { readonly secondHook: string };

/** The id in a create's `{data: {id}}` answer. */
const idOf = (answer: Answer): string => (answer.body as { data: { id: string } }).data.id;

beforeAll(async () => {
  const refs = await makeReferents(service());
  const second = { name: "second-hook", service: "generic", url: "https://example.com/hooks/second" };
  const fresh = { remaining: 100, resetAt: 0, made: 0 };
  const secondHook = idOf(await call(service(), "POST", "/api/v2/webhooks", second));
  real = { ...service(), refs: { ...refs, secondHook }, ...fresh };
  emulator = await startEmulator({ mode: "2026", rateLimits: { cloud: false } });
  const target = { url: emulator.url, accessKey: emulator.token };
  // The emulator's own webhook, saved search (on a seeded source) and dashboard with one line tile.
  const sourceId = SEEDED_SOURCES[0].id;
  const webhookId = idOf(
    await call(target, "POST", "/api/v2/webhooks", { name: "hook", service: "generic", url: "https://example.com/h" }),
  );
  const savedSearchId = idOf(
    await call(target, "POST", "/api/v2/saved-searches", { name: "errors", sourceId, where: "level:error" }),
  );
  const line = { displayType: "line", sourceId, select: [{ aggFn: "count" }] };
  const board = await call(target, "POST", "/api/v2/dashboards", {
    name: "ops",
    tiles: [{ name: "errors", x: 0, y: 0, w: 6, h: 3, config: line }],
  });
  const { id: dashboardId, tiles } = (board.body as { data: { id: string; tiles: { id: string }[] } }).data;
  emulated = {
    ...target,
    refs: {
      ...refs,
      webhookId,
      sourceId,
      savedSearchId,
      dashboardId,
      tileId: tiles[0]?.id ?? "",
      secondHook: idOf(await call(target, "POST", "/api/v2/webhooks", second)),
    },
    ...fresh,
  };
});
afterAll(async () => {
  await emulator?.close();
});

/**
 * A request to `target`, paced by its RateLimit-* answers: when fewer than a row's requests are left of
 * the key's window, it waits for the next window (the rows send about 140 requests to each side).
 */
async function paced(target: Target, method: string, path: string, body?: unknown, key = target.accessKey) {
  if (target.remaining < 8 && Date.now() < target.resetAt) {
    await new Promise((resolve) => setTimeout(resolve, target.resetAt - Date.now() + 500));
  }
  const answer = await call({ url: target.url, accessKey: key }, method, path, body);
  const remaining = Number(answer.headers["ratelimit-remaining"]);
  const reset = Number(answer.headers["ratelimit-reset"]);
  if (Number.isFinite(remaining) && Number.isFinite(reset)) {
    target.remaining = remaining;
    target.resetAt = Date.now() + reset * 1000;
  }
  return answer;
}

const NOT_AN_ALERT = "0123456789abcdef01234567";

interface Request {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: Record<string, unknown>;
}

interface Row {
  /** The request shape, in words. */
  what: string;
  /** What the request needs made first on the target (an alert, a webhook, …): its id, for `make`. */
  needs?: (t: Target) => Promise<string>;
  make: (r: Refs, made: string) => Request;
  /** Whether the two error messages must be the same words (the webhook and saved-search rows). */
  words?: true;
  /** A difference kept on purpose: why (the docs list it). */
  kept?: string;
}

/** What the Alert resource sends for a tile alert, every optional argument set. */
const tile = (r: Refs): Record<string, unknown> => ({
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

type Change = Record<string, unknown> | ((r: Refs) => Record<string, unknown>);

/** A create whose body is a tile alert's with `change` applied (undefined removes a member). */
const createWith =
  (change: Change) =>
  (r: Refs): Request => ({
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
const searchAlert = (r: Refs): Record<string, unknown> => ({
  source: "saved_search",
  savedSearchId: r.savedSearchId,
  dashboardId: undefined,
  tileId: undefined,
});

const WEBHOOKS = "/api/v2/webhooks";
const SEARCHES = "/api/v2/saved-searches";

/** A tile alert, for a row that reads, updates or deletes one. */
const anAlert = async (t: Target) => idOf(await paced(t, "POST", "/api/v2/alerts", tile(t.refs)));
const aGoneAlert = async (t: Target) => gone(t, "/api/v2/alerts", await anAlert(t));
const aWebhook = async (t: Target) =>
  idOf(
    await paced(t, "POST", WEBHOOKS, { name: `made-${++t.made}`, service: "generic", url: "https://example.com/m" }),
  );
const aGoneWebhook = async (t: Target) => gone(t, WEBHOOKS, await aWebhook(t));
/** A webhook an alert's channel names. */
const aWebhookInUse = async (t: Target) => {
  const id = await aWebhook(t);
  await paced(t, "POST", "/api/v2/alerts", { ...tile(t.refs), channel: hook(id) });
  return id;
};
const aSearch = async (t: Target) =>
  idOf(await paced(t, "POST", SEARCHES, { name: `made-${++t.made}`, sourceId: t.refs.sourceId, where: "a:b" }));
const aGoneSearch = async (t: Target) => gone(t, SEARCHES, await aSearch(t));
/** A saved search and the alert that watches it: their ids. */
const searchAndAlert = async (t: Target): Promise<[string, string]> => {
  const search = await aSearch(t);
  const body = createWith((r) => ({ ...searchAlert(r), savedSearchId: search }))(t.refs).body;
  return [search, idOf(await paced(t, "POST", "/api/v2/alerts", body))];
};
const aWatchedSearch = async (t: Target) => (await searchAndAlert(t))[0];
/** An alert whose saved search has been deleted since. */
const anAlertOfAGoneSearch = async (t: Target) => {
  const [search, alert] = await searchAndAlert(t);
  await gone(t, SEARCHES, search);
  return alert;
};

/** A request to the object the row's setup made. */
const at =
  (method: Request["method"], path: string) =>
  (_r: Refs, id: string): Request => ({ method, path: `${path}/${id}` });

/** Deletes `id` under `path`, and answers it. */
async function gone(t: Target, path: string, id: string): Promise<string> {
  await paced(t, "DELETE", `${path}/${id}`);
  return id;
}

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
  { what: "read an alert", needs: anAlert, make: (_r, id) => ({ method: "GET", path: `/api/v2/alerts/${id}` }) },
  { what: "list a page of alerts", make: () => ({ method: "GET", path: "/api/v2/alerts?limit=1000&offset=0" }) },
  {
    what: "update an alert with its whole body, the name removed",
    needs: anAlert,
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
  { what: "delete an alert", needs: anAlert, make: (_r, id) => ({ method: "DELETE", path: `/api/v2/alerts/${id}` }) },
  {
    what: "delete an alert already gone",
    needs: aGoneAlert,
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
    make: createWith((r) => ({ channels: [hook(r.webhookId), hook(r.secondHook)] })),
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
    needs: anAlert,
    make: (r, id) => ({
      method: "PUT",
      path: `/api/v2/alerts/${id}`,
      body: { ...tile(r), thresholdType: "not_between", thresholdMax: 7, scheduleStartAt: "2026-01-15T10:00:00Z" },
    }),
  },
  { what: "a between alert without thresholdMax", make: createWith({ thresholdType: "between" }) },
  { what: "a thresholdMax below the threshold", make: createWith({ thresholdType: "not_between", thresholdMax: 1 }) },
  { what: "channels whose first is not channel", make: createWith((r) => ({ channels: [hook(r.secondHook)] })) },
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
  // What an alert refers to, looked up in the target's own team (validateAlertInput).
  { what: "a webhook that does not exist", make: createWith({ channel: hook(NOT_AN_ALERT) }), words: true },
  {
    what: "a second channel whose webhook does not exist",
    make: createWith((r) => ({ channels: [hook(r.webhookId), hook(NOT_AN_ALERT)] })),
    words: true,
  },
  { what: "a webhook deleted since", needs: aGoneWebhook, make: (r, id) => createWith({ channel: hook(id) })(r) },
  { what: "a webhookId that is not an ObjectId", make: createWith({ channel: hook("ops-hook") }), words: true },
  {
    what: "a saved search that does not exist",
    make: createWith((r) => ({ ...searchAlert(r), savedSearchId: NOT_AN_ALERT })),
    words: true,
  },
  {
    what: "a savedSearchId that is not an ObjectId",
    make: createWith((r) => ({ ...searchAlert(r), savedSearchId: "errors" })),
    words: true,
  },
  {
    what: "update an alert to a webhook that does not exist",
    needs: anAlert,
    make: (r, id) => ({
      method: "PUT",
      path: `/api/v2/alerts/${id}`,
      body: { ...tile(r), channel: hook(NOT_AN_ALERT) },
    }),
    words: true,
  },
  {
    what: "update an alert that is gone, naming a webhook that does not exist",
    make: (r) => ({
      method: "PUT",
      path: `/api/v2/alerts/${NOT_AN_ALERT}`,
      body: { ...tile(r), channel: hook(NOT_AN_ALERT) },
    }),
    words: true,
  },
  {
    what: "a dashboard that does not exist",
    make: createWith({ dashboardId: NOT_AN_ALERT }),
    words: true,
  },
  { what: "a tile that does not exist", make: createWith({ tileId: NOT_AN_ALERT }), words: true },
  ...webhookRows(),
  ...savedSearchRows(),
];

/** What the Webhook resource sends (issue 29), and what its check refuses, sent anyway. */
function webhookRows(): Row[] {
  const create = (body: Record<string, unknown>) => (): Request => ({ method: "POST", path: WEBHOOKS, body });
  const generic = { service: "generic", url: "https://example.com/hooks/ops" };
  const refused = (what: string, change: Record<string, unknown>): Row => ({
    what,
    make: create({ name: `refused ${what}`, ...generic, ...change }),
    words: true,
  });
  const rows: Row[] = [
    {
      what: "create a generic webhook, every field set (headers and queryParams never answered)",
      make: create({
        name: "ops",
        ...generic,
        description: "the ops channel",
        headers: { Authorization: "Bearer s3cret" },
        queryParams: { token: "t0k" },
        body: '{"text": "{{title}}"}',
      }),
    },
    {
      what: "create a slack webhook of a name a generic one has",
      make: create({ name: "second-hook", service: "slack", url: "https://hooks.slack.com/services/T0/B0/x" }),
    },
    {
      what: "create an incidentio webhook (its body never answered)",
      make: create({
        name: "incidents",
        service: "incidentio",
        url: "https://api.incident.io/v2/alert_events/http/abc",
        headers: { Authorization: "Bearer k" },
        body: '{"title": "{{title}}"}',
      }),
    },
    { what: "create a webhook whose name is trimmed", make: create({ name: "  padded  ", ...generic }) },
    { what: "list a page of webhooks", make: () => ({ method: "GET", path: `${WEBHOOKS}?limit=1000&offset=0` }) },
    {
      what: "update a webhook with its whole body",
      needs: aWebhook,
      make: (_r, id) => ({
        method: "PUT",
        path: `${WEBHOOKS}/${id}`,
        body: { name: "renamed", ...generic, description: "moved", headers: { "X-Key": "k" } },
      }),
    },
    {
      what: "update a webhook that is gone",
      needs: aGoneWebhook,
      make: (_r, id) => ({ method: "PUT", path: `${WEBHOOKS}/${id}`, body: { name: "gone", ...generic } }),
      words: true,
    },
    {
      what: "rename a webhook to a name its service has",
      needs: aWebhook,
      make: (_r, id) => ({ method: "PUT", path: `${WEBHOOKS}/${id}`, body: { name: "second-hook", ...generic } }),
      words: true,
    },
    { what: "delete a webhook", needs: aWebhook, make: at("DELETE", WEBHOOKS) },
    {
      what: "delete a webhook already gone",
      needs: aGoneWebhook,
      make: at("DELETE", WEBHOOKS),
      words: true,
    },
    {
      what: "delete a webhook an alert still references",
      needs: aWebhookInUse,
      make: at("DELETE", WEBHOOKS),
      words: true,
    },
    {
      what: "read one webhook (there is no such path)",
      needs: aWebhook,
      make: at("GET", WEBHOOKS),
    },
    {
      what: "a second webhook of the same service and name",
      make: create({ name: "second-hook", service: "generic", url: "https://example.com/again" }),
      words: true,
    },
    refused("a slack webhook with headers", {
      service: "slack",
      url: "https://hooks.slack.com/services/x",
      headers: { A: "b" },
    }),
    refused("a slack webhook whose host is not slack.com", { service: "slack", url: "https://evilslack.com/x" }),
    refused("a url that is not a url", { url: "not a url" }),
    refused("a url that is not http or https", { url: "ftp://example.com/hook" }),
    refused("a url at a private address", { url: "http://10.1.2.3/hook" }),
    refused("a url at localhost", { url: "http://localhost:8080/hook" }),
    refused("no url", { url: undefined }),
    refused("a service not in the list", { service: "teams" }),
    refused("a header name that starts with a digit", { headers: { "1abc": "x" } }),
    refused("a header value with a control character", { headers: { A: "x\ny" } }),
    refused("a query parameter value with a control character", { queryParams: { a: "x\u0001" } }),
    { what: "a blank name", make: create({ name: "   ", ...generic }), words: true },
  ];
  return rows.map((row) => ({ ...row, make: withoutUndefined(row.make) }));
}

/** What the SavedSearch resource sends (issue 29), and what its check refuses, sent anyway. */
function savedSearchRows(): Row[] {
  const create =
    (body: Record<string, unknown>) =>
    (r: Refs): Request => ({ method: "POST", path: SEARCHES, body: { sourceId: r.sourceId, ...body } });
  const refused = (what: string, change: Record<string, unknown>): Row => ({
    what,
    make: create({ name: `refused ${what}`, where: "level:error", ...change }),
    words: true,
  });
  const rows: Row[] = [
    {
      what: "create a saved search, every field set",
      make: create({
        name: "slow queries",
        select: "Timestamp, Body",
        where: "Duration:>1000",
        whereLanguage: "lucene",
        orderBy: "Timestamp DESC",
        tags: ["perf"],
        filters: [{ type: "sql", condition: "ServiceName IN ('api', 'web')" }],
      }),
    },
    { what: "create a saved search of a name and a source (the defaults answered)", make: create({ name: "bare" }) },
    {
      what: "create a saved search in sql, a BETWEEN filter without a type",
      make: create({
        name: "sql errors",
        where: "SeverityText = 'error'",
        whereLanguage: "sql",
        filters: [{ condition: "Duration BETWEEN 1 AND 5" }],
      }),
    },
    { what: "read a saved search", needs: aSearch, make: at("GET", SEARCHES) },
    { what: "list a page of saved searches", make: () => ({ method: "GET", path: `${SEARCHES}?limit=1000&offset=0` }) },
    {
      what: "update a saved search with its whole body",
      needs: aSearch,
      make: (r, id) => ({
        method: "PUT",
        path: `${SEARCHES}/${id}`,
        body: { name: "renamed search", sourceId: r.sourceId, where: "level:warn", tags: ["a"] },
      }),
    },
    {
      what: "update a saved search that is gone",
      needs: aGoneSearch,
      make: (r, id) => ({ method: "PUT", path: `${SEARCHES}/${id}`, body: { name: "gone", sourceId: r.sourceId } }),
      words: true,
    },
    {
      what: "read a saved search that is gone",
      needs: aGoneSearch,
      make: at("GET", SEARCHES),
      words: true,
    },
    {
      what: "delete a saved search",
      needs: aSearch,
      make: at("DELETE", SEARCHES),
    },
    {
      what: "delete a saved search an alert watches",
      needs: aWatchedSearch,
      make: at("DELETE", SEARCHES),
    },
    {
      what: "read an alert whose saved search was deleted (it went with it)",
      needs: anAlertOfAGoneSearch,
      make: (_r, id) => ({ method: "GET", path: `/api/v2/alerts/${id}` }),
    },
    {
      what: "delete a saved search already gone",
      needs: aGoneSearch,
      make: at("DELETE", SEARCHES),
      words: true,
    },
    refused("a sourceId the team does not have", { sourceId: NOT_AN_ALERT }),
    refused("a sourceId that is not an ObjectId", { sourceId: "logs" }),
    refused("no sourceId", { sourceId: undefined }),
    refused("a whereLanguage other than lucene or sql", { whereLanguage: "kql" }),
    refused("a lucene filter", { filters: [{ type: "lucene", condition: "level:error" }] }),
    refused("an sql filter that is not IN or BETWEEN", { filters: [{ type: "sql", condition: "a = 1" }] }),
    refused("an sql_ast filter", { filters: [{ type: "sql_ast", operator: "=", left: "a", right: "1" }] }),
    refused("a blank name", { name: "  " }),
    refused("51 tags", { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
    refused("a tag of 33 characters", { tags: ["x".repeat(33)] }),
  ];
  return rows.map((row) => ({ ...row, make: withoutUndefined(row.make) }));
}

/** A row's request with the members set to undefined left out (a change that removes one). */
function withoutUndefined(make: Row["make"]): Row["make"] {
  return (r, id) => {
    const request = make(r, id);
    if (request.body === undefined) return request;
    return { ...request, body: Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined)) };
  };
}

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
  // a webhook's
  "service",
  "url",
  "description",
  "body",
  "headers",
  "queryParams",
  // a saved search's
  "sourceId",
  "select",
  "where",
  "whereLanguage",
  "orderBy",
  "tags",
  "filters",
];

const HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "x-total-count"];

/** `value` with each of the target's own ids put as the name of what it is, so both sides read alike. */
function named(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => named(v, ids));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, named(v, ids)]));
  return value;
}

/** What must agree between the two answers to one request; `words` adds the error's message. */
function comparable(answer: Answer, target: Target, made = "", words = false): Record<string, unknown> {
  const body = answer.body as { data?: unknown; message?: unknown } | undefined;
  const data = body?.data;
  const object = typeof data === "object" && data !== null && !Array.isArray(data) ? data : undefined;
  const { refs } = target;
  const ids = new Map([
    [refs.webhookId, "<webhook>"],
    [refs.secondHook, "<second webhook>"],
    [refs.savedSearchId, "<saved search>"],
    [refs.sourceId, "<source>"],
    ...(made === "" ? [] : [[made, "<made first>"] as const]),
  ]);
  return {
    status: answer.status,
    contentType: (answer.headers["content-type"] ?? "").split(";")[0],
    shape: shapeOf(answer.body),
    echoed:
      object === undefined
        ? undefined
        : named(
            Object.fromEntries(
              ECHOED.map((k) => [k, (object as Record<string, unknown>)[k]]).filter(([, v]) => v !== undefined),
            ),
            ids,
          ),
    ...(words ? { words: named(body?.message, ids) } : {}),
    headers: HEADERS.filter((h) => answer.headers[h] !== undefined),
  };
}

/** Sends the row's request to one target, making what it needs first; what must agree of the answer. */
async function answerOf(target: Target, row: Row, key = target.accessKey): Promise<Record<string, unknown>> {
  const made = row.needs === undefined ? "" : await row.needs(target);
  const request = row.make(target.refs, made);
  const answer = await paced(target, request.method, request.path, request.body, key);
  return comparable(answer, target, made, row.words === true);
}

describe("the real alerting service and the emulator's 2026 mode answer alike", () => {
  it.each(ROWS.filter((r) => r.kept === undefined).map((r) => [r.what, r] as const))("%s", async (_what, row) => {
    const fromReal = await answerOf(real, row);
    expect(await answerOf(emulated, row)).toEqual(fromReal);
  });

  it("refuse a key they do not know alike: 401 in plain text, the request counted", async () => {
    const row: Row = { what: "an unknown key", make: () => ({ method: "GET", path: "/api/v2/alerts" }) };
    const fromReal = await answerOf(real, row, "not-a-key");
    expect(fromReal).toMatchObject({ status: 401, contentType: "text/plain" });
    expect(await answerOf(emulated, row, "not-a-key")).toEqual(fromReal);
  });
});

describe("differences kept on purpose (docs/design/real-alerting-service.md)", () => {
  it.each(ROWS.filter((r) => r.kept !== undefined).map((r) => [r.what, r] as const))(
    "%s: the real service refuses it, the emulator does not",
    async (_what, row) => {
      expect((await answerOf(real, row)).status).toBe(400);
      expect((await answerOf(emulated, row)).status).toBe(200);
    },
  );
});

describe("the key's 101st request of a window", () => {
  /** Spends the target's window to its last request, then sends one more. */
  async function overTheLimit(target: Target): Promise<Answer> {
    for (;;) {
      const answer = await call(target, "GET", "/api/v2/alerts?limit=1");
      if (answer.headers["ratelimit-remaining"] === "0" || answer.status === 429) break;
    }
    return call(target, "GET", "/api/v2/alerts?limit=1");
  }

  // Last in the file: it spends the key's window.
  it("is refused alike: 429 as text, Retry-After a whole window", async () => {
    const fromReal = await overTheLimit(real);
    expect(fromReal).toMatchObject({ status: 429, headers: { "retry-after": "60" } });
    expect(comparable(await overTheLimit(emulated), emulated)).toEqual(comparable(fromReal, real));
  });
});
