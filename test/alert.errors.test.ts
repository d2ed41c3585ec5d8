import { errors as undiciErrors } from "undici";
import { beforeEach, describe, expect, it } from "vitest";
import * as provider from "../provider/alert/provider";
import { ApiError, OutcomeUnknownError } from "../provider/http/errors";
import { CANARY, errorText, mockApiPerTest } from "./support/mockApi";
import { failure } from "./support/failures";
import { ALERT_ID, ALERTS_PATH as COLLECTION, ALERT_PATH as ITEM, tileAlert } from "./support/fixtures";

const inputs = tileAlert;
const outputs = { ...inputs, state: "inactive", team: "team-7" };

const mock = mockApiPerTest();
let posts: number;

beforeEach(() => {
  posts = 0;
});

/** Answers `times` requests with a JSON body. */
function answerJson(method: string, path: string, status: number, body: unknown, times = 1) {
  mock.api.alerting
    .intercept({ path, method })
    .reply(() => {
      if (method === "POST") posts++;
      return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { "content-type": "application/json" } } };
    })
    .times(times);
}

function answerText(method: string, path: string, status: number, text: string) {
  mock.api.alerting.intercept({ path, method }).reply(status, text, { headers: { "content-type": "text/plain" } });
}

describe("Alert API errors", () => {
  it("name the method, path, status and the service's {message}", async () => {
    answerJson("POST", COLLECTION, 400, { message: "interval is not a valid duration" });
    const err = await failure(provider.create(inputs));
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toContain("POST /api/v2/alerts");
    expect(String(err)).toContain("status 400");
    expect(String(err)).toContain("interval is not a valid duration");
  });

  it("carry a plain-text body as the service's message", async () => {
    answerText("PUT", ITEM, 422, "threshold must be below 1000000");
    const err = await failure(provider.update(ALERT_ID, outputs, inputs));
    expect(String(err)).toContain(`PUT ${ITEM}`);
    expect(String(err)).toContain("status 422");
    expect(String(err)).toContain("threshold must be below 1000000");
  });

  it("of read name GET and the item path", async () => {
    answerJson("GET", ITEM, 403, { message: "forbidden for this team" });
    const err = await failure(provider.read(ALERT_ID, outputs));
    expect(String(err)).toContain(`GET ${ITEM} failed with status 403: forbidden for this team`);
  });

  it("of delete name DELETE and the item path", async () => {
    answerJson("DELETE", ITEM, 409, { message: "alert is firing" });
    const err = await failure(provider.delete(ALERT_ID, outputs));
    expect(String(err)).toContain(`DELETE ${ITEM} failed with status 409: alert is firing`);
  });

  it("never carry the token, even when the service echoes it", async () => {
    answerJson("POST", COLLECTION, 401, { message: `invalid token ${CANARY.token}` });
    const err = await failure(provider.create(inputs));
    expect(String(err)).toContain("status 401");
    expect(errorText(err)).not.toContain(CANARY.token);
  });

  it("never carry the token in a plain-text answer either", async () => {
    answerText("DELETE", ITEM, 401, `Bearer ${CANARY.token} is not accepted`);
    const err = await failure(provider.delete(ALERT_ID, outputs));
    expect(errorText(err)).not.toContain(CANARY.token);
  });
});

describe("Alert create whose outcome is unknown", () => {
  it("on a 503 stops after exactly one POST and says the named alert may have been created", async () => {
    answerJson("POST", COLLECTION, 503, { message: "upstream unavailable" }, 2);
    const err = await failure(provider.create(inputs));
    expect(posts).toBe(1);
    expect(mock.api.agent.pendingInterceptors()).toHaveLength(1); // the second answer was never asked for
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(String(err)).toContain("POST /api/v2/alerts");
    expect(String(err)).toContain('the alert "High CPU" may have been created');
    expect(errorText(err)).not.toContain(CANARY.token);
  });

  it("on a cut connection stops after exactly one POST and says the alert may have been created", async () => {
    mock.api.alerting
      .intercept({ path: COLLECTION, method: "POST" })
      .reply(() => {
        posts++;
        throw new undiciErrors.SocketError("other side closed");
      })
      .times(2);
    const err = await failure(provider.create(inputs));
    expect(posts).toBe(1);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(String(err)).toContain('the alert "High CPU" may have been created');
  });

  it("names an unnamed tile alert by dashboard and tile", async () => {
    answerJson("POST", COLLECTION, 503, { message: "upstream unavailable" });
    const { name: _n, ...unnamed } = inputs;
    const err = await failure(provider.create(unnamed));
    expect(String(err)).toContain('the alert "dash-1/tile-1" may have been created');
  });

  it("is not what a plain 400 gives: that is an ordinary API error", async () => {
    answerJson("POST", COLLECTION, 400, { message: "bad channel" });
    const err = await failure(provider.create(inputs));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
  });
});

describe("Alert reads and deletes, which may be repeated", () => {
  it("retry a 503 on GET and succeed", async () => {
    answerJson("GET", ITEM, 503, { message: "busy" });
    answerJson("GET", ITEM, 200, {
      data: { id: ALERT_ID, threshold: 90, interval: "5m", thresholdType: "above", source: "tile", channel: { type: "webhook", webhookId: "hook-1" } },
    });
    const result = await provider.read(ALERT_ID, outputs);
    expect(result.id).toBe(ALERT_ID);
    mock.api.agent.assertNoPendingInterceptors();
  });
});
