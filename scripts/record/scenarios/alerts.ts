// Every request shape the Alert resource sends, and each validation failure its check guards
// against, sent anyway (the differential suite's alert rows).

import {
  ALERTS,
  NOT_AN_ALERT,
  aGoneAlert,
  aGoneWebhook,
  anAlert,
  createWith,
  hook,
  rowsScenario,
  searchAlert,
  tile,
  type Row,
} from "./rows";

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
  { what: "read an alert", needs: anAlert, make: (_r, id) => ({ method: "GET", path: `${ALERTS}/${id}` }) },
  { what: "list a page of alerts", make: () => ({ method: "GET", path: `${ALERTS}?limit=1000&offset=0` }) },
  {
    what: "update an alert with its whole body, the name removed",
    needs: anAlert,
    make: (r, id) => ({ method: "PUT", path: `${ALERTS}/${id}`, body: { ...tile(r), threshold: 9, name: undefined } }),
  },
  {
    what: "update an alert that is gone",
    make: (r) => ({ method: "PUT", path: `${ALERTS}/${NOT_AN_ALERT}`, body: tile(r) }),
  },
  { what: "delete an alert", needs: anAlert, make: (_r, id) => ({ method: "DELETE", path: `${ALERTS}/${id}` }) },
  {
    what: "delete an alert already gone",
    needs: aGoneAlert,
    make: (_r, id) => ({ method: "DELETE", path: `${ALERTS}/${id}` }),
  },
  { what: "read an alert that is gone", make: () => ({ method: "GET", path: `${ALERTS}/${NOT_AN_ALERT}` }) },
  // What the provider asks to learn the spelling of `source` (provider/alert/dialect.ts).
  { what: "ask the API's version and the key's user", make: () => ({ method: "GET", path: "/api/v2" }) },
  {
    what: "read an import id that is not an ObjectId",
    make: () => ({ method: "GET", path: `${ALERTS}/not-an-object-id` }),
  },
  {
    what: "read an import id of 12 characters (an ObjectId to the service)",
    make: () => ({ method: "GET", path: `${ALERTS}/twelve-chars` }),
    deliberate: true,
  },
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
      path: `${ALERTS}/${id}`,
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
  {
    what: "a member the alert does not have (the check refuses it)",
    make: createWith({ colour: "red" }),
    deliberate: true,
  },
  // What an alert refers to, looked up in the key's own team (validateAlertInput).
  { what: "a webhook that does not exist", make: createWith({ channel: hook(NOT_AN_ALERT) }), words: true },
  {
    what: "a second channel whose webhook does not exist",
    make: createWith((r) => ({ channels: [hook(r.webhookId), hook(NOT_AN_ALERT)] })),
    words: true,
  },
  {
    what: "a webhook deleted since",
    needs: (s) => aGoneWebhook(s),
    make: (r, id) => createWith({ channel: hook(id) })(r),
  },
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
    make: (r, id) => ({ method: "PUT", path: `${ALERTS}/${id}`, body: { ...tile(r), channel: hook(NOT_AN_ALERT) } }),
    words: true,
  },
  {
    what: "update an alert that is gone, naming a webhook that does not exist",
    make: (r) => ({
      method: "PUT",
      path: `${ALERTS}/${NOT_AN_ALERT}`,
      body: { ...tile(r), channel: hook(NOT_AN_ALERT) },
    }),
    words: true,
  },
  {
    what: "a dashboard that does not exist",
    make: createWith({ dashboardId: NOT_AN_ALERT }),
    kept: "the emulator keeps no dashboards or tiles",
  },
];

export const alerts = rowsScenario(
  "alerts",
  "Every request shape the Alert resource sends, and each validation failure its check guards against, sent anyway.",
  "alerts",
  ROWS,
);
