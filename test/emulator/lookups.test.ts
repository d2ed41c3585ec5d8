// The lookup functions against the emulator over loopback HTTP, through both doors: the TypeScript
// functions in the program's process, and the plugin's Invoke. An estate made by hand is looked up;
// each collection is listed once however many lookups a run makes, and nothing but GETs is sent.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as lookups from "../../provider/dynamic/lookups";
import { resetRuntime } from "../../provider/runtime/runtime";
import {
  TEAM_SECRET,
  exportEnv,
  seedEstate,
  seedTeamObjects,
  type Estate,
  type TeamObjects,
} from "../support/exportRuns";
import { setEnv } from "../support/emulatorPerTest";
import { ALERTS_PATH, KEYS_PATH, ORG_ID, PIPE_IDS, SETTINGS_PATH } from "../support/fixtures";
import { nativeCalls, nativeProviderPerFile, pluginConfig, rejection } from "../support/nativeProvider";

let emu: RunningEmulator;
let estate: Estate;
let restoreEnv = (): void => {};
const native = nativeCalls(nativeProviderPerFile());

beforeAll(async () => {
  emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
  estate = await seedEstate(emu);
  restoreEnv = setEnv(exportEnv(emu));
});
afterAll(async () => {
  restoreEnv();
  resetRuntime();
  await emu.close();
});

const keyIds = () => estate.keys.map((k) => k.split("/")[1] ?? "");

/** `METHOD path` of each request since the log was reset, the query left out. */
const sent = () => emu.requests.map((r) => `${r.method} ${r.path.split("?")[0] ?? ""}`);

describe("the TypeScript lookups, one run", () => {
  beforeAll(() => {
    resetRuntime();
    emu.resetRequestLog();
  });

  it("getAlert finds an alert by its id, with its fields", async () => {
    const alert = await lookups.getAlert({ id: estate.alerts[0] ?? "" });
    expect(alert).toMatchObject({ id: estate.alerts[0], name: "Ingest lag", threshold: 300, source: "search" });
  });

  it("getAlerts, called with no arguments, finds every alert; with a name, those of it", async () => {
    expect((await lookups.getAlerts()).alerts.map((a) => a.id).sort()).toEqual([...estate.alerts].sort());
    const named = await lookups.getAlerts({ name: "High CPU" });
    expect(named.alerts.map((a) => a.threshold).sort()).toEqual([90, 95]);
  });

  it("getApiKey finds a key by id and by name, without its secret", async () => {
    const byName = await lookups.getApiKey({ organizationId: ORG_ID, name: "deployer" });
    expect(byName).toMatchObject({ organizationId: ORG_ID, name: "deployer", roles: ["developer"] });
    expect(await lookups.getApiKey({ organizationId: ORG_ID, id: byName.id })).toEqual(byName);
    expect(Object.keys(byName)).not.toContain("keySecret");
    expect(Object.keys(byName)).not.toContain("hashData");
  });

  it("getApiKey by a name two keys share names both", async () => {
    await expect(lookups.getApiKey({ organizationId: ORG_ID, name: "ci" })).rejects.toThrow(
      /LOOKUP_AMBIGUOUS.*2 API keys named "ci"/,
    );
  });

  it("getApiKeys finds every key of the organization", async () => {
    const found = await lookups.getApiKeys({ organizationId: ORG_ID });
    expect(found.keys.map((k) => k.id).sort()).toEqual(keyIds().sort());
  });

  it("getPipeSettings gives the pipe's settings as the service holds them", async () => {
    const settings = await lookups.getPipeSettings(PIPE_IDS);
    expect(settings).toMatchObject({ ...PIPE_IDS, dbMaxThreads: 12, objectStorageUseClusterFunction: true });
    expect(settings.dbMaxInsertThreads).toBeNull();
  });

  it("listed each collection once and sent nothing but GETs", () => {
    expect(sent()).toEqual([`GET ${ALERTS_PATH}`, `GET ${KEYS_PATH}`, `GET ${SETTINGS_PATH}`]);
  });
});

describe("the plugin's Invoke", () => {
  beforeAll(async () => {
    await native.configure(pluginConfig(emu));
  });

  it("serves getAlert by its token", async () => {
    const alert = await native.invoke("alertpipe:index:getAlert", { id: estate.alerts[1] ?? "" });
    expect(alert).toMatchObject({ id: estate.alerts[1], name: "High CPU", threshold: 90 });
  });

  it("serves getApiKeys with no secret in any key", async () => {
    const found = await native.invoke("alertpipe:index:getApiKeys", { organizationId: ORG_ID });
    expect((found.keys as Array<{ id: string }>).map((k) => k.id).sort()).toEqual(keyIds().sort());
    expect(JSON.stringify(found)).not.toMatch(/keySecret|hashData/);
  });

  it("says what it did not find", async () => {
    const err = await rejection(native.invoke("alertpipe:index:getAlert", { id: "no-such-alert" }));
    expect(err.details).toBe('[LOOKUP_NOT_FOUND] getAlert: there is no alert with id "no-such-alert"');
  });

  it("names an argument it cannot use, before any request", async () => {
    emu.resetRequestLog();
    const err = await rejection(native.invoke("alertpipe:index:getPipeSettings", { ...PIPE_IDS, pipeId: "x" }));
    expect(err.details).toMatch(/^\[LOOKUP_ARGUMENT\] getPipeSettings: pipeId "x" cannot be used: it must be a uuid/);
    expect(emu.requests).toEqual([]);
  });

  it("refuses a token it does not serve, naming those it does", async () => {
    const err = await rejection(native.invoke("alertpipe:index:getNope", {}));
    expect(err.details).toMatch(/\[UNKNOWN_FUNCTION\] .*"alertpipe:index:getNope".*alertpipe:index:getAlert/);
  });
});

describe("the webhook and saved search lookups, through both doors", () => {
  let team: TeamObjects;

  beforeAll(async () => {
    team = await seedTeamObjects(emu);
    resetRuntime();
    emu.resetRequestLog();
  });

  it("getWebhook finds a webhook by its name, with its readable fields alone", async () => {
    const ops = await lookups.getWebhook({ name: "ops" });
    expect(ops).toMatchObject({ id: team.ops, service: "generic", url: "https://hooks.example.com/ops" });
    expect(ops.body).toBe('{"text": "{{title}}"}');
    expect(Object.keys(ops)).not.toContain("headers");
  });

  it("getWebhooks gives an incidentio webhook without its body, nor any header or parameter", async () => {
    const found = await lookups.getWebhooks({});
    expect(found.webhooks.map((w) => w.id).sort()).toEqual([team.ops, team.pager].sort());
    const pager = found.webhooks.find((w) => w.id === team.pager);
    expect(pager).toMatchObject({ name: "pager", service: "incidentio" });
    expect(pager?.body).toBeUndefined();
    expect(JSON.stringify(found)).not.toContain(TEAM_SECRET);
  });

  it("getSavedSearch finds the search by its id and by its name", async () => {
    const byId = await lookups.getSavedSearch({ id: team.errors });
    expect(byId).toMatchObject({ id: team.errors, name: "errors", where: "level:error" });
    expect(await lookups.getSavedSearch({ name: "errors" })).toEqual(byId);
    expect((await lookups.getSavedSearches({ name: "errors" })).savedSearches).toEqual([byId]);
  });

  it("listed webhooks and saved searches once each, sending nothing but GETs", () => {
    expect(sent()).toEqual(["GET /api/v2/webhooks", "GET /api/v2/saved-searches"]);
  });

  it("serves getWebhook by its token, by id, read through the list", async () => {
    const ops = await native.invoke("alertpipe:index:getWebhook", { id: team.ops });
    expect(ops).toMatchObject({ id: team.ops, name: "ops", service: "generic" });
    expect(JSON.stringify(ops)).not.toContain(TEAM_SECRET);
  });

  it("serves getSavedSearches by its token", async () => {
    const found = await native.invoke("alertpipe:index:getSavedSearches", {});
    expect((found.savedSearches as Array<{ id: string }>).map((s) => s.id)).toEqual([team.errors]);
  });
});
