// Each resource on its own through the real Pulumi engine (the CLI via the Automation API, inline
// programs) against the bundled emulator: the whole lifecycle, drift, a create that fails after the
// object exists, many resources at the engine's own parallelism, reading an existing object, and a
// preview whose inputs are not known yet. Programs build resources from the packed package as
// installed in examples/node_modules, so the provider is serialized as in a user's program.

import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { AlertArgs, ApiKeyArgs, PipeSettingsArgs } from "../../provider";
import { hashDataFor, sha256Base64 } from "../support/hashData";
import type { RunResult, StackOnEmulator } from "../support/engine";
import {
  byHand,
  changes,
  installedPackage,
  newStack,
  ourState,
  credentialChecks,
  requestLog as sent,
  sharedStack,
  succeeded,
  thresholdByHand,
} from "../support/engine";
import { ORG_ID as ORG } from "../support/fixtures";
import { HAND_MADE_ALERT } from "../support/programs";
import { rewritingProxy, without } from "../support/rewritingProxy";

const OTHER_ORG = "3d6f0a8e-8f5a-4c1e-9b7a-2f1d4c3b5a69";
const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const PIPE = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";
const OTHER_PIPE = "2c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bee";
const settingsPath = (pipe: string) => `/v1/organizations/${ORG}/services/${SERVICE}/pipes/${pipe}/settings`;
const pipeKey = (pipe: string) => `${ORG}/${SERVICE}/${pipe}`;

/** The value the engine puts where an input is not known yet, in preview. */
const UNKNOWN_IN_PREVIEW = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const ALERT_ARGS = [
  "threshold",
  "interval",
  "source",
  "thresholdType",
  "channel",
  "dashboardId",
  "tileId",
  "name",
  "message",
] as const;
const KEY_ARGS = ["organizationId", "roles", "name", "expireAt", "state", "ipAccessList", "hashData"] as const;
const PIPE_ARGS = [
  "organizationId",
  "serviceId",
  "pipeId",
  "resetOnDelete",
  ...installedPackage().SETTING_NAMES,
] as const;

const ALERT: AlertArgs = {
  name: "Ingest lag",
  source: "tile",
  dashboardId: "dash-ingest",
  tileId: "tile-lag",
  threshold: 300,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "ops-oncall" },
};

/** One resource of ours, as the engine reports it: the stack and the provider are left out. */
function ours(result: RunResult) {
  return result.steps.filter((s) => s.type.startsWith("pulumi-nodejs:dynamic/alertpipe:"));
}

/**
 * The inputs a step changed, from the engine's own old and new state of the resource. The step's
 * `diffs` cannot say: Pulumi's Node.js dynamic-provider host passes on only `changes`, `replaces`
 * and `deleteBeforeReplace` from a diff, so the engine reports no property names for our resources.
 * Only the program's arguments are compared (the provider may also carry outputs among inputs),
 * and only names are returned, never values: the events carry secrets in plain text.
 */
function changedInputs(result: RunResult, name: string, args: readonly string[]): string[] {
  let last: { old?: Record<string, unknown>; new?: Record<string, unknown> } | undefined;
  for (const e of result.events) {
    const m = e.resOutputsEvent?.metadata ?? e.resourcePreEvent?.metadata;
    if (m !== undefined && m.urn.endsWith(`::${name}`))
      last = { ...(m.old ? { old: m.old.inputs } : {}), ...(m.new ? { new: m.new.inputs } : {}) };
  }
  const before = last?.old ?? {};
  const after = last?.new ?? {};
  return args.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

const isWrite = (method: string) => method !== "GET";

/** The first test of a resource alone: its preview plans one create and sends nothing. */
function previewsOneCreate(t: StackOnEmulator, name: string): void {
  it("previews one create and sends nothing but its credential's check", async () => {
    const result = succeeded(await t.stack.preview());
    expect(ours(result).map((step) => `${step.op} ${step.name}`)).toEqual([`create ${name}`]);
    expect(sent(t.emu)).toEqual([]);
    expect(credentialChecks(t.emu)).toHaveLength(1);
  });
}

/** The resource, its arguments, and the one of them that changed. */
type Changed = [name: string, args: readonly string[], input: string];

/** An up after the program changed one argument: one in-place update naming it, with one write. */
async function updatedInPlace(t: StackOnEmulator, [name, args, input]: Changed, write: string): Promise<void> {
  t.emu.resetRequestLog();
  const result = succeeded(await t.stack.up());
  expect(changes(result)).toEqual([`update ${name}`]);
  expect(changedInputs(result, name, args)).toEqual([input]);
  expect(sent(t.emu)).toEqual([write]);
}

/** An up after the program changed an argument that forces a replacement: one replace, naming it. */
async function replacedOn(t: StackOnEmulator, input: string): Promise<void> {
  t.emu.resetRequestLog();
  const step = ours(succeeded(await t.stack.up()))[0];
  expect(step?.op).toBe("replace");
  expect(step?.replaceKeys).toContain(input);
}

interface Drift {
  /** The change a person makes at the console. */
  byHand: () => Promise<unknown>;
  /** The one request the refresh sends, and what the next up sends to put the object back: one write, and what it asks first. */
  read: string;
  write: string | string[];
  /** What the refresh finds changed. */
  changed: Changed;
}

/** A change made by hand: refresh shows it with one read and no write, and the next up puts it back with one write. */
async function driftShownThenPutBack(t: StackOnEmulator, drift: Drift): Promise<void> {
  const [name, args, input] = drift.changed;
  await drift.byHand();
  t.emu.resetRequestLog();
  const refreshed = succeeded(await t.stack.refresh());
  expect(sent(t.emu)).toEqual([drift.read]);
  expect(ours(refreshed)[0]?.op).toBe("refresh-update");
  expect(changedInputs(refreshed, name, args)).toEqual([input]);

  t.emu.resetRequestLog();
  const result = succeeded(await t.stack.up());
  expect(changes(result)).toEqual([`update ${name}`]);
  expect(sent(t.emu)).toEqual([drift.write].flat());
}

/** The test after its create: the same program again is every step same and no write. */
function unchangedSendsNoWrite(t: StackOnEmulator): void {
  it("reports every step same and sends no write on an unchanged program", async () => {
    t.emu.resetRequestLog();
    const result = succeeded(await t.stack.up());
    expect(ours(result).map((step) => step.op)).toEqual(["same"]);
    expect(sent(t.emu, isWrite)).toEqual([]);
  });
}

describe("an Alert alone on the real engine", () => {
  // The program reads these on every run, so a test changes the program by assigning them.
  let args: AlertArgs = ALERT;
  let alertId = "";
  const t = sharedStack("alert-alone", async ({ Alert }) => ({ id: new Alert("lag", args).id }));
  previewsOneCreate(t, "lag");

  it("creates the alert with one POST, after asking whether the service holds its dashboard", async () => {
    const result = succeeded(await t.stack.up());
    // A tile alert's tile is checked where the service holds dashboards (issue 45); the contract's answers 404.
    expect(sent(t.emu)).toEqual(["GET /api/v2", "POST /api/v2/alerts"]);
    const alerts = Object.values(t.emu.snapshot().alerts);
    expect(alerts).toHaveLength(1);
    alertId = alerts[0]?.id ?? "";
    expect(result.outputs.id?.value).toBe(alertId);
    expect(alerts[0]).toMatchObject({
      name: "Ingest lag",
      threshold: 300,
      dashboard: "dash-ingest",
      tileId: "tile-lag",
    });
  });

  unchangedSendsNoWrite(t);

  it("updates a changed threshold in place with one PUT of the same alert", async () => {
    args = { ...ALERT, threshold: 600 };
    await updatedInPlace(t, ["lag", ALERT_ARGS, "threshold"], `PUT /api/v2/alerts/${alertId}`);
    expect(t.emu.snapshot().alerts[alertId]?.threshold).toBe(600);
  });

  it("changes even the source in place: nothing about an alert forces a replacement", async () => {
    t.emu.resetRequestLog();
    args = { ...ALERT, threshold: 600, source: "search", dashboardId: undefined, tileId: undefined };
    const result = succeeded(await t.stack.up());
    expect(changes(result)).toEqual(["update lag"]);
    // A search alert's first write of the process asks the service's spelling of `source` (alert/dialect.ts).
    expect(sent(t.emu)).toEqual(["GET /api/v2", `PUT /api/v2/alerts/${alertId}`]);
    expect(Object.keys(t.emu.snapshot().alerts)).toEqual([alertId]);
    expect(t.emu.snapshot().alerts[alertId]).toMatchObject({ source: "search" });
  });

  it("shows a threshold changed by hand on refresh, with GETs only, and the next up puts it back", async () => {
    await driftShownThenPutBack(t, {
      byHand: () => thresholdByHand(t.emu, alertId, 42),
      // One listing of the alerts serves the read (docs/design/reading.md).
      read: `GET /api/v2/alerts`,
      changed: ["lag", ALERT_ARGS, "threshold"],
      // A search alert now: the up's new process asks the service's spelling of `source` first (alert/dialect.ts).
      write: ["GET /api/v2", `PUT /api/v2/alerts/${alertId}`],
    });
    expect(t.emu.snapshot().alerts[alertId]?.threshold).toBe(600);
  });

  it("destroys the alert with one DELETE, leaving no alert on the service", async () => {
    t.emu.resetRequestLog();
    succeeded(await t.stack.destroy());
    expect(sent(t.emu)).toEqual([`DELETE /api/v2/alerts/${alertId}`]);
    expect(t.emu.snapshot().alerts).toEqual({});
  });
});

describe("a PipeSettings alone on the real engine", () => {
  const base: PipeSettingsArgs = {
    organizationId: ORG,
    serviceId: SERVICE,
    pipeId: PIPE,
    dbMaxThreads: 8,
    objectStorageConcurrency: 4,
    resetOnDelete: true,
  };
  let args: PipeSettingsArgs = base;
  const t = sharedStack("pipe-alone", async ({ PipeSettings }) => ({
    dbMaxThreads: new PipeSettings("ingest", args).dbMaxThreads,
  }));
  previewsOneCreate(t, "ingest");

  it("creates the settings with one PUT of the pipe", async () => {
    const result = succeeded(await t.stack.up());
    expect(sent(t.emu)).toEqual([`PUT ${settingsPath(PIPE)}`]);
    expect(t.emu.snapshot().pipes[pipeKey(PIPE)]).toMatchObject({ db_max_threads: 8, object_storage_concurrency: 4 });
    // Sent as null (unset): the service, like the real one, then holds no value for it.
    expect(t.emu.snapshot().pipes[pipeKey(PIPE)]?.streaming_max_insert_wait_ms ?? null).toBeNull();
    expect(result.outputs.dbMaxThreads?.value).toBe(8);
  });

  unchangedSendsNoWrite(t);

  it("updates a changed setting in place with one PUT, leaving the other setting as it was", async () => {
    args = { ...base, dbMaxThreads: 16 };
    await updatedInPlace(t, ["ingest", PIPE_ARGS, "dbMaxThreads"], `PUT ${settingsPath(PIPE)}`);
    expect(t.emu.snapshot().pipes[pipeKey(PIPE)]).toMatchObject({ db_max_threads: 16, object_storage_concurrency: 4 });
  });

  it("shows a setting changed by hand on refresh, with GETs only, and the next up puts it back", async () => {
    await driftShownThenPutBack(t, {
      byHand: () => byHand(t.emu, "PUT", settingsPath(PIPE), { object_storage_concurrency: 30 }),
      read: `GET ${settingsPath(PIPE)}`,
      changed: ["ingest", PIPE_ARGS, "objectStorageConcurrency"],
      write: `PUT ${settingsPath(PIPE)}`,
    });
    expect(t.emu.snapshot().pipes[pipeKey(PIPE)]).toMatchObject({ db_max_threads: 16, object_storage_concurrency: 4 });
  });

  it("replaces on a new pipeId: the new pipe is set and the old one reset", async () => {
    args = { ...base, dbMaxThreads: 16, pipeId: OTHER_PIPE };
    await replacedOn(t, "pipeId");
    // Create before delete, the engine's default: the new pipe is set before the old is reset, which
    // reads the old pipe first to unset only what is still as it left it.
    expect(sent(t.emu)).toEqual([
      `PUT ${settingsPath(OTHER_PIPE)}`,
      `GET ${settingsPath(PIPE)}`,
      `PUT ${settingsPath(PIPE)}`,
    ]);
    const pipes = t.emu.snapshot().pipes;
    expect(pipes[pipeKey(OTHER_PIPE)]).toMatchObject({ db_max_threads: 16, object_storage_concurrency: 4 });
    expect(pipes[pipeKey(PIPE)]).toMatchObject({ db_max_threads: null, object_storage_concurrency: null });
  });

  it("destroys with resetOnDelete by unsetting what it managed, leaving no setting on any pipe", async () => {
    t.emu.resetRequestLog();
    succeeded(await t.stack.destroy());
    expect(sent(t.emu)).toEqual([`GET ${settingsPath(OTHER_PIPE)}`, `PUT ${settingsPath(OTHER_PIPE)}`]);
    for (const settings of Object.values(t.emu.snapshot().pipes))
      expect(Object.values(settings).every((v) => v === null)).toBe(true);
  });
});

describe("an ApiKey alone on the real engine", () => {
  const base: ApiKeyArgs = {
    organizationId: ORG,
    name: "deployer",
    roles: ["developer"],
    state: "enabled",
    ipAccessList: [{ source: "127.0.0.1/32", description: "this machine" }],
    hashData: hashDataFor("LIFECYCLEKEY00000AB12", "lifecycle-secret-one-made-by-the-program"),
  };
  let args: ApiKeyArgs = base;
  let keyUuid = "";
  const keysPath = (org: string, id?: string) => `/v1/organizations/${org}/keys${id === undefined ? "" : `/${id}`}`;
  const t = sharedStack("key-alone", async ({ ApiKey }) => {
    const key = new ApiKey("deployer", args);
    return { id: key.id, keyId: key.keyId, keySecret: key.keySecret };
  });
  previewsOneCreate(t, "deployer");

  it("creates the key with one POST; with hashData the program holds the pair, so no keyId or keySecret comes back", async () => {
    const result = succeeded(await t.stack.up());
    expect(sent(t.emu)).toEqual([`POST ${keysPath(ORG)}`]);
    const keys = Object.values(t.emu.snapshot().keys);
    expect(keys).toHaveLength(1);
    keyUuid = keys[0]?.id ?? "";
    expect(result.outputs.id?.value).toBe(keyUuid);
    expect(result.outputs.keyId?.value).toBeUndefined();
    expect(result.outputs.keySecret?.value).toBeUndefined();
  });

  unchangedSendsNoWrite(t);

  it("updates a changed name in place with one PATCH of the same key", async () => {
    args = { ...base, name: "deployer-ci" };
    await updatedInPlace(t, ["deployer", KEY_ARGS, "name"], `PATCH ${keysPath(ORG, keyUuid)}`);
    expect(t.emu.snapshot().keys[keyUuid]?.name).toBe("deployer-ci");
  });

  it("shows a key disabled by hand on refresh, with GETs only, and the next up enables it again", async () => {
    await driftShownThenPutBack(t, {
      byHand: () => byHand(t.emu, "PATCH", keysPath(ORG, keyUuid), { state: "disabled" }),
      // One listing of the organization's keys serves the read (docs/design/reading.md).
      read: `GET ${keysPath(ORG)}`,
      changed: ["deployer", KEY_ARGS, "state"],
      write: `PATCH ${keysPath(ORG, keyUuid)}`,
    });
    expect(t.emu.snapshot().keys[keyUuid]?.state).toBe("enabled");
  });

  it("replaces the key on new hashData: a new key is made, then the old one deleted", async () => {
    args = { ...args, hashData: hashDataFor("LIFECYCLEKEY00000CD34", "lifecycle-secret-two-made-by-the-program") };
    await replacedOn(t, "hashData");
    expect(sent(t.emu)).toEqual([`POST ${keysPath(ORG)}`, `DELETE ${keysPath(ORG, keyUuid)}`]);
    const keys = Object.values(t.emu.snapshot().keys);
    expect(keys).toHaveLength(1);
    expect(keys[0]?.id).not.toBe(keyUuid);
    expect(keys[0]?.hashData).toMatchObject({ keyIdHash: sha256Base64("LIFECYCLEKEY00000CD34") });
    keyUuid = keys[0]?.id ?? "";
  });

  it("replaces the key on a new organizationId: the new key lives in the new organization", async () => {
    args = { ...args, organizationId: OTHER_ORG };
    await replacedOn(t, "organizationId");
    expect(sent(t.emu)).toEqual([`POST ${keysPath(OTHER_ORG)}`, `DELETE ${keysPath(ORG, keyUuid)}`]);
    const keys = Object.values(t.emu.snapshot().keys);
    expect(keys.map((k) => k.organizationId)).toEqual([OTHER_ORG]);
    keyUuid = keys[0]?.id ?? "";
  });

  it("destroys the key with one DELETE, leaving no key on the service", async () => {
    t.emu.resetRequestLog();
    succeeded(await t.stack.destroy());
    expect(sent(t.emu)).toEqual([`DELETE ${keysPath(OTHER_ORG, keyUuid)}`]);
    expect(t.emu.snapshot().keys).toEqual({});
  });
});

describe("a create that fails after the object exists, then the next up", () => {
  it("takes an Alert create answer that leaves a member out as it came: one alert, in state, and the next up makes no second", async () => {
    // Real services leave out members with no value; only an answer without an id is broken now
    // (issue 8), so an answer missing the threshold is no partial failure.
    let odd = 1;
    const { emu, stack: s } = await newStack(
      "alert-partial",
      async ({ Alert }) => ({ id: new Alert("lag", ALERT).id }),
      {
        config: async (running) => {
          const proxy = await rewritingProxy(running.url, (method, path, body) =>
            method === "POST" && path === "/api/v2/alerts" && odd-- > 0 ? without(body, "data", "threshold") : body,
          );
          return { "alertpipe:alertingUrl": { value: proxy } };
        },
      },
    );

    succeeded(await s.up());
    const made = Object.keys(emu.snapshot().alerts);
    expect(made).toHaveLength(1);
    expect(ourState(s).get("lag")).toMatchObject({ id: made[0] });
    expect(ourState(s).get("lag")?.initErrors).toBeUndefined();

    emu.resetRequestLog();
    succeeded(await s.up());
    expect(sent(emu).filter((r) => r.startsWith("POST"))).toEqual([]);
    expect(Object.keys(emu.snapshot().alerts)).toEqual(made);
  });
});

describe("many resources at the engine's own parallelism", () => {
  it("creates 25 API keys in one up under the service's default rate limit, paced by default, with no 429", async () => {
    // Default limits on both sides: the emulator's area B window (10 per 10 s) and our pacing's default.
    const { emu, stack: s } = await newStack("many-keys", async ({ ApiKey }) => {
      for (let i = 0; i < 25; i++)
        new ApiKey(`key-${i}`, { organizationId: ORG, name: `key-${i}`, roles: ["query_endpoints"] });
    });
    const result = succeeded(await s.up());
    expect(ours(result).filter((step) => step.op === "create")).toHaveLength(25);
    expect(emu.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(sent(emu)).toEqual(Array.from({ length: 25 }, () => `POST /v1/organizations/${ORG}/keys`));
    expect(Object.keys(emu.snapshot().keys)).toHaveLength(25);
  }, 240_000);
});

describe("an existing object read by id with the class's static get", () => {
  it("reads a live alert by id through the provider, and destroy leaves it on the service", async () => {
    let alertId = "";
    const { emu, stack: s } = await newStack("alert-read", async ({ Alert }) => {
      const alert = Alert.get("existing", alertId);
      return { threshold: alert.threshold, webhookId: alert.channel.webhookId };
    });
    await byHand(emu, "POST", "/api/v2/alerts", HAND_MADE_ALERT);
    alertId = Object.keys(emu.snapshot().alerts)[0] ?? "";
    emu.resetRequestLog();
    const up = succeeded(await s.up());
    expect(ours(up).map((step) => `${step.op} ${step.name}`)).toEqual(["read existing"]);
    expect(sent(emu)).toEqual([`GET /api/v2/alerts`]);
    expect(up.outputs.threshold?.value).toBe(123);
    expect(up.outputs.webhookId?.value).toBe("made-by-hand");

    emu.resetRequestLog();
    succeeded(await s.destroy());
    expect(sent(emu, isWrite)).toEqual([]);
    expect(Object.keys(emu.snapshot().alerts)).toEqual([alertId]);
  });

  it("reads a live key by its uuid and organization, without a secret, and destroy leaves it on the service", async () => {
    let made = { result: { key: { id: "", keySuffix: "" } } };
    const { emu, stack: s } = await newStack("key-read", async ({ ApiKey }) => {
      const key = ApiKey.get("existing", made.result.key.id, { organizationId: ORG });
      return { name: key.name, keySuffix: key.keySuffix, keySecret: key.keySecret };
    });
    made = (await byHand(emu, "POST", `/v1/organizations/${ORG}/keys`, {
      name: "by hand",
      roles: ["developer"],
    })) as typeof made;
    emu.resetRequestLog();
    const up = succeeded(await s.up());
    expect(ours(up).map((step) => `${step.op} ${step.name}`)).toEqual(["read existing"]);
    expect(sent(emu)).toEqual([`GET /v1/organizations/${ORG}/keys`]);
    expect(up.outputs.name?.value).toBe("by hand");
    expect(up.outputs.keySuffix?.value).toBe(made.result.key.keySuffix);
    expect(up.outputs.keySecret?.value).toBeUndefined();

    emu.resetRequestLog();
    succeeded(await s.destroy());
    expect(sent(emu, isWrite)).toEqual([]);
    expect(Object.keys(emu.snapshot().keys)).toEqual([made.result.key.id]);
  });

  it("reads a pipe's live settings by organizationId/serviceId/pipeId, and destroy leaves them as they are", async () => {
    const { emu, stack: s } = await newStack("pipe-read", async ({ PipeSettings }) => ({
      dbMaxThreads: PipeSettings.get("existing", `${ORG}/${SERVICE}/${PIPE}`).dbMaxThreads,
    }));
    await byHand(emu, "PUT", `/v1/organizations/${ORG}/services/${SERVICE}/pipes/${PIPE}/settings`, {
      db_max_threads: 12,
    });
    const up = succeeded(await s.up());
    expect(up.outputs.dbMaxThreads?.value).toBe(12);
    emu.resetRequestLog();
    succeeded(await s.destroy());
    expect(sent(emu, isWrite)).toEqual([]);
    expect(emu.snapshot().pipes[`${ORG}/${SERVICE}/${PIPE}`]?.db_max_threads).toBe(12);
  });
});

describe("a preview of inputs not known yet", () => {
  it("passes check on an alert message built from a new key's suffix and shows both creates, sending no request", async () => {
    const { emu, stack: s } = await newStack("unknown-preview", async ({ Alert, ApiKey }) => {
      const key = new ApiKey("deployer", { organizationId: ORG, roles: ["developer"] });
      new Alert("lag", { ...ALERT, message: pulumi.interpolate`Deploy key ending ${key.keySuffix}` });
    });
    const result = succeeded(await s.preview());
    expect(
      ours(result)
        .map((step) => `${step.op} ${step.name}`)
        .sort(),
    ).toEqual(["create deployer", "create lag"]);
    // The message really was unknown when check saw it: the engine's placeholder for a value not known yet.
    const planned = result.events.find((e) => e.resourcePreEvent?.metadata.urn.endsWith("::lag"))?.resourcePreEvent
      ?.metadata.new?.inputs;
    expect(planned?.message).toBe(UNKNOWN_IN_PREVIEW);
    expect(sent(emu)).toEqual([]);
  });
});
