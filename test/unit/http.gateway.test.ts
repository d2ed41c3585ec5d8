// Managed ClickStack at the wire: the alerting API's paths under the service's /clickstack, the
// cloud envelope read as `{data}` (a list's bare array too), the cloud error's words and requestId,
// an HTML 404 as a route not served (never gone), and an alert's one channel.

import { describe, expect, it } from "vitest";
import { send } from "../../provider/http/client";
import { gatewayAnswer, gatewayPath } from "../../provider/http/gateway";
import { isNotFound, unlessGone } from "../../provider/http/gone";
import { listPaged } from "../../provider/reading/pagedList";
import { connectionFor, type AreaConnection } from "../../provider/runtime/connection";
import { ApiError, RouteNotServedError } from "../../provider/errors";
import { fromWire, toWire } from "../../provider/alert/wire";
import * as alert from "../../provider/alert/provider";
import {
  CLICKSTACK_ORG,
  CLICKSTACK_SVC,
  CLOUD_AUTH,
  cloudAnswer,
  managedClickStackPerTest,
  mockApiPerTest,
  requestId,
  type SeenRequest,
} from "../support/mockApi";
import { checkFailures } from "../support/failures";
import { searchAlert } from "../support/fixtures";

const ORG = CLICKSTACK_ORG;
const SVC = CLICKSTACK_SVC;
const PREFIX = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;
const HTML_404 = "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>nginx</body></html>";

const mock = mockApiPerTest();

managedClickStackPerTest();

function managed(): AreaConnection {
  return connectionFor("alerting");
}

function answer(method: string, path: string, status: number, body: unknown, type = "application/json"): void {
  mock.api.cloud.intercept({ method, path }).reply((opts) => {
    const seen: SeenRequest = {
      method: opts.method,
      path: opts.path,
      headers: opts.headers as Record<string, string>,
      body: typeof opts.body === "string" ? JSON.parse(opts.body) : undefined,
    };
    mock.seen.push(seen);
    return {
      statusCode: status,
      data: typeof body === "string" ? body : JSON.stringify(body),
      responseOptions: { headers: { "content-type": type } },
    };
  });
}

describe("the gateway's paths", () => {
  it("puts an alerting path under the service's /clickstack, query kept", () => {
    const conn = managed();
    expect(gatewayPath(conn, "/api/v2/alerts")).toBe(`${PREFIX}/alerts`);
    expect(gatewayPath(conn, "/api/v2/saved-searches/abc")).toBe(`${PREFIX}/saved-searches/abc`);
    expect(gatewayPath(conn, "/api/v2/webhooks?limit=1000&offset=0")).toBe(`${PREFIX}/webhooks?limit=1000&offset=0`);
    // A resource added later (dashboards, sources) is routed the same way.
    expect(gatewayPath(conn, "/api/v2/dashboards/d1")).toBe(`${PREFIX}/dashboards/d1`);
  });

  it("leaves a self-hosted connection's paths as they are", () => {
    delete process.env.ALERTPIPE_CLICKSTACK_ORGANIZATION_ID;
    delete process.env.ALERTPIPE_CLICKSTACK_SERVICE_ID;
    process.env.ALERTPIPE_ALERTING_URL = "https://alerts.example.test";
    process.env.ALERTPIPE_ALERTING_TOKEN = "tok-CANARY-self";
    expect(gatewayPath(connectionFor("alerting"), "/api/v2/alerts")).toBe("/api/v2/alerts");
  });

  it("sends Basic auth of the cloud key to the cloud origin", async () => {
    answer("GET", `${PREFIX}/alerts/a1`, 200, cloudAnswer({ id: "a1" }));
    await send(managed(), { method: "GET", path: "/api/v2/alerts/a1" });
    expect(mock.seen[0]?.headers.authorization).toBe(CLOUD_AUTH);
  });
});

describe("the cloud envelope", () => {
  it("reads `result` as `data`, keeping the requestId", () => {
    const conn = managed();
    expect(gatewayAnswer(conn, { status: 200, requestId: "r1", result: { id: "a1" } })).toEqual({
      data: { id: "a1" },
      requestId: "r1",
    });
    expect(gatewayAnswer(conn, { status: 200, requestId: "r1", result: [{ id: "a1" }] })).toEqual({
      data: [{ id: "a1" }],
      requestId: "r1",
    });
    expect(gatewayAnswer(conn, { status: 200, requestId: "r1" })).toEqual({ status: 200, requestId: "r1" });
  });

  it("names the service's `error` words and requestId in an error", async () => {
    answer("PUT", `${PREFIX}/alerts/a1`, 400, { status: 400, error: "threshold: Expected number", requestId: "rq-9" });
    const err = await send(managed(), { method: "PUT", path: "/api/v2/alerts/a1", body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toContain(`PUT ${PREFIX}/alerts/a1 failed with status 400: threshold: Expected number`);
    expect(String(err)).toContain("requestId rq-9");
  });

  it("reads a bare-array list page by page until a short page", async () => {
    const page = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `a${from + i}` }));
    answer("GET", `${PREFIX}/alerts?limit=2&offset=0`, 200, cloudAnswer(page(0, 2)));
    answer("GET", `${PREFIX}/alerts?limit=2&offset=2`, 200, cloudAnswer(page(2, 2)));
    answer("GET", `${PREFIX}/alerts?limit=2&offset=4`, 200, cloudAnswer(page(4, 1)));
    const all = await listPaged(managed(), "/api/v2/alerts", 2);
    expect([...all.keys()]).toEqual(["a0", "a1", "a2", "a3", "a4"]);
    expect(mock.seen).toHaveLength(3);
  });
});

describe("a 404", () => {
  it("as an HTML page is a route the gateway does not serve: said so, and never gone", async () => {
    answer("GET", `${PREFIX}/alerts/a1`, 404, HTML_404, "text/html");
    const err = await unlessGone(() => send(managed(), { method: "GET", path: "/api/v2/alerts/a1" })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RouteNotServedError);
    expect(isNotFound(err)).toBe(false);
    expect(String(err)).toContain("serves no such route");
    expect(String(err)).toContain("alertpipe:clickstackServiceId");
  });

  it("as the cloud API's JSON is the object gone", async () => {
    answer("GET", `${PREFIX}/alerts/a1`, 404, { status: 404, error: "Alert not found", requestId: requestId() });
    expect(await unlessGone(() => send(managed(), { method: "GET", path: "/api/v2/alerts/a1" }))).toBeUndefined();
  });

  it("as an HTML page is not a retried DELETE's success", async () => {
    answer("DELETE", `${PREFIX}/alerts/a1`, 503, { status: 503, error: "busy", requestId: requestId() });
    answer("DELETE", `${PREFIX}/alerts/a1`, 404, HTML_404, "text/html");
    await expect(send(managed(), { method: "DELETE", path: "/api/v2/alerts/a1" })).rejects.toBeInstanceOf(
      RouteNotServedError,
    );
  });

  it("as an HTML page from a self-hosted alerting API stays what it was (not the cloud gateway's)", async () => {
    delete process.env.ALERTPIPE_CLICKSTACK_ORGANIZATION_ID;
    delete process.env.ALERTPIPE_CLICKSTACK_SERVICE_ID;
    process.env.ALERTPIPE_ALERTING_URL = "https://alerts.example.test";
    process.env.ALERTPIPE_ALERTING_TOKEN = "tok-CANARY-self";
    mock.api.alerting
      .intercept({ method: "GET", path: "/api/v2/alerts/a1" })
      .reply(404, HTML_404, { headers: { "content-type": "text/html" } });
    const err = await send(connectionFor("alerting"), { method: "GET", path: "/api/v2/alerts/a1" }).catch(
      (e: unknown) => e,
    );
    expect(err).not.toBeInstanceOf(RouteNotServedError);
    expect(isNotFound(err)).toBe(true);
  });
});

describe("an alert's channels on managed ClickStack", () => {
  const hook = (webhookId: string) => ({ type: "webhook", webhookId });

  it("sends a list of one as `channel`, never `channels`", () => {
    const args = { ...searchAlert, channel: undefined, channels: [hook("h1")] };
    const body = toWire(args as never, "2026", true);
    expect(body.channel).toEqual(hook("h1"));
    expect(body).not.toHaveProperty("channels");
  });

  it("sends `channel` alone when both are set", () => {
    const body = toWire({ ...searchAlert, channels: [hook("hook-1")] } as never, "2026", true);
    expect(body.channel).toEqual(hook("hook-1"));
    expect(body).not.toHaveProperty("channels");
  });

  it("keeps `channels` for a self-hosted service", () => {
    const body = toWire({ ...searchAlert, channels: [hook("hook-1")] } as never, "2026", false);
    expect(body.channels).toEqual([hook("hook-1")]);
  });

  it("fails the check for more than one, naming channels and the connection", async () => {
    const failures = await checkFailures(alert.check)({
      ...searchAlert,
      savedSearchId: "ss-1",
      channel: undefined,
      channels: [hook("h1"), hook("h2")],
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe("channels");
    expect(failures[0]?.reason).toContain("alertpipe:clickstackOrganizationId");
    expect(failures[0]?.reason).toContain("one channel per alert");
  });

  it("asks for savedSearchId on a search alert, as HyperDX does", async () => {
    const failures = await checkFailures(alert.check)(searchAlert);
    expect(failures.map((f) => f.property)).toEqual(["savedSearchId"]);
    expect(failures[0]?.reason).toContain("managed ClickStack");
  });
});

describe("managed ClickStack's channel shapes", () => {
  const email = ["oncall@example.com", "sre@example.com"];
  const managedAlert = { ...searchAlert, savedSearchId: "ss-1" };

  it("sends emailRecipients as the one channel {type: email, emailRecipients}", () => {
    const body = toWire({ ...managedAlert, channel: undefined, emailRecipients: email } as never, "2026", true);
    expect(body.channel).toEqual({ type: "email", emailRecipients: email });
    expect(body).not.toHaveProperty("emailRecipients");
  });

  it("reads an email channel back as emailRecipients, with no channel", () => {
    const state = fromWire({ ...managedAlert, channel: { type: "email", emailRecipients: email } });
    expect(state.emailRecipients).toEqual(email);
    expect(state.channel).toBeUndefined();
  });

  it("sends a webhook channel's webhookService, slackChannelId and severity as they are", () => {
    const channel = {
      type: "webhook",
      webhookId: "65f5e4a3b9e77c001a789012",
      webhookService: "pagerduty_api",
      severity: "critical",
    };
    expect(toWire({ ...managedAlert, channel } as never, "2026", true).channel).toEqual(channel);
  });

  it("sees a changed severity as a change", async () => {
    const olds = { ...managedAlert, channel: { type: "webhook", webhookId: "h1", severity: "critical" } };
    const news = { ...managedAlert, channel: { type: "webhook", webhookId: "h1", severity: "info" } };
    expect((await alert.diff("a1", olds, news)).changes).toBe(true);
  });

  it("takes emailRecipients alone, and refuses it beside channel, naming emailRecipients", async () => {
    expect(await checkFailures(alert.check)({ ...managedAlert, channel: undefined, emailRecipients: email })).toEqual(
      [],
    );
    const both = await checkFailures(alert.check)({ ...managedAlert, emailRecipients: email });
    expect(both.map((f) => f.property)).toEqual(["emailRecipients"]);
  });

  it("refuses them on a self-hosted connection, naming each property", async () => {
    delete process.env.ALERTPIPE_CLICKSTACK_ORGANIZATION_ID;
    delete process.env.ALERTPIPE_CLICKSTACK_SERVICE_ID;
    process.env.ALERTPIPE_ALERTING_URL = "https://alerts.example.test";
    process.env.ALERTPIPE_ALERTING_TOKEN = "tok-CANARY-self";
    const failures = await checkFailures(alert.check)({
      ...searchAlert,
      channel: undefined,
      channels: [{ type: "webhook", webhookId: "h1", severity: "critical", slackChannelId: "C01" }],
    });
    expect(failures.map((f) => f.property)).toEqual(["channels[0].slackChannelId", "channels[0].severity"]);
    expect(failures[0]?.reason).toContain("managed ClickStack only");
    const mailed = await checkFailures(alert.check)({ ...searchAlert, channel: undefined, emailRecipients: email });
    expect(mailed.map((f) => f.property)).toEqual(["emailRecipients"]);
  });
});
