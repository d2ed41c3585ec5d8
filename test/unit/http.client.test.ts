// The shared HTTP layer, as seen on the wire and in its errors: every request carries its area's
// auth, a User-Agent and JSON; every failure is one typed error naming method, path, status, the
// service's words and its requestId, and never a credential.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connectionFor } from "../../provider/runtime/connection";
import { decode, send } from "../../provider/http/client";
import { ApiError, UnexpectedResponseError } from "../../provider/errors";
import { USER_AGENT } from "../../provider/http/userAgent";
import {
  ALERTING_AUTH,
  CANARY,
  CLOUD_AUTH,
  errorText,
  mockApiPerTest,
  requestId,
  answerOnce,
  type Pool,
} from "../support/mockApi";
import { failure } from "../support/failures";

const pkg = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as {
  name: string;
  version: string;
};

const mock = mockApiPerTest();
const seen = mock.seen;

function answer(
  pool: Pool,
  method: string,
  path: string,
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
) {
  answerOnce(pool, seen, { method, path }, status, data, headers);
}

const PATH = "/v1/organizations/org-1/keys";
const ALERTS = "/api/v2/alerts";

/** The requests the resources send, by area and method; those with a body send one. */
const REQUESTS = [
  ["alerting", "GET"],
  ["alerting", "POST"],
  ["alerting", "PUT"],
  ["alerting", "DELETE"],
  ["cloud", "GET"],
  ["cloud", "POST"],
  ["cloud", "PUT"],
  ["cloud", "PATCH"],
  ["cloud", "DELETE"],
] as const;
type Area = (typeof REQUESTS)[number][0];
type Method = (typeof REQUESTS)[number][1];
const PATHS: Record<Area, string> = { alerting: ALERTS, cloud: PATH };
const withBody = (method: Method) => method === "POST" || method === "PUT" || method === "PATCH";

/** Sends `method` to `area` (with a body where the method has one) and answers it with 200. */
async function sendTo(area: Area, method: Method, body: unknown = {}) {
  answer(mock.api[area], method, PATHS[area], 200, area === "alerting" ? { data: {} } : { result: {} });
  await send(connectionFor(area), { method, path: PATHS[area], ...(withBody(method) ? { body } : {}) });
}

describe("every request", () => {
  it.each(REQUESTS.filter(([area]) => area === "alerting").map(([, method]) => method))(
    "to area A by %s carries Authorization: Bearer <token>",
    async (method) => {
      await sendTo("alerting", method);
      expect(seen[0]?.headers.authorization).toBe(`Bearer ${CANARY.token}`);
      expect(seen[0]?.headers.authorization).toBe(ALERTING_AUTH);
    },
  );

  it.each(REQUESTS.filter(([area]) => area === "cloud").map(([, method]) => method))(
    "to area B by %s carries Authorization: Basic base64(keyId:keySecret)",
    async (method) => {
      await sendTo("cloud", method);
      const value = seen[0]?.headers.authorization ?? "";
      expect(value).toBe(CLOUD_AUTH);
      expect(Buffer.from(value.replace(/^Basic /, ""), "base64").toString("utf8")).toBe(
        `${CANARY.keyId}:${CANARY.keySecret}`,
      );
    },
  );

  it.each(REQUESTS)("to %s by %s names the package and its version in the User-Agent", async (area, method) => {
    await sendTo(area, method);
    expect(seen[0]?.headers["user-agent"]).toBe(USER_AGENT);
    expect(USER_AGENT.startsWith(`${pkg.name}/${pkg.version} `)).toBe(true);
  });

  it.each(REQUESTS.filter(([, method]) => withBody(method)))(
    "to %s by %s sends its body as JSON with Content-Type application/json and asks for JSON back",
    async (area, method) => {
      const body = { name: "deployer", roles: ["admin"], expireAt: null };
      await sendTo(area, method, body);
      expect(seen[0]?.headers["content-type"]).toBe("application/json");
      expect(seen[0]?.headers.accept).toBe("application/json");
      expect(seen[0]?.body).toEqual(body);
    },
  );

  it("without a body sends no Content-Type", async () => {
    answer(mock.api.cloud, "GET", PATH, 200, { result: {} });
    await send(connectionFor("cloud"), { method: "GET", path: PATH });
    expect(seen[0]?.headers["content-type"]).toBeUndefined();
  });

  it("resolves with the parsed JSON answer, its status and its requestId", async () => {
    answer(mock.api.cloud, "PUT", PATH, 200, { status: 200, requestId: requestId(), result: { a: 1 } });
    const res = await send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} });
    expect(res).toEqual({
      method: "PUT",
      path: PATH,
      status: 200,
      body: { status: 200, requestId: requestId(), result: { a: 1 } },
      requestId: requestId(),
    });
  });
});

describe("an error answer", () => {
  it.each([
    {
      from: "area A with {message} is an ApiError with method, path, status and the message",
      area: "alerting" as const,
      request: { method: "POST" as const, path: ALERTS },
      body: { message: "interval is not a valid duration" },
      error: { serviceMessage: "interval is not a valid duration", requestId: undefined },
      told: `POST ${ALERTS} failed with status 400: interval is not a valid duration`,
    },
    {
      from: "area B {status, error, requestId} carries the error and the requestId from the body",
      area: "cloud" as const,
      request: { method: "PUT" as const, path: PATH },
      body: { status: 400, error: "db_max_threads must be at most 64", requestId: requestId() },
      error: { serviceMessage: "db_max_threads must be at most 64", requestId: requestId() },
      told: `(requestId ${requestId()})`,
    },
  ])("from $from", async ({ area, request, body, error, told }) => {
    answer(mock.api[area], request.method, request.path, 400, body);
    const err = await failure(send(connectionFor(area), { ...request, body: {} }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ ...request, status: 400, ...error });
    expect(String(err)).toContain(told);
  });

  it("from area A in plain text carries the text as the message", async () => {
    answer(mock.api.alerting, "GET", `${ALERTS}/a1`, 404, "Not Found\n");
    const err = await failure(send(connectionFor("alerting"), { method: "GET", path: `${ALERTS}/a1` }));
    expect(err).toMatchObject({ status: 404, serviceMessage: "Not Found" });
  });

  it("without a body says the service gave no reason", async () => {
    answer(mock.api.cloud, "GET", PATH, 403, "");
    const err = await failure(send(connectionFor("cloud"), { method: "GET", path: PATH }));
    expect(err).toMatchObject({ status: 403, serviceMessage: "the service gave no reason (the answer had no body)" });
  });

  it("keeps a long message short", async () => {
    answer(mock.api.alerting, "GET", ALERTS, 400, "x".repeat(50_000));
    const err = await failure(send(connectionFor("alerting"), { method: "GET", path: ALERTS }));
    expect((err as ApiError).serviceMessage.length).toBeLessThanOrEqual(1001);
  });

  it("never carries a request header in the error", async () => {
    answer(mock.api.cloud, "GET", PATH, 401, { status: 401, error: "unauthorized", requestId: requestId() });
    const err = await failure(send(connectionFor("cloud"), { method: "GET", path: PATH }));
    const text = errorText(err);
    expect(text).not.toMatch(/authorization/i);
    expect(text).not.toContain(CLOUD_AUTH);
    expect(text).not.toContain("user-agent");
  });
});

describe("credentials echoed by the service", () => {
  const cloudForms = [
    ["the key secret", CANARY.keySecret],
    ["keyId:keySecret", `${CANARY.keyId}:${CANARY.keySecret}`],
    ["the whole Authorization value", CLOUD_AUTH],
    ["the base64 credentials", CLOUD_AUTH.slice("Basic ".length)],
    ["the URL-encoded secret", encodeURIComponent(`${CANARY.keyId}:${CANARY.keySecret}`)],
  ] as const;

  for (const [what, echoed] of cloudForms) {
    it(`never show ${what} in an area B error's message, stack or JSON`, async () => {
      answer(mock.api.cloud, "PUT", PATH, 401, {
        status: 401,
        error: `bad credentials: ${echoed}`,
        requestId: requestId(),
      });
      const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
      const text = errorText(err);
      expect(text).toContain("bad credentials: [redacted]");
      for (const canary of [CANARY.keySecret, CLOUD_AUTH.slice("Basic ".length)]) expect(text).not.toContain(canary);
    });
  }

  it("show the key ID alone, which names the key and is no secret", async () => {
    answer(mock.api.cloud, "PUT", PATH, 401, { status: 401, error: `no key ${CANARY.keyId}`, requestId: requestId() });
    const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
    expect(errorText(err)).toContain(`no key ${CANARY.keyId}`);
  });

  it("never show the area A token from a {message} answer", async () => {
    answer(mock.api.alerting, "POST", ALERTS, 401, { message: `token ${CANARY.token} expired` });
    const err = await failure(send(connectionFor("alerting"), { method: "POST", path: ALERTS, body: {} }));
    expect(errorText(err)).not.toContain(CANARY.token);
    expect(String(err)).toContain("token [redacted] expired");
  });

  it("never show the area A token from a plain-text answer", async () => {
    answer(mock.api.alerting, "GET", ALERTS, 403, `Authorization: Bearer ${CANARY.token} refused`);
    const err = await failure(send(connectionFor("alerting"), { method: "GET", path: ALERTS }));
    expect(errorText(err)).not.toContain(CANARY.token);
  });

  it("never show a credential echoed in the requestId", async () => {
    answer(mock.api.cloud, "GET", PATH, 400, { status: 400, error: "no", requestId: CANARY.keySecret });
    const err = await failure(send(connectionFor("cloud"), { method: "GET", path: PATH }));
    expect(errorText(err)).not.toContain(CANARY.keySecret);
  });

  it("never show a secret the request names as the resource's own, from the service's words or the requestId", async () => {
    const own = "resource-own-secret-7c1d";
    answer(mock.api.cloud, "GET", PATH, 400, { status: 400, error: `bad ${own}`, requestId: `rid-${own}` });
    const err = await failure(send(connectionFor("cloud"), { method: "GET", path: PATH, secrets: [own] }));
    expect(errorText(err)).not.toContain(own);
    expect(String(err)).toContain("bad [redacted]");
  });

  it("never let a 2xx answer's requestId carry a secret the answer brings itself", async () => {
    const created = "created-secret-in-answer-9e2f";
    answer(mock.api.cloud, "POST", PATH, 200, {
      status: 200,
      requestId: `rid-${created}`,
      result: { secret: created },
    });
    const res = await send(connectionFor("cloud"), {
      method: "POST",
      path: PATH,
      body: {},
      secretsInAnswer: (body) => [(body as { result: { secret: string } }).result.secret],
    });
    // The whole token goes, so a short secret's letters are not given away by what is left around it.
    expect(res.requestId).toBe("[redacted]");
  });
});

describe("decode", () => {
  const schema = z.object({ result: z.object({ id: z.string() }) });

  it("returns the body when it matches the schema", async () => {
    answer(mock.api.cloud, "GET", PATH, 200, { result: { id: "k1" } });
    const res = await send(connectionFor("cloud"), { method: "GET", path: PATH });
    expect(decode(schema, res)).toEqual({ result: { id: "k1" } });
  });

  it("throws UnexpectedResponseError naming the field, the method, path and requestId, not the body", async () => {
    answer(mock.api.cloud, "GET", PATH, 200, {
      requestId: requestId(),
      result: { id: 7, secretish: CANARY.keySecret },
    });
    const res = await send(connectionFor("cloud"), { method: "GET", path: PATH });
    const err = (() => {
      try {
        decode(schema, res);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect(String(err)).toContain(`GET ${PATH}`);
    expect(String(err)).toContain("result.id");
    expect(String(err)).toContain(requestId());
    expect(errorText(err)).not.toContain(CANARY.keySecret);
  });
});
