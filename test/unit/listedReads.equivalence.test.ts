// A read served by a list returns exactly what the GET path returns (provider/reading/listedReads.ts,
// docs/design/reading.md): for random alerts and keys in the real services' answer shapes (members
// left out rather than null, `silenced` absent, a boolean, null or an object, later member names,
// members of later versions), random stored states, ids listed or not and ids in another letter
// case, the two paths give the same outputs and inputs, and the same "gone". Each path runs against
// a fake service answering from the same objects: the list with all of them, the GET with the one.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import { PATCHABLE_ARGS } from "../../provider/apiKey/wire";

/** The Alert's optional arguments: its properties the program may set and leave out. */
const OPTIONAL_ARGS = ["dashboardId", "tileId", "name", "message"] as const;
import { useRuntime } from "../../provider/runtime/runtime";
import { mockApi, type MockApi, type Pool } from "../support/mockApi";
import { ALERTS_PATH, KEYS_PATH, ORG_ID } from "../support/fixtures";

const RUNS = 300;

type Wire = Record<string, unknown>;

/** An object with each member either left out or given, as the real services answer. */
function members(arbs: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Wire> {
  return fc.record(arbs, { requiredKeys: [] });
}

const text = fc.string({ maxLength: 8 });
const instant = fc
  .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) })
  .map((ms) => new Date(ms).toISOString());
const anyJson = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }));
const hex24 = fc.stringMatching(/^[0-9a-f]{24}$/);

/** An alert as some version of the alerting service answers it. */
const wireAlert = members({
  threshold: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
  interval: fc.constantFrom("1m", "5m", "1h", "1d"),
  source: fc.constantFrom("search", "tile"),
  thresholdType: fc.constantFrom("above", "below"),
  channel: members({ type: fc.constant("webhook"), webhookId: text, extra: anyJson }),
  // The contract's name and the later one; either, both or none.
  dashboard: fc.oneof(text, fc.constant(null)),
  dashboardId: fc.oneof(text, fc.constant(null)),
  tileId: fc.oneof(text, fc.constant(null)),
  name: fc.oneof(text, fc.constant(null)),
  message: fc.oneof(text, fc.constant(null)),
  state: fc.oneof(fc.constantFrom("OK", "ALERT", "INSUFFICIENT_DATA", "DISABLED"), text),
  team: text,
  teamId: text,
  savedSearch: text,
  savedSearchId: text,
  groupBy: fc.oneof(text, fc.constant(null)),
  silenced: fc.oneof(fc.boolean(), fc.constant(null), members({ by: text, at: instant, until: instant })),
  createdAt: instant,
  updatedAt: instant,
  // Members of later versions, which no output reads.
  scheduleOffsetMinutes: fc.integer({ min: 0, max: 60 }),
  note: anyJson,
  channels: fc.array(anyJson, { maxLength: 2 }),
});

/** A key as the cloud service answers it (never a secret). */
const wireKey = members({
  name: fc.oneof(text, fc.constant(null)),
  roles: fc.oneof(fc.subarray(["admin", "developer", "query_endpoints"]), fc.constant(null)),
  expireAt: fc.oneof(instant, fc.constant(null)),
  state: fc.oneof(fc.constantFrom("enabled", "disabled"), text, fc.constant(null)),
  ipAccessList: fc.oneof(fc.array(members({ source: text, description: text }), { maxLength: 2 }), fc.constant(null)),
  keySuffix: fc.oneof(fc.stringMatching(/^[A-Z0-9]{4}$/), fc.constant(null)),
  createdAt: fc.oneof(instant, fc.constant(null)),
  usedAt: fc.oneof(instant, fc.constant(null)),
  extra: anyJson,
});

/** What the state holds of an alert: some optional arguments managed, any values stored. */
const storedAlert = fc.record({
  optional: fc.subarray([...OPTIONAL_ARGS]),
  values: members({ threshold: fc.integer(), name: text, state: text, createdAt: instant, team: text }),
});

/** What the state holds of a key: its organization, the managed arguments, the pair, any values stored. */
const storedKey = fc.record({
  managed: fc.subarray([...PATCHABLE_ARGS]),
  values: members({
    name: text,
    roles: fc.subarray(["admin", "developer"]),
    state: text,
    keyId: text,
    keySecret: text,
    keySuffix: text,
    createdAt: instant,
    keepers: fc.dictionary(text, text, { maxKeys: 2 }),
  }),
});

/**
 * Objects of a collection and the id a read asks for: one of theirs, one not listed, or a listed
 * one in upper case. `getFinds` says whether the GET of an id in another case finds the object (a
 * service may compare ids either way).
 */
function scenario<T>(ids: fc.Arbitrary<string>, object: fc.Arbitrary<Wire>, stored: fc.Arbitrary<T>) {
  return fc
    .record({
      objects: fc.uniqueArray(fc.tuple(ids, object), { selector: ([id]) => id, maxLength: 5 }),
      asked: fc.oneof(fc.nat(), fc.constant(-1)),
      upperCase: fc.boolean(),
      getFinds: fc.boolean(),
      unlisted: ids,
      stored,
    })
    .map((s) => {
      const pick = s.objects.length === 0 || s.asked < 0 ? undefined : s.objects[s.asked % s.objects.length];
      const listedId = pick?.[0];
      const id = listedId === undefined ? s.unlisted : s.upperCase ? listedId.toUpperCase() : listedId;
      // The object the GET of `id` answers, if any.
      const byId = new Map(s.objects);
      const found = byId.get(id) ?? (s.getFinds && listedId !== undefined ? pick?.[1] : undefined);
      return { ...s, id, found };
    });
}

/** How an area's service answers: its list, one object, and an id it does not hold. */
interface Answers {
  pool: (api: MockApi) => Pool;
  path: string;
  envelope: (items: unknown[]) => unknown;
  single: (o: Wire) => unknown;
  notFound: unknown;
}

const ALERTING: Answers = {
  pool: (api) => api.alerting,
  path: ALERTS_PATH,
  envelope: (data) => ({ data }),
  single: (o) => ({ data: o }),
  notFound: { message: "not found" },
};

const CLOUD: Answers = {
  pool: (api) => api.cloud,
  path: KEYS_PATH,
  envelope: (result) => ({ status: 200, requestId: "r", result }),
  single: (o) => ({ status: 200, requestId: "r", result: o }),
  notFound: { status: 404, error: "NOT_FOUND: no such key", requestId: "r" },
};

/** The answer a fake service gives: every GET of `path/<id>` the found object (or 404), the list all of them. */
function serve(
  api: MockApi,
  answers: Answers,
  s: { objects: ReadonlyArray<readonly [string, Wire]>; found: Wire | undefined; id: string },
): void {
  const { path } = answers;
  const found = s.found === undefined ? undefined : { ...s.found, id: s.id };
  const pool = answers.pool(api);
  pool
    .intercept({ method: "GET", path: (p) => p === path || p.startsWith(`${path}?`) })
    .reply(200, JSON.stringify(answers.envelope(s.objects.map(([id, o]) => ({ ...o, id })))), {
      headers: { "content-type": "application/json" },
    })
    .persist();
  pool
    .intercept({ method: "GET", path: (p) => p.startsWith(`${path}/`) })
    .reply(
      found === undefined ? 404 : 200,
      JSON.stringify(found === undefined ? answers.notFound : answers.single(found)),
      {
        headers: { "content-type": "application/json" },
      },
    )
    .persist();
}

/** The read's result by the GET path and by the list, each in a fresh process of its own. */
async function bothPaths<R>(read: () => Promise<R>, answer: (api: ReturnType<typeof mockApi>) => void) {
  const results: R[] = [];
  for (const readByList of [false, true]) {
    const api = mockApi();
    try {
      useRuntime({ readByList });
      answer(api);
      results.push(await read());
    } finally {
      await api.close();
    }
  }
  return { byGet: results[0], byList: results[1] };
}

describe("a read served by a list returns exactly what the GET path returns", () => {
  it("for alerts: the same outputs, inputs and gone", async () => {
    await fc.assert(
      fc.asyncProperty(scenario(hex24, wireAlert, storedAlert), async (s) => {
        const props = { ...s.stored.values, ...Object.fromEntries(s.stored.optional.map((n) => [n, "held"])) };
        const { byGet, byList } = await bothPaths(
          () => alert.read(s.id, props),
          (api) => serve(api, ALERTING, s),
        );
        expect(byList).toStrictEqual(byGet);
      }),
      { numRuns: RUNS },
    );
  });

  it("for keys: the same outputs, inputs and gone, the stored pair kept alike", async () => {
    await fc.assert(
      fc.asyncProperty(scenario(fc.uuid(), wireKey, storedKey), async (s) => {
        const props = { organizationId: ORG_ID, managedArgs: s.stored.managed, ...s.stored.values };
        const { byGet, byList } = await bothPaths(
          () => apiKey.read(s.id, props),
          (api) => serve(api, CLOUD, s),
        );
        expect(byList).toStrictEqual(byGet);
      }),
      { numRuns: RUNS },
    );
  });
});
