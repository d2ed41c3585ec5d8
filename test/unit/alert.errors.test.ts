import { describe, expect, it } from "vitest";
import * as provider from "../../provider/alert/provider";
import { ApiError } from "../../provider/errors";
import { CANARY, answerOnce, errorText, mockApiPerTest, readByGetPerTest } from "../support/mockApi";
import { failure } from "../support/failures";
import { unknownCreateTests } from "../support/unknownCreate";
import { ALERT_ID, ALERTS_PATH as COLLECTION, ALERT_PATH as ITEM, tileAlert } from "../support/fixtures";

const inputs = tileAlert;
const outputs = { ...inputs, state: "inactive", team: "team-7" };

const mock = mockApiPerTest();
const seen = mock.seen;

/** Answers one request; a string `data` as plain text, anything else as JSON. */
function answer(method: string, path: string, status: number, data: unknown) {
  answerOnce(mock.api.alerting, seen, { method, path }, status, data);
}

describe("Alert API errors", () => {
  readByGetPerTest();
  it("name the method, path, status and the service's {message}", async () => {
    answer("POST", COLLECTION, 400, { message: "interval is not a valid duration" });
    const err = await failure(provider.create(inputs));
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toContain("POST /api/v2/alerts");
    expect(String(err)).toContain("status 400");
    expect(String(err)).toContain("interval is not a valid duration");
  });

  it("carry a plain-text body as the service's message", async () => {
    answer("PUT", ITEM, 422, "threshold must be below 1000000");
    const err = await failure(provider.update(ALERT_ID, outputs, inputs));
    expect(String(err)).toContain(`PUT ${ITEM}`);
    expect(String(err)).toContain("status 422");
    expect(String(err)).toContain("threshold must be below 1000000");
  });

  it("of read name GET and the item path", async () => {
    answer("GET", ITEM, 403, { message: "forbidden for this team" });
    const err = await failure(provider.read(ALERT_ID, outputs));
    expect(String(err)).toContain(`GET ${ITEM} failed with status 403: forbidden for this team`);
  });

  it("of delete name DELETE and the item path", async () => {
    answer("DELETE", ITEM, 409, { message: "alert is firing" });
    const err = await failure(provider.delete(ALERT_ID, outputs));
    expect(String(err)).toContain(`DELETE ${ITEM} failed with status 409: alert is firing`);
  });

  it("never carry the token, even when the service echoes it", async () => {
    answer("POST", COLLECTION, 401, { message: `invalid token ${CANARY.token}` });
    const err = await failure(provider.create(inputs));
    expect(String(err)).toContain("status 401");
    expect(errorText(err)).not.toContain(CANARY.token);
  });

  it("never carry the token in a plain-text answer either", async () => {
    answer("DELETE", ITEM, 401, `Bearer ${CANARY.token} is not accepted`);
    const err = await failure(provider.delete(ALERT_ID, outputs));
    expect(errorText(err)).not.toContain(CANARY.token);
  });
});

describe("Alert create whose outcome is unknown", () => {
  unknownCreateTests({
    mock,
    area: "alerting",
    path: COLLECTION,
    unavailable: { message: "upstream unavailable" },
    badRequest: { message: "bad channel" },
    create: () => provider.create(inputs),
    named: 'the alert "High CPU"',
    what: "alert",
    credential: { name: "token", value: CANARY.token },
  });

  it("names an unnamed tile alert by dashboard and tile", async () => {
    answer("POST", COLLECTION, 503, { message: "upstream unavailable" });
    const { name: _n, ...unnamed } = inputs;
    const err = await failure(provider.create(unnamed));
    expect(String(err)).toContain('the alert "dash-1/tile-1" may have been created');
  });
});

describe("Alert reads and deletes, which may be repeated", () => {
  readByGetPerTest();
  it("retry a 503 on GET and succeed", async () => {
    answer("GET", ITEM, 503, { message: "busy" });
    answer("GET", ITEM, 200, {
      data: {
        id: ALERT_ID,
        threshold: 90,
        interval: "5m",
        thresholdType: "above",
        source: "tile",
        channel: { type: "webhook", webhookId: "hook-1" },
      },
    });
    const result = await provider.read(ALERT_ID, outputs);
    expect(result.id).toBe(ALERT_ID);
    mock.api.agent.assertNoPendingInterceptors();
  });
});
