// The refresh rows' list-reading reference (bench/listingReference.ts, issue 47): it sends what ours
// sends on the thousand's refresh (one list of keys per organization, one page of 1,000 alerts), each
// list once however many reads wait on it, answers each read from the list, and records what ours
// records when nothing changed; its resources adopt ours' objects from our exported state.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import { LIST_PAGE_MAX } from "../../provider/serviceFacts/alertRules";
import { useRuntime } from "../../provider/runtime/runtime";
import {
  adoptionsFrom,
  ListingReads,
  listOf,
  readAnswer,
  revealed,
  type ListingEnv,
  type Values,
} from "../../bench/listingReference";
import { expectedRequests } from "../../bench/thousand";
import { mockApi, type MockApi } from "../support/mockApi";
import { ALERTS_PATH, ORG_ID, searchAlert } from "../support/fixtures";

const OTHER_ORG = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";
const ENV: ListingEnv = { url: "http://svc.test", token: "t", keyId: "k", keySecret: "s", adoptFile: "" };

const alertId = (i: number) => i.toString(16).padStart(24, "0");
const keyId = (org: string, i: number) => `${org.slice(0, 8)}-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** The service's objects: `alerts` alerts, `keys` keys in each of two organizations, as their lists answer them. */
function service(alerts: number, keyCount: number) {
  const alertItems = Array.from({ length: alerts }, (_, i) => ({
    ...searchAlert,
    name: `bench alert ${i}`,
    id: alertId(i),
    state: "OK",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  }));
  const keyItems = (org: string) =>
    Array.from({ length: keyCount }, (_, i) => ({
      id: keyId(org, i),
      name: `bench key ${i}`,
      state: "enabled",
      roles: ["developer"],
      keySuffix: "abcd",
      createdAt: "2026-01-01T00:00:00.000Z",
      expireAt: null,
      usedAt: null,
      ipAccessList: [{ source: "0.0.0.0/0", description: "any" }],
    }));
  const keys: Record<string, Values[]> = { [ORG_ID]: keyItems(ORG_ID), [OTHER_ORG]: keyItems(OTHER_ORG) };
  return { alerts: alertItems, keys };
}

/** A fetch answering the lists as the emulator does, recording each path asked. */
function fakeFetch(svc: ReturnType<typeof service>, sent: string[]): typeof fetch {
  const answer: typeof fetch = async (input) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    sent.push(url.pathname);
    const keys = /^\/v1\/organizations\/([^/]+)\/keys$/.exec(url.pathname);
    const limit = Number(url.searchParams.get("limit"));
    const offset = Number(url.searchParams.get("offset"));
    const body =
      keys !== null
        ? { status: 200, requestId: "r", result: svc.keys[keys[1] ?? ""] ?? [] }
        : { data: svc.alerts.slice(offset, offset + limit), meta: { total: svc.alerts.length, limit } };
    return Promise.resolve(
      new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } }),
    );
  };
  return answer;
}

describe("the list-reading reference's requests", () => {
  it("are, for the thousand's refresh, the lists ours is allowed: each list once, however many reads wait", async () => {
    const svc = service(1000, 100);
    const sent: string[] = [];
    const reads = new ListingReads(ENV, LIST_PAGE_MAX, fakeFetch(svc, sent));
    const states: Values[] = [
      ...svc.alerts.map((a) => ({ name: a.name, threshold: a.threshold })),
      ...[ORG_ID, OTHER_ORG].flatMap((org) => svc.keys[org]?.map((k) => ({ organizationId: org, name: k.name })) ?? []),
    ];
    const ids = [
      ...svc.alerts.map((a) => a.id),
      ...[ORG_ID, OTHER_ORG].flatMap((o) => svc.keys[o]?.map((k) => String(k.id)) ?? []),
    ];
    const answers = await Promise.all(states.map((props, i) => reads.read(ids[i] ?? "", props)));
    expect(answers.every((a, i) => a !== undefined && a.id === ids[i] && a.props === states[i])).toBe(true);
    const expected = expectedRequests("refresh");
    expect(sent).toHaveLength(expected.total);
    expect(sent.filter((p) => p === ALERTS_PATH)).toHaveLength(expected.alertPages);
    expect(sent.filter((p) => p.endsWith("/keys")).sort()).toEqual(
      [ORG_ID, OTHER_ORG].map((o) => `/v1/organizations/${o}/keys`).sort(),
    );
  });

  it("step through the pages of alerts by the service's limit, as ours does", async () => {
    const svc = service(5, 0);
    const sent: string[] = [];
    const reads = new ListingReads(ENV, 2, fakeFetch(svc, sent));
    expect(await reads.read(alertId(4), { name: "x" })).toEqual({ id: alertId(4), props: { name: "x" } });
    expect(sent).toEqual([ALERTS_PATH, ALERTS_PATH, ALERTS_PATH]);
  });
});

describe("a read of the list-reading reference", () => {
  it("lists an ApiKey's organization's keys and an Alert's alerts", () => {
    expect(listOf({ organizationId: ORG_ID, name: "k" })).toEqual({ list: "keys", organizationId: ORG_ID });
    expect(listOf({ name: "a", threshold: 5 })).toEqual({ list: "alerts" });
  });

  it("answers the recorded outputs when the list holds the id, and gone when it does not", () => {
    const items = new Map([["a1", { id: "a1" }]]);
    expect(readAnswer(items, "a1", { name: "n" })).toEqual({ id: "a1", props: { name: "n" } });
    expect(readAnswer(items, "a2", { name: "n" })).toBeUndefined();
  });
});

describe("what the list-reading reference records, beside what ours records from the same list", () => {
  const ALERTING = "https://alerts.example.test";

  function served(api: MockApi, svc: ReturnType<typeof service>): void {
    api.alerting
      .intercept({ method: "GET", path: (p) => p.startsWith(`${ALERTS_PATH}?`) })
      .reply(200, JSON.stringify({ data: svc.alerts, meta: { total: svc.alerts.length } }), {
        headers: { "content-type": "application/json" },
      })
      .persist();
    api.cloud
      .intercept({ method: "GET", path: `/v1/organizations/${ORG_ID}/keys` })
      .reply(200, JSON.stringify({ status: 200, requestId: "r", result: svc.keys[ORG_ID] }), {
        headers: { "content-type": "application/json" },
      })
      .persist();
  }

  it("is ours' outputs, alert and key alike, when nothing changed; gone where ours finds it gone", async () => {
    const svc = service(3, 2);
    const api = mockApi();
    try {
      useRuntime({ readByList: true });
      served(api, svc);
      const sent: string[] = [];
      const reference = new ListingReads({ ...ENV, url: ALERTING }, LIST_PAGE_MAX, fakeFetch(svc, sent));
      const cases: Array<[string, (id: string, p: Values) => Promise<unknown>, string, Values]> = [
        ["alert", alert.read as never, alertId(1), { ...searchAlert, name: "bench alert 1" }],
        [
          "key",
          apiKey.read as never,
          keyId(ORG_ID, 1),
          { organizationId: ORG_ID, name: "bench key 1", roles: ["developer"] },
        ],
      ];
      for (const [, read, id, stored] of cases) {
        // What ours records on a first refresh, then on the next (nothing changed): the same.
        const first = (await read(id, stored)) as { id?: string; props?: Values };
        expect(first.id).toBe(id);
        const recorded = first.props ?? {};
        const again = (await read(id, recorded)) as { id?: string; props?: Values };
        const answered = await reference.read(id, recorded);
        expect(answered).toEqual({ id, props: again.props });
        // An id the list lacks: both gone.
        const missing = id.replace(/.$/, "f");
        const oursGone = (await read(missing, recorded)) as { id?: string };
        expect(oursGone.id).toBeUndefined();
        expect(await reference.read(missing, recorded)).toBeUndefined();
      }
    } finally {
      await api.close();
    }
  });
});

describe("the adoption of ours' objects", () => {
  it("takes each resource of ours by name, with its id and outputs, secrets shown and no __provider", () => {
    const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"s3cret"' };
    const exported = {
      version: 3,
      deployment: {
        resources: [
          { urn: "u0", type: "pulumi:pulumi:Stack", outputs: {} },
          { urn: "u1", type: "pulumi:providers:alertpipe", id: "p", outputs: { version: "1" } },
          { urn: "u2", type: "alertpipe:index:Alert", id: "a1", outputs: { name: "bench alert 0", threshold: 5 } },
          {
            urn: "u3",
            type: "pulumi-nodejs:dynamic:Resource",
            id: "k1",
            outputs: { __provider: "exports.handler = …", name: "bench key 0", keySecret: secret },
          },
        ],
      },
    };
    expect(adoptionsFrom(exported)).toEqual({
      "bench alert 0": { id: "a1", outputs: { name: "bench alert 0", threshold: 5 } },
      "bench key 0": { id: "k1", outputs: { name: "bench key 0", keySecret: "s3cret" } },
    });
  });

  it("reveals nested secrets and leaves other values as they are", () => {
    const wrapped = { "4dabf18193072939515e22adb298388d": "x", plaintext: '{"a":[1,2]}' };
    expect(revealed({ list: [wrapped, 3], plain: "p" })).toEqual({ list: [{ a: [1, 2] }, 3], plain: "p" });
  });
});
