// The list endpoints the real services have (issue 10): a client that lost a create's answer finds
// what it made by listing, so the lists must hold exactly what the single GETs answer.

import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  deliberately,
  UUID_V4,
  alerting,
  basic,
  call,
  cloud,
  createKey,
  data,
  result,
  start,
  validAlert,
  type Answer,
  type PublicKey,
} from "./helpers";
import type { RunningEmulator, StoredAlert } from "../../../emulator/index";

const keysPath = (org: string) => `/v1/organizations/${org}/keys`;

function list(answer: Answer): StoredAlert[] {
  return answer.json.data as StoredAlert[];
}

async function createAlerts(emu: RunningEmulator, count: number): Promise<StoredAlert[]> {
  const made: StoredAlert[] = [];
  for (let i = 0; i < count; i += 1)
    made.push(data(await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, name: `alert ${i}` })));
  return made;
}

describe("alert list (GET /api/v2/alerts)", () => {
  it("answers {data: []} when there are no alerts", async () => {
    const emu = await start();
    const answer = await alerting(emu, "GET", "/api/v2/alerts");
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: [] });
  });

  it("answers every alert in creation order, each as its single GET answers it", async () => {
    const emu = await start();
    const made = await createAlerts(emu, 3);
    const singles = await Promise.all(
      made.map(async (a) => data(await alerting(emu, "GET", `/api/v2/alerts/${a.id}`))),
    );
    expect(list(await alerting(emu, "GET", "/api/v2/alerts"))).toEqual(singles);
  });

  it("keeps an alert's place after a PUT", async () => {
    const emu = await start();
    const made = await createAlerts(emu, 3);
    await alerting(emu, "PUT", `/api/v2/alerts/${made[0]?.id ?? ""}`, { ...validAlert, name: "renamed" });
    const listed = list(await alerting(emu, "GET", "/api/v2/alerts"));
    expect(listed.map((a) => a.id)).toEqual(made.map((a) => a.id));
    expect(listed[0]?.name).toBe("renamed");
  });

  it("leaves out a deleted alert", async () => {
    const emu = await start();
    const made = await createAlerts(emu, 2);
    await alerting(emu, "DELETE", `/api/v2/alerts/${made[0]?.id ?? ""}`);
    expect(list(await alerting(emu, "GET", "/api/v2/alerts")).map((a) => a.id)).toEqual([made[1]?.id]);
  });

  it("pages with limit and offset", async () => {
    const emu = await start();
    const ids = (await createAlerts(emu, 5)).map((a) => a.id);
    const page = async (query: string) => list(await alerting(emu, "GET", `/api/v2/alerts?${query}`)).map((a) => a.id);
    expect(await page("limit=2")).toEqual(ids.slice(0, 2));
    expect(await page("limit=2&offset=2")).toEqual(ids.slice(2, 4));
    expect(await page("offset=4&limit=2")).toEqual(ids.slice(4));
  });

  it("gives a paged answer the total, in meta and X-Total-Count", async () => {
    const emu = await start();
    await createAlerts(emu, 3);
    const answer = await alerting(emu, "GET", "/api/v2/alerts?limit=2&offset=2");
    expect(answer.json.meta).toEqual({ total: 3, limit: 2, offset: 2 });
    expect(answer.headers.get("x-total-count")).toBe("3");
  });

  it("answers an unpaged list as the contract has it, without meta", async () => {
    const emu = await start();
    await createAlerts(emu, 1);
    const answer = await alerting(emu, "GET", "/api/v2/alerts");
    expect(Object.keys(answer.json)).toEqual(["data"]);
    expect(answer.headers.get("x-total-count")).toBeNull();
  });

  it("answers everything from offset when limit is left out", async () => {
    const emu = await start();
    const ids = (await createAlerts(emu, 3)).map((a) => a.id);
    expect(list(await alerting(emu, "GET", "/api/v2/alerts?offset=1")).map((a) => a.id)).toEqual(ids.slice(1));
  });

  it("answers [] for an offset past the end, with the total", async () => {
    const emu = await start();
    await createAlerts(emu, 2);
    expect((await alerting(emu, "GET", "/api/v2/alerts?offset=2&limit=10")).json).toEqual({
      data: [],
      meta: { total: 2, limit: 10, offset: 2 },
    });
  });

  it("accepts limit 1000, the largest page", async () => {
    const emu = await start();
    await createAlerts(emu, 2);
    expect(list(await alerting(emu, "GET", "/api/v2/alerts?limit=1000"))).toHaveLength(2);
  });

  it.each([
    ["limit", "limit=1001"],
    ["limit", "limit=0"],
    ["limit", "limit=abc"],
    ["limit", "limit=1.5"],
    ["limit", "limit=1&limit=2"],
    ["offset", "offset=-1"],
    ["offset", "offset="],
  ])(
    "answers 400 naming %s for ?%s",
    deliberately(async (name, query) => {
      const emu = await start();
      const answer = await alerting(emu, "GET", `/api/v2/alerts?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ message: expect.stringMatching(new RegExp(`^${name}: `)) });
    }),
  );

  it(
    "ignores other query parameters",
    deliberately(async () => {
      const emu = await start();
      await createAlerts(emu, 1);
      expect(list(await alerting(emu, "GET", "/api/v2/alerts?sort=name"))).toHaveLength(1);
    }),
  );

  it(
    "answers 401 without the bearer token",
    deliberately(async () => {
      const emu = await start();
      const answer = await call(emu, "GET", "/api/v2/alerts");
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ message: expect.any(String) });
    }),
  );

  it(
    "checks authentication before the query parameters",
    deliberately(async () => {
      const emu = await start();
      expect((await call(emu, "GET", "/api/v2/alerts?limit=0", { auth: "Bearer wrong" })).status).toBe(401);
    }),
  );

  it("counts against the rate limit like every other request", async () => {
    const emu = await start({ rateLimits: { alerting: { requests: 1, perSeconds: 60 } } });
    expect((await alerting(emu, "GET", "/api/v2/alerts")).status).toBe(200);
    const refused = await alerting(emu, "GET", "/api/v2/alerts");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-limit")).toBe("1");
  });
});

describe("key list (GET /v1/organizations/{org}/keys)", () => {
  it("answers the envelope with result [] for an organization without keys", async () => {
    const emu = await start();
    const answer = await cloud(emu, "GET", keysPath(randomUUID()));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 200, requestId: expect.stringMatching(UUID_V4), result: [] });
  });

  it("answers the organization's keys in creation order, each as its single GET answers it", async () => {
    const emu = await start();
    const org = randomUUID();
    const made = [
      await createKey(emu, org, { name: "a" }),
      await createKey(emu, org, { name: "b", roles: ["developer"] }),
    ];
    const singles = await Promise.all(
      made.map(async (k) => result<PublicKey>(await cloud(emu, "GET", `${keysPath(org)}/${k.key.id}`))),
    );
    expect(result<PublicKey[]>(await cloud(emu, "GET", keysPath(org)))).toEqual(singles);
  });

  it("leaves out the keys of other organizations", async () => {
    const emu = await start();
    const org = randomUUID();
    await createKey(emu, randomUUID());
    const mine = await createKey(emu, org);
    expect(result<PublicKey[]>(await cloud(emu, "GET", keysPath(org))).map((k) => k.id)).toEqual([mine.key.id]);
  });

  it("leaves out a deleted key", async () => {
    const emu = await start();
    const org = randomUUID();
    const gone = await createKey(emu, org);
    const kept = await createKey(emu, org);
    await cloud(emu, "DELETE", `${keysPath(org)}/${gone.key.id}`);
    expect(result<PublicKey[]>(await cloud(emu, "GET", keysPath(org))).map((k) => k.id)).toEqual([kept.key.id]);
  });

  it("never carries a key ID, a secret or hashData", async () => {
    const emu = await start();
    const org = randomUUID();
    const made = await createKey(emu, org);
    const b64 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
    const hashData = {
      keyIdHash: b64("LOCALKEYID0000000042"),
      keyIdSuffix: "0042",
      keySecretHash: b64("local-secret"),
    };
    await createKey(emu, org, { hashData });
    const answer = await cloud(emu, "GET", keysPath(org));
    const text = JSON.stringify(answer.json);
    for (const secret of [made.keyId, made.keySecret, hashData.keyIdHash, hashData.keySecretHash])
      expect(text).not.toContain(secret);
    for (const key of result<Record<string, unknown>[]>(answer)) {
      expect(Object.keys(key).sort()).toEqual([
        "createdAt",
        "expireAt",
        "id",
        "ipAccessList",
        "keySuffix",
        "name",
        "roles",
        "state",
        "usedAt",
      ]);
    }
  });

  it(
    "answers 401 without credentials",
    deliberately(async () => {
      const emu = await start();
      const answer = await call(emu, "GET", keysPath(randomUUID()));
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({
        status: 401,
        error: expect.any(String),
        requestId: expect.stringMatching(UUID_V4),
      });
    }),
  );

  it("lets a created key list its own organization's keys", async () => {
    const emu = await start();
    const org = randomUUID();
    const made = await createKey(emu, org);
    const answer = await cloud(emu, "GET", keysPath(org), undefined, basic(made.keyId, made.keySecret));
    expect(result<PublicKey[]>(answer).map((k) => k.id)).toEqual([made.key.id]);
  });

  it("answers 403 to a created key listing another organization", async () => {
    const emu = await start();
    const made = await createKey(emu, randomUUID());
    expect((await cloud(emu, "GET", keysPath(randomUUID()), undefined, basic(made.keyId, made.keySecret))).status).toBe(
      403,
    );
  });

  it(
    "answers 400 naming organizationId when it is not a uuid",
    deliberately(async () => {
      const emu = await start();
      const answer = await cloud(emu, "GET", keysPath("not-a-uuid"));
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatch(/organizationId/);
    }),
  );

  it("counts against the rate limit like every other request", async () => {
    const emu = await start({ rateLimits: { cloud: { requests: 1, perSeconds: 10 } } });
    expect((await cloud(emu, "GET", keysPath(randomUUID()))).status).toBe(200);
    const refused = await cloud(emu, "GET", keysPath(randomUUID()));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-reset")).not.toBeNull();
  });

  it(
    "answers 405 with Allow for a method the collection does not support",
    deliberately(async () => {
      const emu = await start();
      const answer = await cloud(emu, "PUT", keysPath(randomUUID()), {});
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET, POST");
    }),
  );
});
