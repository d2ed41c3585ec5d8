// The differential suite's rows (test/real/differential.test.ts before issue 36), as recorder rows:
// what a row needs made first (setup), then its one request (the row).

import type { Scenario } from "../scenario";
import type { Session } from "../session";
import { makeReferents, type Refs } from "./referents";

export interface Request {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  readonly path: string;
  readonly body?: Record<string, unknown>;
}

export interface Row {
  readonly what: string;
  /** What the row needs made first: its id, for `make`. */
  readonly needs?: (s: Session, r: Refs) => Promise<string>;
  readonly make: (r: Refs, made: string) => Request;
  readonly words?: true;
  readonly kept?: string;
  /** Sent wrong on purpose though the server does not answer 400 (a path it has no route or id for). */
  readonly deliberate?: true;
}

export const NOT_AN_ALERT = "0123456789abcdef01234567";
export const ALERTS = "/api/v2/alerts";
export const WEBHOOKS = "/api/v2/webhooks";
export const SEARCHES = "/api/v2/saved-searches";

/** The body with members set to undefined left out. */
export function defined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export async function runRows(s: Session, r: Refs, rows: readonly Row[]): Promise<void> {
  for (const row of rows) {
    const made = row.needs === undefined ? "" : await row.needs(s, r);
    const q = row.make(r, made);
    await s.row(row.what, q.method, q.path, q.body === undefined ? undefined : defined(q.body), {
      ...(row.words === undefined ? {} : { words: true }),
      ...(row.kept === undefined ? {} : { kept: row.kept }),
      ...(row.deliberate === undefined ? {} : { deliberate: true }),
    });
  }
}

/** What the Alert resource sends for a tile alert, every optional argument set. */
export const tile = (r: Refs): Record<string, unknown> => ({
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

export const hook = (webhookId: string) => ({ type: "webhook", webhookId });

/** A search alert as the real service spells it. */
export const searchAlert = (r: Refs): Record<string, unknown> => ({
  source: "saved_search",
  savedSearchId: r.savedSearchId,
  dashboardId: undefined,
  tileId: undefined,
});

type Change = Record<string, unknown> | ((r: Refs) => Record<string, unknown>);

/** A create whose body is a tile alert's with `change` applied (undefined removes a member). */
export const createWith =
  (change: Change) =>
  (r: Refs): Request => ({
    method: "POST",
    path: ALERTS,
    body: defined({ ...tile(r), ...(typeof change === "function" ? change(r) : change) }),
  });

export const at =
  (method: Request["method"], path: string) =>
  (_r: Refs, id: string): Request => ({ method, path: `${path}/${id}` });

/** The n-th object a row's setup made in this session: names stay the same on every recording. */
const counts = new WeakMap<Session, number>();
const nth = (s: Session) => {
  const n = (counts.get(s) ?? 0) + 1;
  counts.set(s, n);
  return n;
};
const setupId = async (s: Session, what: string, path: string, body: unknown) =>
  s.id(await s.setup(what, "POST", path, body));
const gone = async (s: Session, path: string, id: string) => {
  await s.setup("delete it", "DELETE", `${path}/${id}`);
  return id;
};

export const anAlert = (s: Session, r: Refs) => setupId(s, "an alert", ALERTS, tile(r));
export const aGoneAlert = async (s: Session, r: Refs) => gone(s, ALERTS, await anAlert(s, r));
export const aWebhook = (s: Session) =>
  setupId(s, "a webhook", WEBHOOKS, { name: `made-${nth(s)}`, service: "generic", url: "https://example.com/m" });
export const aGoneWebhook = async (s: Session) => gone(s, WEBHOOKS, await aWebhook(s));
export const aWebhookInUse = async (s: Session, r: Refs) => {
  const id = await aWebhook(s);
  await s.setup("an alert on it", "POST", ALERTS, { ...tile(r), channel: hook(id) });
  return id;
};
export const aSearch = (s: Session, r: Refs) =>
  setupId(s, "a saved search", SEARCHES, { name: `made-${nth(s)}`, sourceId: r.sourceId, where: "a:b" });
export const aGoneSearch = async (s: Session, r: Refs) => gone(s, SEARCHES, await aSearch(s, r));
const searchAndAlert = async (s: Session, r: Refs): Promise<[string, string]> => {
  const search = await aSearch(s, r);
  const body = createWith((rr) => ({ ...searchAlert(rr), savedSearchId: search }))(r).body;
  return [search, await setupId(s, "an alert on it", ALERTS, body)];
};
export const aWatchedSearch = async (s: Session, r: Refs) => (await searchAndAlert(s, r))[0];
export const anAlertOfAGoneSearch = async (s: Session, r: Refs) => {
  const [search, alert] = await searchAndAlert(s, r);
  await gone(s, SEARCHES, search);
  return alert;
};

/** A scenario of rows, sent after makeReferents(s, tag) has made what they refer to. */
export function rowsScenario(name: string, about: string, tag: string, rows: readonly Row[]): Scenario {
  return { name, about, run: async (s) => runRows(s, await makeReferents(s, tag), rows) };
}
