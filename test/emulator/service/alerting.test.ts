import { describe, expect, it } from "vitest";
import { searchAlert as programSearchAlert } from "../../support/fixtures";
import { ISO_MS_UTC, alerting, call, data, deliberately, start, validAlert } from "./helpers";

/** A search alert unlike validAlert in every member a PUT must replace. */
const searchAlert = { ...programSearchAlert, threshold: 1, interval: "1h", thresholdType: "below" } as const;

describe("area A authentication", () => {
  it(
    "answers 401 {message} when the Authorization header is missing",
    deliberately(async () => {
      const emu = await start();
      const answer = await call(emu, "POST", "/api/v2/alerts", { body: validAlert });
      expect(answer.status).toBe(401);
      expect(typeof answer.json.message).toBe("string");
    }),
  );

  it("answers 401 for a wrong bearer token", async () => {
    const emu = await start({ token: "right" });
    const answer = await call(emu, "GET", "/api/v2/alerts/0123456789abcdef01234567", { auth: "Bearer wrong" });
    expect(answer.status).toBe(401);
  });

  it(
    "answers 401 for Basic credentials on area A",
    deliberately(async () => {
      const emu = await start();
      const answer = await call(emu, "POST", "/api/v2/alerts", {
        body: validAlert,
        auth: `Basic ${Buffer.from(`${emu.keyId}:${emu.keySecret}`).toString("base64")}`,
      });
      expect(answer.status).toBe(401);
    }),
  );
});

describe("area A create", () => {
  // Issue 8: 200 (not 201), state "OK" and no silenced member, as the real service answers.
  it("creates a tile alert with 200 and the spec's returned object, as the real service: state OK, silenced absent", async () => {
    const emu = await start();
    const answer = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json)).toEqual(["data"]);
    const alert = data(answer);
    expect(alert).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: "errors high",
      message: "too many errors",
      threshold: 5,
      interval: "5m",
      thresholdType: "above",
      source: "tile",
      state: "OK",
      channel: { type: "webhook", webhookId: "wh-1" },
      team: emu.snapshot().team,
      tileId: "tile-1",
      dashboard: "dash-1",
      createdAt: expect.stringMatching(ISO_MS_UTC),
      updatedAt: alert.createdAt,
    });
  });

  it("omits members that have no value instead of sending null", async () => {
    const emu = await start();
    const alert = data(await alerting(emu, "POST", "/api/v2/alerts", searchAlert));
    for (const absent of ["name", "message", "tileId", "dashboard", "savedSearch", "groupBy"]) {
      expect(alert).not.toHaveProperty(absent);
    }
  });

  it("gives every alert the same team id and a distinct id", async () => {
    const emu = await start();
    const a = data(await alerting(emu, "POST", "/api/v2/alerts", searchAlert));
    const b = data(await alerting(emu, "POST", "/api/v2/alerts", searchAlert));
    expect(a.team).toBe(b.team);
    expect(a.id).not.toBe(b.id);
  });
});

describe("area A validation (400 {message})", () => {
  const required = ["threshold", "interval", "source", "thresholdType", "channel"] as const;
  it.each([
    ...required.map((field) => [`a body without ${field}`, field] as const),
    ...(["dashboardId", "tileId"] as const).map((field) => [`source "tile" without ${field}`, field] as const),
  ])(
    "rejects %s",
    deliberately(async (_case, field) => {
      const emu = await start();
      const { [field]: _omitted, ...body } = validAlert;
      const answer = await alerting(emu, "POST", "/api/v2/alerts", body);
      expect(answer.status).toBe(400);
      expect(answer.json.message).toContain(field);
    }),
  );

  it(
    "rejects a threshold sent as a string",
    deliberately(async () => {
      const emu = await start();
      expect((await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, threshold: "5" })).status).toBe(400);
    }),
  );

  it.each([
    ["source", "dashboard"],
    ["thresholdType", "over"],
  ])(
    "rejects %s outside its enum (%s)",
    deliberately(async (field, value) => {
      const emu = await start();
      expect((await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, [field]: value })).status).toBe(400);
    }),
  );

  it.each(["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"])("accepts interval %s", async (interval) => {
    const emu = await start();
    expect((await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, interval })).status).toBe(200);
  });

  it.each(["1s", "90m", "24h", "10d", "0m", "05m", "5", "m", "5w", "1.5h", "5 m", "5M", ""])(
    "rejects interval %j",
    async (interval) => {
      const emu = await start();
      const answer = await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, interval });
      expect(answer.status).toBe(400);
      expect(answer.json.message).toContain("interval");
    },
  );

  it.each([
    ["a channel type other than webhook", { type: "email", webhookId: "x" }],
    ["an empty webhookId", { type: "webhook", webhookId: "" }],
  ])(
    "rejects %s",
    deliberately(async (_case, channel) => {
      const emu = await start();
      expect((await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, channel })).status).toBe(400);
    }),
  );

  it(
    "rejects a member the create body does not list (dashboard instead of dashboardId)",
    deliberately(async () => {
      const emu = await start();
      const answer = await alerting(emu, "POST", "/api/v2/alerts", { ...searchAlert, dashboard: "d" });
      expect(answer.status).toBe(400);
      expect(answer.json.message).toContain("dashboard");
    }),
  );

  it(
    "rejects a body that is not JSON",
    deliberately(async () => {
      const emu = await start();
      expect((await alerting(emu, "POST", "/api/v2/alerts", "{not json")).status).toBe(400);
    }),
  );
});

describe("area A read, replace, delete", () => {
  it("GET returns the created alert", async () => {
    const emu = await start();
    const created = data(await alerting(emu, "POST", "/api/v2/alerts", validAlert));
    const answer = await alerting(emu, "GET", `/api/v2/alerts/${created.id}`);
    expect(answer.status).toBe(200);
    expect(data(answer)).toEqual(created);
  });

  it.each(["GET", "PUT", "DELETE"])("%s of an unknown id answers 404 {message}", async (method) => {
    const emu = await start();
    const answer = await alerting(
      emu,
      method,
      "/api/v2/alerts/0123456789abcdef01234567",
      method === "PUT" ? validAlert : undefined,
    );
    expect(answer.status).toBe(404);
    expect(typeof answer.json.message).toBe("string");
  });

  it("PUT replaces the whole body, keeps id and createdAt and moves updatedAt forward", async () => {
    const emu = await start();
    const created = data(await alerting(emu, "POST", "/api/v2/alerts", validAlert));
    const answer = await alerting(emu, "PUT", `/api/v2/alerts/${created.id}`, searchAlert);
    expect(answer.status).toBe(200);
    const replaced = data(answer);
    expect(replaced).toMatchObject({
      id: created.id,
      createdAt: created.createdAt,
      source: "search",
      interval: "1h",
      team: created.team,
    });
    expect(replaced).not.toHaveProperty("name");
    expect(replaced).not.toHaveProperty("dashboard");
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(data(await alerting(emu, "GET", `/api/v2/alerts/${created.id}`))).toEqual(replaced);
  });

  it(
    "PUT validates the body like create",
    deliberately(async () => {
      const emu = await start();
      const created = data(await alerting(emu, "POST", "/api/v2/alerts", validAlert));
      const answer = await alerting(emu, "PUT", `/api/v2/alerts/${created.id}`, { ...validAlert, interval: "0s" });
      expect(answer.status).toBe(400);
      expect(data(await alerting(emu, "GET", `/api/v2/alerts/${created.id}`))).toEqual(created);
    }),
  );

  it("DELETE answers {} and the alert is gone", async () => {
    const emu = await start();
    const created = data(await alerting(emu, "POST", "/api/v2/alerts", validAlert));
    const answer = await alerting(emu, "DELETE", `/api/v2/alerts/${created.id}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({});
    expect((await alerting(emu, "GET", `/api/v2/alerts/${created.id}`)).status).toBe(404);
  });

  // GET on the collection lists now (issue 10); an alert's own path takes no POST.
  it.each([
    ["the path", "POST", "/api/v2/alerts/0123456789abcdef01234567", "GET, PUT, DELETE"],
    ["the collection", "PATCH", "/api/v2/alerts", "GET, POST"],
  ])(
    "answers 405 with Allow for a method %s does not support",
    deliberately(async (_where, method, path, allow) => {
      const emu = await start();
      const answer = await alerting(emu, method, path, validAlert);
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe(allow);
    }),
  );
});

describe("area A body size", () => {
  it(
    "answers 413 for a body over 1 MiB",
    deliberately(async () => {
      const emu = await start();
      const answer = await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, message: "x".repeat(1024 * 1024) });
      expect(answer.status).toBe(413);
    }),
  );
});
