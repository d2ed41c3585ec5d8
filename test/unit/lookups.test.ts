// The lookup functions (provider/lookups/): arguments checked, naming the argument, before any
// request; what was not found named; no secret in a result; alerts and keys read through the one
// listing a run makes.

import { describe, expect, it } from "vitest";
import { LOOKUPS, type LookupField } from "../../provider/lookups/definition";
import { namesWith } from "../../provider/protocol/definition";
import { RESOURCES } from "../../provider/resources";
import { runLookup, lookupNamed } from "../../provider/lookups/run";
import { providerModule } from "../support/dynamicClasses";
import { answerOnce, cloudAnswer, mockApiPerTest, settingsAnsweredOnce } from "../support/mockApi";
import { ALERTS_PATH, ALERT_ID, KEYS_PATH, KEY_UUID, ORG_ID, PIPE_IDS, SETTINGS_PATH } from "../support/fixtures";

const mock = mockApiPerTest();

const FIRST_PAGE = `${ALERTS_PATH}?limit=1000&offset=0`;
const OTHER_UUID = "9b2c1f7e-0d4a-4e8b-8a61-3c5d7e9f1a2b";
const SECRET = "lookup-secret-CANARY-77e1";
const PIPE_SERVICE = { organizationId: PIPE_IDS.organizationId, serviceId: PIPE_IDS.serviceId };
const PIPES_PATH = `/v1/organizations/${ORG_ID}/services/${PIPE_IDS.serviceId}/clickpipes`;
const PIPE_PATH = `${PIPES_PATH}/${PIPE_IDS.pipeId}`;

/** Runs the lookup of `name`, which exists. */
function run(name: string, args: unknown): Promise<Record<string, unknown>> {
  const def = lookupNamed(name);
  if (def === undefined) throw new Error(`no lookup ${name}`);
  return runLookup(def, args);
}

/** A key as a careless service might answer it: with its secret and hash data beside the key's own fields. */
const wireKey = (id: string, name: string) => ({
  id,
  name,
  roles: ["developer"],
  state: "enabled",
  keySuffix: "ab12",
  keySecret: SECRET,
  hashData: { keyIdHash: SECRET, keyIdSuffix: "ab12", keySecretHash: SECRET },
});

const keysListed = (...keys: unknown[]) =>
  answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 200, cloudAnswer(keys));

const alertsListed = (...alerts: unknown[]) =>
  answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: FIRST_PAGE }, 200, { data: alerts });

const HOOKS_PAGE = "/api/v2/webhooks?limit=1000&offset=0";
const SEARCHES_PAGE = "/api/v2/saved-searches?limit=1000&offset=0";
const HOOK_ID = "65f0c1a2b3c4d5e6f7a8b9d1";
const SEARCH_ID = "65f0c1a2b3c4d5e6f7a8b9e2";
const SOURCE_ID = "65a000000000000000000001";

/** A webhook as a careless service might answer it: with the write-only fields a real one never returns. */
const wireHook = (id: string, name: string, service: string) => ({
  id,
  name,
  service,
  url: "https://hooks.example.com/ops",
  body: `{"text": "${SECRET}"}`,
  headers: { "X-Token": SECRET },
  queryParams: { token: SECRET },
  createdAt: "2026-08-21T10:00:00.000Z",
  updatedAt: "2026-08-21T10:00:00.000Z",
});

const hooksListed = (...hooks: unknown[]) =>
  answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: HOOKS_PAGE }, 200, { data: hooks });

const wireSearch = (id: string, name: string) => ({ id, name, sourceId: SOURCE_ID, where: "level:error", tags: [] });

const searchesListed = (...searches: unknown[]) =>
  answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: SEARCHES_PAGE }, 200, { data: searches });

describe("a lookup's arguments", () => {
  const cases: ReadonlyArray<[string, unknown, RegExp]> = [
    ["getAlert", {}, /^\[LOOKUP_ARGUMENT\] getAlert: id is required/],
    ["getAlert", { id: 7 }, /^\[LOOKUP_ARGUMENT\] getAlert: id must be a string/],
    ["getAlert", { id: ".." }, /^\[LOOKUP_ARGUMENT\] getAlert: id "\.\." cannot be used: .*names no object/],
    ["getAlerts", { nmae: "x" }, /^\[LOOKUP_ARGUMENT\] getAlerts: nmae is not an argument of getAlerts; it takes name/],
    ["getApiKey", { organizationId: "not-a-uuid", id: KEY_UUID }, /organizationId "not-a-uuid" cannot be used: .*uuid/],
    ["getApiKey", { organizationId: ORG_ID }, /getApiKey: id or name must be given, one of them and not both/],
    ["getApiKey", { organizationId: ORG_ID, id: KEY_UUID, name: "ci" }, /id or name must be given/],
    ["getApiKeys", {}, /getApiKeys: organizationId is required/],
    ["getPipeSettings", { ...PIPE_IDS, pipeId: "p/1" }, /getPipeSettings: pipeId "p\/1" cannot be used: .*holds a \//],
    ["getWebhook", {}, /^\[LOOKUP_ARGUMENT\] getWebhook: id or name must be given, one of them and not both/],
    ["getWebhook", { id: "a/b" }, /^\[LOOKUP_ARGUMENT\] getWebhook: id "a\/b" cannot be used/],
    ["getWebhooks", { service: "slack" }, /getWebhooks: service is not an argument of getWebhooks; it takes name/],
    ["getSavedSearch", { id: HOOK_ID, name: "errors" }, /getSavedSearch: id or name must be given/],
    ["getSavedSearches", { name: 3 }, /getSavedSearches: name must be a string/],
    ["getClickPipe", PIPE_SERVICE, /^\[LOOKUP_ARGUMENT\] getClickPipe: clickPipeId is required/],
    ["getClickPipe", { ...PIPE_SERVICE, clickPipeId: "p/1" }, /getClickPipe: clickPipeId "p\/1" cannot be used/],
    ["getClickPipe", { ...PIPE_SERVICE, clickPipeId: "not-a-uuid" }, /clickPipeId "not-a-uuid" cannot be used: .*uuid/],
    [
      "getClickPipe",
      { ...PIPE_SERVICE, clickPipeId: PIPE_IDS.pipeId, name: "x" },
      /name is not an argument of getClickPipe/,
    ],
    ["getClickPipes", { organizationId: ORG_ID }, /^\[LOOKUP_ARGUMENT\] getClickPipes: serviceId is required/],
    ["getClickPipes", { ...PIPE_SERVICE, name: 3 }, /getClickPipes: name must be a string/],
    [
      "getClickPipes",
      { ...PIPE_SERVICE, clickPipeId: PIPE_IDS.pipeId },
      /clickPipeId is not an argument of getClickPipes/,
    ],
  ];
  for (const [name, args, words] of cases) {
    it(`${name}(${JSON.stringify(args)}) fails naming the argument, sending nothing`, async () => {
      await expect(run(name, args)).rejects.toThrow(words);
      expect(mock.seen).toEqual([]);
    });
  }
});

describe("what a lookup did not find", () => {
  it("getAlert names the alert's id", async () => {
    alertsListed({ id: "other", name: "x" });
    await expect(run("getAlert", { id: ALERT_ID })).rejects.toThrow(
      `[LOOKUP_NOT_FOUND] getAlert: there is no alert with id "${ALERT_ID}"`,
    );
  });

  it("getApiKey by id names the key and the organization", async () => {
    keysListed(wireKey(OTHER_UUID, "other"));
    await expect(run("getApiKey", { organizationId: ORG_ID, id: KEY_UUID })).rejects.toThrow(
      `[LOOKUP_NOT_FOUND] getApiKey: organization "${ORG_ID}" has no API key with id "${KEY_UUID}"`,
    );
  });

  it("getApiKey by name names the name", async () => {
    keysListed(wireKey(OTHER_UUID, "other"));
    await expect(run("getApiKey", { organizationId: ORG_ID, name: "ci" })).rejects.toThrow(
      `organization "${ORG_ID}" has no API key named "ci"`,
    );
  });

  it("getApiKey by a name several keys hold lists their ids", async () => {
    keysListed(wireKey(KEY_UUID, "ci"), wireKey(OTHER_UUID, "ci"));
    await expect(run("getApiKey", { organizationId: ORG_ID, name: "ci" })).rejects.toThrow(
      `[LOOKUP_AMBIGUOUS] getApiKey: organization "${ORG_ID}" has 2 API keys named "ci": ${KEY_UUID}, ${OTHER_UUID}`,
    );
  });

  it("getApiKeys names an organization the service does not have", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 404, { status: 404, error: "NOT_FOUND" });
    await expect(run("getApiKeys", { organizationId: ORG_ID })).rejects.toThrow(
      `[LOOKUP_NOT_FOUND] getApiKeys: there is no organization "${ORG_ID}" (GET ${KEYS_PATH} answered 404)`,
    );
  });

  it("getClickPipe names the pipe, its service and organization, and the 404", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: PIPE_PATH }, 404, { status: 404, error: "NOT_FOUND" });
    await expect(run("getClickPipe", { ...PIPE_SERVICE, clickPipeId: PIPE_IDS.pipeId })).rejects.toThrow(
      `[LOOKUP_NOT_FOUND] getClickPipe: service "${PIPE_IDS.serviceId}" of organization "${ORG_ID}" has no ClickPipe ` +
        `"${PIPE_IDS.pipeId}" (GET ${PIPE_PATH} answered 404)`,
    );
  });

  it("getPipeSettings names the pipe, its service and organization", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: SETTINGS_PATH }, 404, {
      status: 404,
      error: "NOT_FOUND",
    });
    await expect(run("getPipeSettings", PIPE_IDS)).rejects.toThrow(
      `[LOOKUP_NOT_FOUND] getPipeSettings: there is no pipe "${PIPE_IDS.pipeId}" of service "${PIPE_IDS.serviceId}" in organization "${ORG_ID}"`,
    );
  });
});

describe("what a webhook or saved search lookup did not find", () => {
  it("getWebhook by id names the id, having read the list (there is no GET of one webhook)", async () => {
    hooksListed(wireHook("other", "ops", "generic"));
    await expect(run("getWebhook", { id: HOOK_ID })).rejects.toThrow(
      `[LOOKUP_NOT_FOUND] getWebhook: there is no webhook with id "${HOOK_ID}"`,
    );
    expect(mock.seen.map((r) => r.path)).toEqual([HOOKS_PAGE]);
  });

  it("getWebhook by a name webhooks of two services share lists their ids with their services", async () => {
    hooksListed(wireHook(HOOK_ID, "ops", "generic"), wireHook("h-2", "ops", "slack"));
    await expect(run("getWebhook", { name: "ops" })).rejects.toThrow(
      `[LOOKUP_AMBIGUOUS] getWebhook: the caller has 2 webhooks named "ops": ${HOOK_ID} (generic), h-2 (slack)`,
    );
  });

  it("getSavedSearch by name names the name", async () => {
    searchesListed(wireSearch(SEARCH_ID, "errors"));
    await expect(run("getSavedSearch", { name: "warnings" })).rejects.toThrow(
      '[LOOKUP_NOT_FOUND] getSavedSearch: the caller has no saved search named "warnings"',
    );
  });

  it("getSavedSearches names a list the service does not have", async () => {
    answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: SEARCHES_PAGE }, 404, { message: "Not found" });
    await expect(run("getSavedSearches", {})).rejects.toThrow(
      "[LOOKUP_NOT_FOUND] getSavedSearches: the service has no list of saved searches (GET /api/v2/saved-searches",
    );
  });
});

describe("the TypeScript functions", () => {
  it("are one per lookup of the registry, exported by the package under the lookup's name", () => {
    const pkg = providerModule("./provider/index") as Record<string, unknown>;
    const functions = Object.keys(pkg).filter((n) => /^get[A-Z]/.test(n) && typeof pkg[n] === "function");
    expect(functions.sort()).toEqual(LOOKUPS.map((l) => l.name).sort());
  });
});

describe("a lookup's result", () => {
  it("names no property any resource holds secret, in any lookup or the records of its lists", () => {
    const secrets = RESOURCES.flatMap((r) => namesWith(r.definition, "secret"));
    const names = (fields: Readonly<Record<string, LookupField>>): string[] =>
      Object.entries(fields).flatMap(([n, f]) => [n, ...(f.type.kind === "records" ? names(f.type.fields) : [])]);
    expect(secrets).toEqual(expect.arrayContaining(["keySecret", "hashData"]));
    for (const l of LOOKUPS)
      expect(
        names(l.outputs).filter((n) => secrets.includes(n)),
        l.name,
      ).toEqual([]);
  });

  it("getApiKey holds the key's fields and no secret, even when the service answers one", async () => {
    keysListed(wireKey(KEY_UUID, "ci"));
    const key = await run("getApiKey", { organizationId: ORG_ID, name: "ci" });
    expect(key).toEqual({
      id: KEY_UUID,
      organizationId: ORG_ID,
      name: "ci",
      roles: ["developer"],
      state: "enabled",
      keySuffix: "ab12",
    });
    expect(JSON.stringify(key)).not.toContain(SECRET);
  });

  it("getClickPipe holds the pipe as answered, less any credential a careless service echoes", async () => {
    const kafka = { type: "confluent", brokers: "b:9092", authentication: "PLAIN" };
    answerOnce(
      mock.api.cloud,
      mock.seen,
      { method: "GET", path: PIPE_PATH },
      200,
      cloudAnswer({
        id: PIPE_IDS.pipeId,
        name: "orders",
        state: "Paused",
        source: {
          kafka: {
            ...kafka,
            credentials: { username: "u", password: SECRET },
            schemaRegistry: { url: "https://r", credentials: { password: SECRET } },
          },
        },
        settings: { streaming_max_insert_wait_ms: 1000 },
      }),
    );
    const pipe = await run("getClickPipe", { ...PIPE_SERVICE, clickPipeId: PIPE_IDS.pipeId });
    expect(pipe).toEqual({
      clickPipeId: PIPE_IDS.pipeId,
      ...PIPE_SERVICE,
      name: "orders",
      state: "Paused",
      stopped: true,
      source: { kafka: { ...kafka, schemaRegistry: { url: "https://r" } } },
      settings: { streamingMaxInsertWaitMs: 1000 },
    });
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${PIPE_PATH}`]);
  });

  it("getClickPipes keeps those of the name given, from one GET of the list", async () => {
    const pipe = (id: string, name: string) => ({ id, name, state: "Running" });
    answerOnce(
      mock.api.cloud,
      mock.seen,
      { method: "GET", path: PIPES_PATH },
      200,
      cloudAnswer([pipe(PIPE_IDS.pipeId, "orders"), pipe(OTHER_UUID, "clicks")]),
    );
    const found = await run("getClickPipes", { ...PIPE_SERVICE, name: "clicks" });
    expect(found).toEqual({
      ...PIPE_SERVICE,
      clickPipes: [{ clickPipeId: OTHER_UUID, ...PIPE_SERVICE, name: "clicks", state: "Running", stopped: false }],
    });
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${PIPES_PATH}`]);
  });

  it("getApiKeys holds no secret of any key", async () => {
    keysListed(wireKey(KEY_UUID, "ci"), wireKey(OTHER_UUID, "deployer"));
    const found = await run("getApiKeys", { organizationId: ORG_ID });
    expect((found.keys as Array<{ id: string }>).map((k) => k.id)).toEqual([KEY_UUID, OTHER_UUID]);
    expect(JSON.stringify(found)).not.toContain(SECRET);
    expect(JSON.stringify(found)).not.toContain("hashData");
  });

  it("getAlert and getAlerts of one run list the alerts once", async () => {
    alertsListed({ id: ALERT_ID, name: "High CPU", threshold: 90 }, { id: "a-2", name: "Other", threshold: 1 });
    const one = await run("getAlert", { id: ALERT_ID });
    const named = await run("getAlerts", { name: "Other" });
    expect(one).toMatchObject({ id: ALERT_ID, name: "High CPU", threshold: 90 });
    expect(named).toEqual({ alerts: [{ id: "a-2", name: "Other", threshold: 1 }] });
    expect(mock.seen.map((r) => r.path)).toEqual([FIRST_PAGE]);
  });

  it("getWebhook holds the webhook's readable fields, never a write-only one, even when the service answers them", async () => {
    hooksListed(wireHook(HOOK_ID, "ops", "incidentio"));
    const hook = await run("getWebhook", { name: "ops" });
    expect(hook).toEqual({
      id: HOOK_ID,
      name: "ops",
      service: "incidentio",
      url: "https://hooks.example.com/ops",
      createdAt: "2026-08-21T10:00:00.000Z",
      updatedAt: "2026-08-21T10:00:00.000Z",
    });
    expect(JSON.stringify(hook)).not.toContain(SECRET);
  });

  it("getWebhooks keeps a generic webhook's body, which the service returns, and no header or parameter", async () => {
    hooksListed(wireHook(HOOK_ID, "ops", "generic"), wireHook("h-2", "chat", "slack"));
    const found = await run("getWebhooks", { name: "ops" });
    expect(found).toEqual({ webhooks: [expect.objectContaining({ id: HOOK_ID, body: `{"text": "${SECRET}"}` })] });
    expect(JSON.stringify(found)).not.toMatch(/headers|queryParams|X-Token/);
  });

  it("getSavedSearch by id and getSavedSearches of one run list the searches once", async () => {
    searchesListed(wireSearch(SEARCH_ID, "errors"), wireSearch("s-2", "errors"));
    const one = await run("getSavedSearch", { id: SEARCH_ID });
    const named = await run("getSavedSearches", { name: "errors" });
    expect(one).toEqual({ id: SEARCH_ID, name: "errors", sourceId: SOURCE_ID, where: "level:error", tags: [] });
    expect((named.savedSearches as Array<{ id: string }>).map((s) => s.id)).toEqual([SEARCH_ID, "s-2"]);
    expect(mock.seen.map((r) => r.path)).toEqual([SEARCHES_PAGE]);
  });

  it("getPipeSettings gives every setting, null when unset", async () => {
    settingsAnsweredOnce(mock, { db_max_threads: 8 });
    const settings = await run("getPipeSettings", PIPE_IDS);
    expect(settings).toMatchObject({ ...PIPE_IDS, dbMaxThreads: 8, dbMaxInsertThreads: null });
    expect(Object.keys(settings)).toEqual(Object.keys(LOOKUPS[4].outputs));
  });
});
