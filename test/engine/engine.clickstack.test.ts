// Webhook + SavedSearch + Alert on managed ClickStack, through the emulator's ClickHouse Cloud mode,
// on the real engine through both doors: the dynamic classes (Automation API, inline program) and
// Pulumi YAML through the native plugin. Only the settings the docs name for managed ClickStack are
// set (cloudUrl, cloudKeyId, cloudKeySecret and the two ids; no alertingUrl or alertingToken): up
// makes all three under the service's /clickstack path; a second preview has nothing to do; drift by
// hand is found by refresh; destroy leaves nothing.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { SEEDED_SOURCES } from "../../emulator";
import type { Step } from "../../scripts/engine/stack";
import type { StackConfig } from "../../scripts/exampleStack";
import {
  byHand,
  changes,
  emulator as startEmulator,
  installedPackage,
  requestLog,
  stackWith,
  told,
} from "../support/engine";
import { yamlProgram, yamlStack } from "../support/yamlStack";

const ORG = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const SVC = "7b2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e";
const BASE = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;
const URL = "https://hooks.example.com/ops";
const HOOK = { name: "ops", service: "generic", url: URL };
const SEARCH = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };
const ALERT = { name: "Error rate", source: "search", threshold: 10, thresholdType: "above", interval: "5m" };
const CLOUD_MODE = { cloudDialect: "clickhouse", rateLimits: { cloud: false, alerting: false } } as const;

/** Managed ClickStack's settings alone, as the docs name them. */
function managedConfig(emu: RunningEmulator): StackConfig {
  return {
    "alertpipe:cloudUrl": { value: emu.url },
    "alertpipe:cloudKeyId": { value: emu.keyId },
    "alertpipe:cloudKeySecret": { value: emu.keySecret, secret: true },
    "alertpipe:clickstackOrganizationId": { value: ORG },
    "alertpipe:clickstackServiceId": { value: SVC },
  };
}

const isWrite = (method: string) => method !== "GET";

interface Door {
  emu: RunningEmulator;
  run(kind: "up" | "refresh" | "destroy" | "preview"): Promise<{ ok: boolean; steps: Step[]; told: string }>;
}

async function dynamicDoor(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  const stack = await stackWith(managedConfig(emu), "clickstack", {
    program: async () => {
      const pkg = installedPackage();
      const hook = new pkg.Webhook("ops", HOOK as never);
      const search = new pkg.SavedSearch("errors", SEARCH);
      const channel = { type: "webhook", webhookId: hook.id };
      new pkg.Alert("errorRate", { ...ALERT, channel, savedSearchId: search.id } as never);
    },
  });
  return {
    emu,
    run: async (kind) => {
      const r = await stack[kind]();
      return { ok: r.ok, steps: r.steps, told: told(r) };
    },
  };
}

async function yamlDoor(): Promise<Door> {
  const emu = await startEmulator(CLOUD_MODE);
  const resources = {
    ops: { type: "alertpipe:index:Webhook", properties: HOOK },
    errors: { type: "alertpipe:index:SavedSearch", properties: SEARCH },
    errorRate: {
      type: "alertpipe:index:Alert",
      properties: { ...ALERT, channel: { type: "webhook", webhookId: "${ops.id}" }, savedSearchId: "${errors.id}" },
    },
  };
  const yaml = await yamlStack(undefined, yamlProgram({ resources }), { config: managedConfig(emu) });
  const args = {
    up: ["up", "--yes"],
    refresh: ["refresh", "--yes"],
    destroy: ["destroy", "--yes"],
    preview: ["preview"],
  };
  return {
    emu,
    run: async (kind) => {
      const r = await yaml.stack.runLogged(kind, args[kind]);
      return { ok: r.code === 0, steps: r.steps, told: `${r.output}\n${r.diagnostics.join("\n")}` };
    },
  };
}

describe.each([
  ["the dynamic classes", dynamicDoor],
  ["Pulumi YAML through the plugin", yamlDoor],
])("a webhook, a saved search and an alert on managed ClickStack, through %s", (door, open) => {
  let d: Door;
  const hookId = () => Object.keys(d.emu.snapshot().webhooks ?? {})[0] ?? "";
  const run = async (kind: Parameters<Door["run"]>[0]) => {
    const t0 = Date.now();
    const r = await d.run(kind);
    console.log(`${door}: ${kind} ${Date.now() - t0} ms`);
    expect(r.ok, r.told).toBe(true);
    return r;
  };

  beforeAll(async () => {
    d = await open();
  }, 300_000);

  it("makes all three in one up, every request under the service's /clickstack path", async () => {
    const up = await run("up");
    expect(changes(up)).toEqual(["create errorRate", "create errors", "create ops"]);
    const snap = d.emu.snapshot();
    expect(Object.values(snap.alerts)).toEqual([
      expect.objectContaining({ channel: { type: "webhook", webhookId: hookId() } }),
    ]);
    const paths = d.emu.requests.map((r) => r.path);
    expect(paths.filter((p) => !p.startsWith(`${BASE}/`))).toEqual([]);
  });

  it("has nothing to do in a second preview", async () => {
    d.emu.resetRequestLog();
    const preview = await run("preview");
    expect(changes(preview)).toEqual([]);
    expect(requestLog(d.emu, isWrite)).toEqual([]);
  });

  it("finds the url changed by hand on refresh, and puts it back on up", async () => {
    const id = hookId();
    await byHand(d.emu, "PUT", `${BASE}/webhooks/${id}`, { ...HOOK, url: "https://x.example.com/" });
    const refresh = await run("refresh");
    expect(changes(refresh)).toContain("refresh-update ops");
    d.emu.resetRequestLog();
    const up = await run("up");
    expect(changes(up)).toEqual(["update ops"]);
    expect(requestLog(d.emu, isWrite)).toEqual([`PUT ${BASE}/webhooks/${id}`]);
    expect(d.emu.snapshot().webhooks?.[id]).toMatchObject({ url: URL });
  });

  it("destroys all three and leaves nothing", async () => {
    d.emu.resetRequestLog();
    await run("destroy");
    const writes = requestLog(d.emu, isWrite);
    const alertDeleted = writes.findIndex((w) => w.startsWith(`DELETE ${BASE}/alerts/`));
    expect(alertDeleted).toBeGreaterThanOrEqual(0);
    expect(writes.findIndex((w) => w.startsWith(`DELETE ${BASE}/webhooks/`))).toBeGreaterThan(alertDeleted);
    const snap = d.emu.snapshot();
    expect([snap.alerts, snap.webhooks, snap.savedSearches]).toEqual([{}, {}, {}]);
  });
});
