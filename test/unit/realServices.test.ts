// Issue 8: the provider against fakes answering as the real services do where the contract is
// silent (docs/design/real-services.md): members of any shape, empty 2xx bodies, error bodies of
// every shape, the 424 of an idle service, and 429s asking for waits longer than the retry budget.

import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { connectionFor } from "../../provider/runtime/connection";
import { send } from "../../provider/http/client";
import { EXCERPT_CHARS } from "../../provider/http/serviceWords";
import { useRuntime } from "../../provider/runtime/runtime";
import { ApiError, RateLimitWaitError } from "../../provider/errors";
import {
  answerOnce,
  CANARY,
  cloudAnswer,
  errorText,
  mockApiPerTest,
  requestId,
  readByGetPerTest,
} from "../support/mockApi";
import {
  ALERT_ID,
  ALERTS_PATH as ALERTS,
  KEY_UUID,
  KEYS_PATH as KEYS,
  ORG_ID as ORG,
  PIPE_IDS,
  PIPE_RESOURCE_ID,
  SETTINGS_PATH as SETTINGS,
  searchAlert,
} from "../support/fixtures";
import { failure } from "../support/failures";

const mock = mockApiPerTest();
const seen = mock.seen;

const alertArgs = { ...searchAlert, threshold: 300, name: "lag" };
const silencedObject = { by: "someone@example.com", at: "2026-11-20T10:00:00.000Z", until: "2026-11-21T10:00:00.000Z" };
const realAlert = (extra: Record<string, unknown> = {}) => ({
  id: ALERT_ID,
  name: "lag",
  message: null,
  threshold: 300,
  interval: "5m",
  thresholdType: "above",
  source: "search",
  state: "OK",
  channel: { type: "webhook", webhookId: "hook-1" },
  team: "team-1",
  createdAt: "2026-11-20T09:00:00.000Z",
  updatedAt: "2026-11-20T09:00:00.000Z",
  ...extra,
});

describe("liberal answers: Alert", () => {
  readByGetPerTest();
  it.each([
    ["absent", undefined],
    ["a boolean", true],
    ["an object (silenced in the UI)", silencedObject],
    ["null", null],
  ])("create, read and update take silenced when it is %s, keeping it as it came", async (_label, silenced) => {
    const body = { data: realAlert(silenced === undefined ? {} : { silenced }) };
    answerOnce(mock.api.alerting, seen, { method: "POST", path: ALERTS }, 200, body);
    answerOnce(mock.api.alerting, seen, { method: "GET", path: `${ALERTS}/${ALERT_ID}` }, 200, body);
    answerOnce(mock.api.alerting, seen, { method: "PUT", path: `${ALERTS}/${ALERT_ID}` }, 200, body);
    const { outs } = await alert.create(alertArgs);
    const read = await alert.read(ALERT_ID, outs);
    const updated = await alert.update(ALERT_ID, outs, alertArgs);
    for (const props of [outs, read.props, updated.outs]) {
      if (silenced === undefined || silenced === null) expect(props).not.toHaveProperty("silenced");
      else expect(props?.silenced).toEqual(silenced);
    }
  });

  describe("a create answered with later member names, a state of its own, unknown members and no message", () => {
    const { team: _t, ...withoutTeam } = realAlert();
    const later = {
      data: {
        ...withoutTeam,
        state: "INSUFFICIENT_DATA",
        teamId: "team-9",
        savedSearchId: "ss-1",
        scheduleOffsetMinutes: 5,
        channels: [{}],
      },
    };

    it("takes any state string", async () => {
      answerOnce(mock.api.alerting, seen, { method: "POST", path: ALERTS }, 200, later);
      const { outs } = await alert.create(alertArgs);
      expect(outs).toMatchObject({ state: "INSUFFICIENT_DATA" });
    });

    it("takes teamId and savedSearchId as team and savedSearch", async () => {
      answerOnce(mock.api.alerting, seen, { method: "POST", path: ALERTS }, 200, later);
      const { outs } = await alert.create(alertArgs);
      expect(outs).toMatchObject({ team: "team-9", savedSearch: "ss-1" });
    });

    it("leaves out unknown members", async () => {
      answerOnce(mock.api.alerting, seen, { method: "POST", path: ALERTS }, 200, later);
      const { outs } = await alert.create(alertArgs);
      expect(outs).not.toHaveProperty("scheduleOffsetMinutes");
    });

    it("leaves out what is missing", async () => {
      answerOnce(mock.api.alerting, seen, { method: "POST", path: ALERTS }, 200, later);
      const { outs } = await alert.create(alertArgs);
      expect(outs).not.toHaveProperty("message");
    });
  });

  it("update answered 200 with no body keeps what the service filled in before", async () => {
    answerOnce(mock.api.alerting, seen, { method: "POST", path: ALERTS }, 200, { data: realAlert() });
    answerOnce(mock.api.alerting, seen, { method: "PUT", path: `${ALERTS}/${ALERT_ID}` }, 200, "");
    const { outs } = await alert.create(alertArgs);
    const { outs: after } = await alert.update(ALERT_ID, outs, { ...alertArgs, threshold: 400 });
    expect(after).toMatchObject({ threshold: 400, team: "team-1", createdAt: "2026-11-20T09:00:00.000Z", state: "OK" });
  });

  it("read answered 2xx without an alert keeps the stored outputs", async () => {
    answerOnce(mock.api.alerting, seen, { method: "GET", path: `${ALERTS}/${ALERT_ID}` }, 200, "OK");
    const stored = { ...alertArgs, state: "OK", team: "team-1" };
    expect((await alert.read(ALERT_ID, stored)).props).toMatchObject(stored);
  });

  it("delete answered with plain text is done", async () => {
    answerOnce(mock.api.alerting, seen, { method: "DELETE", path: `${ALERTS}/${ALERT_ID}` }, 200, "deleted");
    await expect(alert.delete(ALERT_ID, {})).resolves.toBeUndefined();
  });

  it.each([
    ["no data", { alert: realAlert() }],
    ["an empty id", { data: realAlert({ id: "" }) }],
    ["no body", ""],
  ])("a create answer with %s is the one broken answer: the alert may exist, say so", async (_label, body) => {
    answerOnce(mock.api.alerting, seen, { method: "POST", path: ALERTS }, 200, body);
    const err = await failure(alert.create(alertArgs));
    expect(String(err)).toContain("without the new object's id");
    expect(String(err)).toContain('the alert "lag" may have been created');
  });
});

describe("liberal answers: PipeSettings", () => {
  const args = { ...PIPE_IDS, dbMaxThreads: 8 };

  it("a GET that leaves out settings never set reads them as unset", async () => {
    answerOnce(mock.api.cloud, seen, { method: "GET", path: SETTINGS }, 200, {
      status: 200,
      requestId: requestId(),
      result: { db_max_threads: 8 },
    });
    const { props } = await pipeSettings.read(PIPE_RESOURCE_ID, { ...args, managedSettings: ["dbMaxThreads"] });
    expect(props).toMatchObject({ dbMaxThreads: 8, dbMaxInsertThreads: null, objectStorageUseClusterFunction: null });
  });

  it("a PUT answered 200 with no body takes the values sent", async () => {
    answerOnce(mock.api.cloud, seen, { method: "PUT", path: SETTINGS }, 200, "");
    const { outs } = await pipeSettings.create(args);
    expect(outs).toMatchObject({ dbMaxThreads: 8, dbMaxInsertThreads: null });
  });

  it("keeps a value of an unexpected shape as it came, and ignores unknown members", async () => {
    answerOnce(mock.api.cloud, seen, { method: "PUT", path: SETTINGS }, 200, {
      status: 200,
      requestId: requestId(),
      result: { db_max_threads: "8", some_new_setting: 1 },
    });
    const { outs } = await pipeSettings.create(args);
    expect(outs.dbMaxThreads).toBe("8");
    expect(outs).not.toHaveProperty("some_new_setting");
  });
});

describe("hashData keys", () => {
  const hashData = {
    keyIdHash: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=",
    keyIdSuffix: "0042",
    keySecretHash: "LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=",
  };
  const args = { organizationId: ORG, roles: ["developer"], name: "hashed", hashData };

  const createdWithoutCredentials = cloudAnswer({
    key: { id: KEY_UUID, name: "hashed", roles: ["developer"], keySuffix: "0042" },
  });

  it("create sends the hashData", async () => {
    answerOnce(mock.api.cloud, seen, { method: "POST", path: KEYS }, 200, createdWithoutCredentials);
    await apiKey.create(args);
    expect(seen[0]?.body).toMatchObject({ hashData });
  });

  it("create succeeds without keyId or keySecret in the answer, and the outputs have neither", async () => {
    answerOnce(mock.api.cloud, seen, { method: "POST", path: KEYS }, 200, createdWithoutCredentials);
    const { id, outs } = await apiKey.create(args);
    expect(id).toBe(KEY_UUID);
    expect(outs).not.toHaveProperty("keyId");
    expect(outs).not.toHaveProperty("keySecret");
    expect(outs).toMatchObject({ keySuffix: "0042", hashData });
  });

  it("takes the suffix from hashData when the answer leaves keySuffix out", async () => {
    answerOnce(
      mock.api.cloud,
      seen,
      { method: "POST", path: KEYS },
      200,
      cloudAnswer({ key: { id: KEY_UUID, roles: ["developer"] } }),
    );
    expect((await apiKey.create(args)).outs.keySuffix).toBe("0042");
  });
});

describe("every error tells why", () => {
  const shapes: Array<[string, unknown, string]> = [
    [
      "area B's {status, error, requestId}",
      { status: 400, error: "BAD_REQUEST: roles: at least one role", requestId: "rid-1" },
      "BAD_REQUEST: roles: at least one role",
    ],
    ["area A's {message}", { message: "interval is not valid" }, "interval is not valid"],
    [
      "an array of validation issues",
      [
        { path: ["name"], message: "too long" },
        { path: ["threshold"], message: "must be >= 0" },
      ],
      "name: too long; threshold: must be >= 0",
    ],
    [
      "an object holding a list of issues",
      { message: "Validation failed", errors: [{ field: "interval", message: "not allowed" }] },
      "Validation failed: interval: not allowed",
    ],
    ["plain text", "Bad Request: the body is not valid", "Bad Request: the body is not valid"],
    [
      "an HTML error page",
      "<!DOCTYPE html><html><head><title>400 Bad Request</title><style>p{}</style></head><body><h1>Bad Request</h1><p>Your browser sent a request this server could not understand.</p></body></html>",
      "400 Bad Request: Bad Request Your browser sent a request this server could not understand.",
    ],
    ["a JSON object of another shape", { code: 17, detailCode: "X" }, '{"code":17,"detailCode":"X"}'],
    ["nothing", "", "the service gave no reason (the answer had no body)"],
  ];
  it.each(shapes)(
    "a 400 whose body is %s carries the service's words, method, path and status",
    async (_label, body, words) => {
      answerOnce(mock.api.cloud, seen, { method: "POST", path: KEYS }, 400, body, { "x-request-id": "hdr-rid-7" });
      const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {} }));
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).serviceMessage).toBe(words);
      expect(String(err)).toContain(`POST ${KEYS} failed with status 400: ${words}`);
      const rid = typeof body === "object" && body !== null && "requestId" in body ? "rid-1" : "hdr-rid-7";
      expect(String(err)).toContain(`(requestId ${rid})`);
    },
  );

  it("keeps the excerpt bounded and scrubs credentials before cutting, so no part of one is left", async () => {
    const long = `${"x".repeat(EXCERPT_CHARS - 5)} ${CANARY.keySecret} ${"y".repeat(5_000)}`;
    answerOnce(mock.api.cloud, seen, { method: "POST", path: KEYS }, 400, { error: long, requestId: "rid-2" });
    const err = (await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {} }))) as ApiError;
    expect(err.serviceMessage.length).toBeLessThanOrEqual(EXCERPT_CHARS + 1);
    expect(errorText(err)).not.toContain(CANARY.keySecret.slice(0, 8));
    expect(err.serviceMessage).toContain("[redacted]".slice(0, 4));
  });
});

describe("an idle service (424)", () => {
  it("fails at once, not retried, naming the service and its state and saying to wake it", async () => {
    answerOnce(mock.api.cloud, seen, { method: "PUT", path: SETTINGS }, 424, {
      status: 424,
      error: `FAILED_DEPENDENCY: Service ${PIPE_IDS.serviceId} is not running. Current state: idle`,
      requestId: "rid-424",
    });
    const err = await failure(pipeSettings.create({ ...PIPE_IDS, dbMaxThreads: 8 }));
    expect(seen).toHaveLength(1);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("SERVICE_IDLE");
    expect(String(err)).toContain("failed with status 424: FAILED_DEPENDENCY");
    expect(String(err)).toContain("Current state: idle (requestId rid-424)");
    expect(String(err)).toContain(`Service "${PIPE_IDS.serviceId}" is idle: wake it`);
    expect(String(err)).toContain("alertpipe:wakeIdleServices");
    expect(String(err)).toContain("Nothing was changed");
  });
});

describe("no silent stalls", () => {
  it("a 429 asking for longer than the budget fails the request and every one waiting behind it at once, saying how long", async () => {
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "1/2";
    useRuntime({ config: undefined });
    answerOnce(
      mock.api.cloud,
      seen,
      { method: "GET", path: SETTINGS },
      429,
      { status: 429, error: "Too many requests", requestId: "rid-429" },
      { "x-ratelimit-reset": "600" },
    );
    const started = performance.now();
    const conn = connectionFor("cloud");
    const results = await Promise.allSettled([0, 1, 2].map(() => send(conn, { method: "GET", path: SETTINGS })));
    const elapsed = performance.now() - started;
    expect(seen).toHaveLength(1); // the two behind it were never sent
    expect(elapsed).toBeLessThan(1_500); // not the 2 s of pacing, let alone the 10 minutes asked for
    const reasons = results.map((r) => (r.status === "rejected" ? (r.reason as unknown) : undefined));
    for (const reason of reasons) {
      expect(reason).toBeInstanceOf(RateLimitWaitError);
      expect(String(reason)).toMatch(/wait (10 min|9 min 5\d s)/);
    }
    expect(reasons.filter((r) => String(r).includes("was not sent"))).toHaveLength(2);
    // A request made afterwards, while the wait stands, fails at once too, without reaching the service.
    const later = await failure(send(conn, { method: "GET", path: SETTINGS }));
    expect(later).toBeInstanceOf(RateLimitWaitError);
    expect(seen).toHaveLength(1);
  });

  it("with pacing off, a request in a retry's backoff is stopped too", async () => {
    const conn = connectionFor("cloud");
    answerOnce(mock.api.cloud, seen, { method: "GET", path: SETTINGS }, 503, { error: "busy" }, { "retry-after": "2" });
    answerOnce(
      mock.api.cloud,
      seen,
      { method: "PUT", path: SETTINGS },
      429,
      { error: "slow down" },
      { "retry-after": "900" },
    );
    const waiting = send(conn, { method: "GET", path: SETTINGS });
    await new Promise((r) => setTimeout(r, 100)); // the GET is now in its 2 s backoff
    const started = performance.now();
    const [first, second] = await Promise.allSettled([
      waiting,
      send(conn, { method: "PUT", path: SETTINGS, body: {} }),
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(first.status === "rejected" && first.reason).toBeInstanceOf(RateLimitWaitError);
    expect(second.status === "rejected" && second.reason).toBeInstanceOf(RateLimitWaitError);
    expect(String(second.status === "rejected" ? second.reason : "")).toContain("15 min");
  });

  it("says so when a request waits longer than the notice threshold: the service's wait and the pacing", async () => {
    const lines: string[] = [];
    useRuntime({ timings: { waitNoticeAfterMs: 100 }, notices: (line) => lines.push(line) });
    answerOnce(
      mock.api.alerting,
      seen,
      { method: "GET", path: `${ALERTS}/${ALERT_ID}` },
      429,
      { message: "Too many requests" },
      { "ratelimit-reset": "0.3" },
    );
    answerOnce(mock.api.alerting, seen, { method: "GET", path: `${ALERTS}/${ALERT_ID}` }, 200, { data: realAlert() });
    await send(connectionFor("alerting"), { method: "GET", path: `${ALERTS}/${ALERT_ID}` });
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^pulumi-alertpipe: GET ${ALERTS}/${ALERT_ID} waits 0\\.[34] s: answered 429; trying again as the service asked \\(attempt 2 of \\d\\)$`,
        ),
      ),
    ]);

    lines.length = 0;
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "1/0.5";
    useRuntime({ config: undefined });
    for (let i = 0; i < 2; i++)
      answerOnce(mock.api.cloud, seen, { method: "GET", path: SETTINGS }, 200, { result: {} });
    const conn = connectionFor("cloud");
    await Promise.all([send(conn, { method: "GET", path: SETTINGS }), send(conn, { method: "GET", path: SETTINGS })]);
    expect(lines).toEqual([expect.stringContaining(`GET ${SETTINGS} waits 0.`)]);
    expect(lines[0]).toContain("client-side pacing of this credential (1 per 0.5 s)");
  });
});
