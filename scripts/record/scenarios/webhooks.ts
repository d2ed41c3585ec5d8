// What the Webhook resource sends (issue 29), and what its check refuses, sent anyway.

import { WEBHOOKS, aGoneWebhook, aWebhook, aWebhookInUse, at, rowsScenario, type Request, type Row } from "./rows";

const TAG = "webhooks";
const SECOND = `second-hook-${TAG}`;
const create = (body: Record<string, unknown>) => (): Request => ({ method: "POST", path: WEBHOOKS, body });
const generic = { service: "generic", url: "https://example.com/hooks/ops" };
const refused = (what: string, change: Record<string, unknown>): Row => ({
  what,
  make: create({ name: `refused ${what}`, ...generic, ...change }),
  words: true,
});

const ROWS: Row[] = [
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
    make: create({ name: SECOND, service: "slack", url: "https://hooks.slack.com/services/T0/B0/x" }),
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
    make: (_r, id) => ({ method: "PUT", path: `${WEBHOOKS}/${id}`, body: { name: SECOND, ...generic } }),
    words: true,
  },
  { what: "delete a webhook", needs: aWebhook, make: at("DELETE", WEBHOOKS) },
  { what: "delete a webhook already gone", needs: aGoneWebhook, make: at("DELETE", WEBHOOKS), words: true },
  {
    what: "delete a webhook an alert still references",
    needs: aWebhookInUse,
    make: at("DELETE", WEBHOOKS),
    words: true,
  },
  { what: "read one webhook (there is no such path)", needs: aWebhook, make: at("GET", WEBHOOKS), deliberate: true },
  {
    what: "a second webhook of the same service and name",
    make: create({ name: SECOND, service: "generic", url: "https://example.com/again" }),
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

export const webhooks = rowsScenario(
  "webhooks",
  "What the Webhook resource sends, and what its check refuses, sent anyway; the 409 of a webhook still referenced.",
  TAG,
  ROWS,
);
