// All five resources on ClickHouse Cloud as it speaks (issue 37), on the real engine through both
// doors: the dynamic classes (Automation API, inline program) and Pulumi YAML through the plugin.
// The emulator's Cloud mode, configured with only the settings the guide names
// (docs/guides/real-accounts.md): the Cloud URL, key and secret, the dialect set explicitly as it
// says for a host other than *.clickhouse.cloud, and the two ids of managed ClickStack. PipeSettings
// and ApiKey go to the Cloud API's area B (the Cloud's names on the wire), Webhook, SavedSearch and
// Alert to the service's /clickstack path, all with the one key. Up makes all five; a second preview
// has nothing to do; drift by hand is found by refresh and put back by up; destroy leaves nothing.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import { repoRoot } from "../../scripts/packedPackage";
import { byHand, changes, emulator as startEmulator, installedPackage, requestLog } from "../support/engine";
import { CLOUD_MODE, dynamicDoor, guideConfig, timedRun, yamlDoor, type Door } from "../support/cloudDoors";
import { KEYS_PATH, PIPE_IDS, PIPE_RESOURCE_ID } from "../support/fixtures";

// The ClickPipe and ClickStack of one service of the organization.
const ORG = PIPE_IDS.organizationId;
const SVC = PIPE_IDS.serviceId;
const CLICKPIPE = `/v1/organizations/${ORG}/services/${SVC}/clickpipes/${PIPE_IDS.pipeId}/settings`;
const BASE = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;
const URL = "https://hooks.example.com/ops";

const PIPE = { ...PIPE_IDS, dbMaxThreads: 8, dbParallelViewProcessing: true, resetOnDelete: true };
const KEY = { organizationId: ORG, name: "ci", roles: ["developer" as const] };
const HOOK = { name: "ops", service: "generic" as const, url: URL };
const SEARCH = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };
const ALERT = {
  name: "Error rate",
  source: "search" as const,
  threshold: 10,
  thresholdType: "above" as const,
  interval: "5m" as const,
};

const isWrite = (method: string) => method !== "GET";

it("configures the stacks with settings the guide names, and no others", async () => {
  const guide = readFileSync(join(repoRoot(), "docs", "guides", "real-accounts.md"), "utf8");
  const named = new Set(guide.match(/alertpipe:[A-Za-z]+/g));
  const emu = await startEmulator(CLOUD_MODE);
  expect(Object.keys(guideConfig(emu)).filter((key) => !named.has(key))).toEqual([]);
});

async function dynamic(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  return dynamicDoor(emu, guideConfig(emu), "clickhouse-cloud", async () => {
    const pkg = installedPackage();
    new pkg.PipeSettings("ingest", PIPE);
    new pkg.ApiKey("ci", KEY);
    const hook = new pkg.Webhook("ops", HOOK);
    const search = new pkg.SavedSearch("errors", SEARCH);
    const channel = { type: "webhook" as const, webhookId: hook.id };
    new pkg.Alert("errorRate", { ...ALERT, channel, savedSearchId: search.id });
  });
}

async function yaml(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  return yamlDoor(emu, guideConfig(emu), {
    ingest: { type: "alertpipe:index:PipeSettings", properties: PIPE },
    ci: { type: "alertpipe:index:ApiKey", properties: KEY },
    ops: { type: "alertpipe:index:Webhook", properties: HOOK },
    errors: { type: "alertpipe:index:SavedSearch", properties: SEARCH },
    errorRate: {
      type: "alertpipe:index:Alert",
      properties: { ...ALERT, channel: { type: "webhook", webhookId: "${ops.id}" }, savedSearchId: "${errors.id}" },
    },
  });
}

describe.each([
  ["the dynamic classes", dynamic],
  ["Pulumi YAML through the plugin", yaml],
])("all five resources on ClickHouse Cloud and its managed ClickStack, through %s", (door, open) => {
  let d: Door;
  const only = <T>(record: Record<string, T> | undefined): string => Object.keys(record ?? {})[0] ?? "";
  const run = timedRun(door, () => d);

  beforeAll(async () => {
    d = await open();
  }, 300_000);

  it("makes all five in one up, with the Cloud's path and names, every request the one key's and answered 200", async () => {
    const up = await run("up");
    expect(changes(up)).toEqual(["create ci", "create errorRate", "create errors", "create ingest", "create ops"]);
    // The contract's /pipes/ is not served there, and /clickpipes/ takes the Cloud's names alone.
    expect(requestLog(d.emu, isWrite).sort()).toEqual(
      [
        `POST ${BASE}/alerts`,
        `POST ${BASE}/saved-searches`,
        `POST ${BASE}/webhooks`,
        `POST ${KEYS_PATH}`,
        `PUT ${CLICKPIPE}`,
      ].sort(),
    );
    expect(d.emu.requests.filter((r) => r.status !== 200 || r.area !== "cloud")).toEqual([]);
    const snap = d.emu.snapshot();
    expect(snap.pipes[PIPE_RESOURCE_ID]).toEqual({ db_max_threads: 8, db_parallel_view_processing: true });
    expect(Object.values(snap.keys).map((k) => k.name)).toEqual(["ci"]);
    expect(Object.values(snap.alerts)).toEqual([
      expect.objectContaining({
        channel: { type: "webhook", webhookId: only(snap.webhooks) },
        savedSearch: only(snap.savedSearches),
      }),
    ]);
  });

  it("has nothing to do in a second preview", async () => {
    d.emu.resetRequestLog();
    const preview = await run("preview");
    expect(changes(preview)).toEqual([]);
    expect(requestLog(d.emu, isWrite)).toEqual([]);
  });

  it("finds a pipe setting, a key's name and a webhook's url changed by hand on refresh, and puts them back on up", async () => {
    const keyId = d.state().get("ci")?.id ?? "";
    const hookId = only(d.emu.snapshot().webhooks);
    await byHand(d.emu, "PUT", CLICKPIPE, { clickhouse_max_threads: 32 });
    await byHand(d.emu, "PATCH", `${KEYS_PATH}/${keyId}`, { name: "renamed by hand" });
    await byHand(d.emu, "PUT", `${BASE}/webhooks/${hookId}`, { ...HOOK, url: "https://x.example.com/" });

    d.emu.resetRequestLog();
    const refresh = await run("refresh");
    expect(changes(refresh)).toEqual(["refresh-update ci", "refresh-update ingest", "refresh-update ops"]);
    expect(requestLog(d.emu)).toContain(`GET ${CLICKPIPE}`);
    const state = d.state();
    expect(state.get("ingest")?.outputs).toMatchObject({ dbMaxThreads: 32, dbParallelViewProcessing: true });
    expect(state.get("ci")?.outputs).toMatchObject({ name: "renamed by hand" });
    expect(state.get("ops")?.outputs).toMatchObject({ url: "https://x.example.com/" });

    d.emu.resetRequestLog();
    const up = await run("up");
    expect(changes(up)).toEqual(["update ci", "update ingest", "update ops"]);
    expect(requestLog(d.emu, isWrite).sort()).toEqual(
      [`PATCH ${KEYS_PATH}/${keyId}`, `PUT ${BASE}/webhooks/${hookId}`, `PUT ${CLICKPIPE}`].sort(),
    );
    const snap = d.emu.snapshot();
    expect(snap.pipes[PIPE_RESOURCE_ID]).toMatchObject({ db_max_threads: 8 });
    expect(snap.keys[keyId]?.name).toBe("ci");
    expect(snap.webhooks?.[hookId]).toMatchObject({ url: URL });
  });

  it("destroys all five, the alert before its webhook, and leaves nothing", async () => {
    d.emu.resetRequestLog();
    const destroy = await run("destroy");
    expect(changes(destroy)).toEqual(["delete ci", "delete errorRate", "delete errors", "delete ingest", "delete ops"]);
    const writes = requestLog(d.emu, isWrite);
    const alertDeleted = writes.findIndex((w) => w.startsWith(`DELETE ${BASE}/alerts/`));
    expect(alertDeleted).toBeGreaterThanOrEqual(0);
    expect(writes.findIndex((w) => w.startsWith(`DELETE ${BASE}/webhooks/`))).toBeGreaterThan(alertDeleted);
    const snap = d.emu.snapshot();
    expect([snap.alerts, snap.webhooks, snap.savedSearches, snap.keys]).toEqual([{}, {}, {}, {}]);
    expect(snap.pipes[PIPE_RESOURCE_ID]).toEqual({ db_max_threads: null, db_parallel_view_processing: null });
  });
});
