// The native plugin's gRPC service, called over real gRPC in this process as the engine calls it,
// against the bundled emulator over loopback HTTP: what each protocol call answers, and that it is
// the same behaviour the dynamic providers run.

import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emulatorPerTest } from "../support/emulatorPerTest";
import { ALERT_ID, ORG_ID, PIPE_IDS, PIPE_RESOURCE_ID, tileAlert } from "../support/fixtures";
import {
  SECRET_SIG,
  SIG_KEY,
  TOKENS,
  UNKNOWN,
  nativeCalls,
  nativeProviderPerFile,
  pluginConfig,
  rejection,
  secret,
  type Props,
} from "../support/nativeProvider";
import { setEnv } from "../support/emulatorPerTest";

const env = emulatorPerTest({ service: "cloud", helper: "native.provider" });
const native = nativeCalls(nativeProviderPerFile());

const OTHER_ORG = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const key = { organizationId: ORG_ID, name: "deployer", roles: ["developer"] };

/** The stack config that points the plugin at this test's emulator. */
const emulatorConfig = (): Props => pluginConfig(env.emulator);

const configured = () => native.configure(emulatorConfig());
const isSecret = (v: unknown) =>
  typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
const writes = () => env.requests().filter((r) => !r.startsWith("GET"));

describe("the native plugin's schema", () => {
  it("reports the package's version as the plugin's", async () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
    expect(await native.pluginInfo()).toBe(pkg.version);
    expect((await native.schema()).version).toBe(pkg.version);
  });

  it("names the package alertpipe and its resources alertpipe:index:Alert, …, Source, Dashboard, ClickPipe", async () => {
    const schema = await native.schema();
    expect(schema.name).toBe("alertpipe");
    expect(Object.keys(schema.resources as Props).sort()).toEqual(Object.values(TOKENS).sort());
  });

  it("gives the dynamic classes' camelCase properties, required inputs marked", async () => {
    const resources = (await native.schema()).resources as Record<
      string,
      { inputProperties: Props; properties: Props; requiredInputs: string[] }
    >;
    // roles or assignedRoleIds, or both (issue 27): check says which is missing.
    expect(resources[TOKENS.apiKey]?.requiredInputs).toEqual(["organizationId"]);
    expect(Object.keys(resources[TOKENS.apiKey]?.inputProperties ?? {})).toEqual(
      expect.arrayContaining(["keepers", "keyMaterial", "importId", "hashData"]),
    );
    expect(Object.keys(resources[TOKENS.apiKey]?.properties ?? {})).toEqual(
      expect.arrayContaining(["keySecret", "keyId", "managedArgs"]),
    );
    expect(resources[TOKENS.pipeSettings]?.requiredInputs).toEqual(["organizationId", "serviceId", "pipeId"]);
    // channel or channels, or both (issue 27): check says which is missing.
    expect(resources[TOKENS.alert]?.requiredInputs).toEqual(["threshold", "interval", "source", "thresholdType"]);
  });

  it("marks keySecret and hashData secret", async () => {
    const props = (
      (await native.schema()).resources as Record<string, { properties: Record<string, { secret?: boolean }> }>
    )[TOKENS.apiKey]?.properties;
    expect(props?.keySecret?.secret).toBe(true);
    expect(props?.hashData?.secret).toBe(true);
    expect(props?.name?.secret).toBeUndefined();
  });

  it("states fixed values as enums: roles, key states, alert sources and intervals", async () => {
    const types = (await native.schema()).types as Record<string, { enum?: Array<{ value: string }> }>;
    const values = (name: string) => types[`alertpipe:index:${name}`]?.enum?.map((e) => e.value);
    expect(values("ApiKeyRole")).toEqual(["admin", "developer", "query_endpoints"]);
    expect(values("ApiKeyState")).toEqual(["enabled", "disabled"]);
    expect(values("AlertSource")).toEqual(["tile", "search"]);
    expect(values("AlertInterval")).toContain("5m");
  });

  it("describes each pipe setting with its range from the table of facts", async () => {
    const props = (
      (await native.schema()).resources as Record<
        string,
        { inputProperties: Record<string, { type: string; description: string }> }
      >
    )[TOKENS.pipeSettings]?.inputProperties;
    expect(props?.dbMaxThreads).toMatchObject({
      type: "integer",
      description: expect.stringContaining("an integer from 0 to 64"),
    });
  });

  it("offers the connection settings as config, the token and key secret marked secret", async () => {
    const variables = ((await native.schema()).config as { variables: Record<string, { secret?: boolean }> }).variables;
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining(["alertingUrl", "alertingToken", "cloudUrl", "cloudKeyId", "cloudKeySecret"]),
    );
    expect(variables.cloudKeySecret?.secret).toBe(true);
    expect(variables.alertingToken?.secret).toBe(true);
    expect(variables.cloudUrl?.secret).toBeUndefined();
  });

  it("names the SDKs: pulumi_alertpipe for Python, an import path ending in sdk/go/alertpipe for Go", async () => {
    const language = (await native.schema()).language as Record<string, Record<string, unknown>>;
    expect(language.python?.packageName).toBe("pulumi_alertpipe");
    expect(String(language.go?.importBasePath)).toMatch(/sdk\/go\/alertpipe$/);
    expect(language.nodejs?.packageName).toBe("@alertpipe/pulumi");
  });
});

describe("Configure", () => {
  it("answers acceptSecrets false and supportsPreview true", async () => {
    expect(await configured()).toMatchObject({ acceptsecrets: false, supportspreview: true });
  });

  it("reaches the services with the stack config alone, secret values included, no environment variable set", async () => {
    const restore = setEnv({ ALERTPIPE_CLOUD_URL: "", ALERTPIPE_CLOUD_KEY_ID: "", ALERTPIPE_CLOUD_KEY_SECRET: "" });
    try {
      await configured();
      const made = await native.create(TOKENS.apiKey, key);
      expect(made.id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      restore();
    }
  });

  it("falls back to the environment for what the config leaves out", async () => {
    await native.configure({});
    expect((await native.check(TOKENS.apiKey, key)).failures).toEqual([]);
  });
});

describe("Check", () => {
  it("names each failing property, before any request", async () => {
    await configured();
    const { failures } = await native.check(TOKENS.alert, { ...tileAlert, threshold: "high", interval: "7m" });
    expect(failures.map((f) => f.property).sort()).toEqual(["interval", "threshold"]);
    expect(env.requests()).toEqual([]);
  });

  it("checks a pipe setting's range from the table of facts", async () => {
    await configured();
    const { failures } = await native.check(TOKENS.pipeSettings, { ...PIPE_IDS, dbMaxThreads: 65 });
    expect(failures).toEqual([
      {
        property: "dbMaxThreads",
        reason: "[INVALID_INPUT] dbMaxThreads must be an integer from 0 to 64 (inclusive) or null",
      },
    ]);
  });

  it("returns hashData among the inputs as a secret", async () => {
    await configured();
    const hashData = { keyIdHash: `${"A".repeat(43)}=`, keyIdSuffix: "WXYZ", keySecretHash: `${"B".repeat(43)}=` };
    const { inputs, failures } = await native.check(TOKENS.apiKey, { ...key, hashData });
    expect(failures).toEqual([]);
    expect(isSecret(inputs.hashData)).toBe(true);
  });
});

describe("Diff", () => {
  const stored = {
    ...key,
    expireAt: null,
    state: "enabled",
    ipAccessList: [],
    keyId: "K",
    keySecret: "S",
    managedArgs: ["name", "roles"],
  };

  it("finds no change in the same inputs", async () => {
    const d = await native.diff(TOKENS.apiKey, "id", stored, key);
    expect(d).toMatchObject({ changes: 1, hasDetailedDiff: true, detailed: {}, diffs: [] });
  });

  it("names only the changed property, changed in place", async () => {
    const d = await native.diff(TOKENS.apiKey, "id", stored, { ...key, roles: ["admin"] });
    expect(d).toMatchObject({ changes: 2, replaces: [], diffs: ["roles"], detailed: { roles: "UPDATE" } });
  });

  it("says a replacing change of organizationId is UPDATE_REPLACE", async () => {
    const d = await native.diff(TOKENS.apiKey, "id", stored, { ...key, organizationId: OTHER_ORG });
    expect(d).toMatchObject({
      replaces: ["organizationId"],
      detailed: { organizationId: "UPDATE_REPLACE" },
      deleteBeforeReplace: false,
    });
  });

  it("says keepers set where there were none is ADD_REPLACE", async () => {
    const d = await native.diff(TOKENS.apiKey, "id", stored, { ...key, keepers: { rotation: "q1" } });
    expect(d.detailed).toEqual({ keepers: "ADD_REPLACE" });
  });

  it("replaces a key stored without its secret (its create's answer lacked it), keySecret ADD_REPLACE, the new key first", async () => {
    const { keySecret: _lost, ...withoutSecret } = stored;
    const d = await native.diff(TOKENS.apiKey, "id", withoutSecret, key);
    expect(d).toMatchObject({
      changes: 2,
      replaces: ["keySecret"],
      detailed: { keySecret: "ADD_REPLACE" },
      deleteBeforeReplace: false,
    });
  });

  it("finds no change in a taken-over key, whose pair the engine stores as null", async () => {
    const d = await native.diff(TOKENS.apiKey, "id", { ...stored, keyId: null, keySecret: secret(null) }, key);
    expect(d).toMatchObject({ changes: 1, replaces: [], diffs: [] });
  });

  it("says a message added is ADD and a message removed is DELETE", async () => {
    const alert = { ...tileAlert, state: "inactive" };
    expect((await native.diff(TOKENS.alert, ALERT_ID, alert, { ...tileAlert, message: "hot" })).detailed).toEqual({
      message: "ADD",
    });
    expect((await native.diff(TOKENS.alert, ALERT_ID, { ...alert, message: "hot" }, tileAlert)).detailed).toEqual({
      message: "DELETE",
    });
  });
});

describe("Create and Update in preview", () => {
  it("knows what the program sets and leaves what the service decides unknown, sending nothing", async () => {
    await configured();
    const { props } = await native.create(TOKENS.apiKey, key, true);
    expect(props).toMatchObject({
      organizationId: ORG_ID,
      name: "deployer",
      roles: ["developer"],
      managedArgs: ["name", "roles"],
      createdAt: UNKNOWN,
      state: UNKNOWN,
    });
    expect(props.keySecret).toEqual(secret(UNKNOWN));
    expect(env.requests()).toEqual([]);
  });

  it("keeps an update's key ID, secret and creation time known", async () => {
    await configured();
    const olds = {
      ...key,
      keyId: "K",
      keySecret: "S",
      keySuffix: "WXYZ",
      createdAt: "2026-01-01T00:00:00Z",
      managedArgs: ["name", "roles"],
    };
    const props = await native.update(TOKENS.apiKey, "id", olds, { ...key, name: "renamed" }, true);
    expect(props).toMatchObject({
      name: "renamed",
      keyId: "K",
      keySuffix: "WXYZ",
      createdAt: "2026-01-01T00:00:00Z",
      usedAt: UNKNOWN,
    });
    expect(props.keySecret).toEqual(secret("S"));
    expect(env.requests()).toEqual([]);
  });

  it("leaves pipe settings the program does not set unknown at create", async () => {
    await configured();
    const { props } = await native.create(TOKENS.pipeSettings, { ...PIPE_IDS, dbMaxThreads: 8 }, true);
    expect(props).toMatchObject({ dbMaxThreads: 8, dbMaxInsertThreads: UNKNOWN, managedSettings: ["dbMaxThreads"] });
  });
});

describe("the lifecycle against the emulator", () => {
  it("creates an API key with its secret wrapped as a secret on the wire", async () => {
    await configured();
    const { id, props } = await native.create(TOKENS.apiKey, key);
    expect(isSecret(props.keySecret)).toBe(true);
    expect(typeof (props.keySecret as { value: unknown }).value).toBe("string");
    expect(props).toMatchObject({ organizationId: ORG_ID, managedArgs: ["name", "roles"] });
    expect(Object.keys(env.emulator.snapshot().keys)).toContain(id);
  });

  it("reads, updates and deletes the key it made", async () => {
    await configured();
    const { id, props } = await native.create(TOKENS.apiKey, key);
    const plain = { ...props, keySecret: (props.keySecret as { value: unknown }).value };
    const read = await native.read(TOKENS.apiKey, id, plain, key);
    expect(read).toMatchObject({
      id,
      props: { name: "deployer" },
      inputs: { organizationId: ORG_ID, name: "deployer", roles: ["developer"] },
    });
    expect(isSecret(read.props.keySecret)).toBe(true);
    const updated = await native.update(TOKENS.apiKey, id, plain, { ...key, name: "renamed" });
    expect(updated).toMatchObject({ name: "renamed" });
    await native.delete(TOKENS.apiKey, id, plain);
    expect(Object.keys(env.emulator.snapshot().keys)).not.toContain(id);
    expect(writes()).toEqual([
      `POST /v1/organizations/${ORG_ID}/keys`,
      `PATCH /v1/organizations/${ORG_ID}/keys/${id}`,
      `DELETE /v1/organizations/${ORG_ID}/keys/${id}`,
    ]);
  });

  it("answers no properties for a key that is gone, so the engine drops it", async () => {
    await configured();
    const { id, props } = await native.create(TOKENS.apiKey, key);
    await native.delete(TOKENS.apiKey, id, props);
    expect(await native.read(TOKENS.apiKey, id, props, key)).toEqual({
      id: "",
      props: {},
      inputs: {},
      inputsAnswered: false,
    });
  });

  it("reads an alert as the service holds it, whether or not the stored outputs agree", async () => {
    await configured();
    const { id, props } = await native.create(TOKENS.alert, tileAlert);
    expect((await native.read(TOKENS.alert, id, props, tileAlert)).props).toEqual(props);
    const stale = { ...props, threshold: 50, name: "Old name" };
    const read = await native.read(TOKENS.alert, id, stale, { ...tileAlert, threshold: 50 });
    expect(read.props).toEqual(props);
    expect(read.inputs).toMatchObject({ threshold: 90, name: "High CPU" });
    expect(read.inputsAnswered).toBe(true);
  });

  it("answers a read whose inputs are the state's own without them: the engine keeps its own", async () => {
    await configured();
    const { id, props } = await native.create(TOKENS.alert, tileAlert);
    const read = await native.read(TOKENS.alert, id, props, tileAlert);
    expect(read.inputsAnswered).toBe(false);
    expect(read.inputs).toEqual(tileAlert);
  });

  it("creates an alert and puts pipe settings, the same behaviour as the dynamic providers", async () => {
    await configured();
    const alert = await native.create(TOKENS.alert, tileAlert);
    expect(alert.props).toMatchObject({ threshold: 90, name: "High CPU", state: expect.any(String) });
    const pipe = await native.create(TOKENS.pipeSettings, { ...PIPE_IDS, dbMaxThreads: 8 });
    expect(pipe).toMatchObject({ id: PIPE_RESOURCE_ID, props: { dbMaxThreads: 8, managedSettings: ["dbMaxThreads"] } });
  });
});

describe("Read as an import (the id alone)", () => {
  it("imports an alert by its id, recording the optional arguments it holds", async () => {
    await configured();
    const { id } = await native.create(TOKENS.alert, tileAlert);
    const imported = await native.read(TOKENS.alert, id);
    expect(imported.id).toBe(id);
    expect(imported.inputs).toEqual({ ...tileAlert });
  });

  it("imports a key by <organizationId>/<id>, its resource id staying the key's uuid and its unknown secret null", async () => {
    await configured();
    const { id } = await native.create(TOKENS.apiKey, key);
    const imported = await native.read(TOKENS.apiKey, `${ORG_ID}/${id}`);
    expect(imported.id).toBe(id);
    expect(imported.inputs).toEqual(key);
    expect(imported.props).toMatchObject({ managedArgs: ["name", "roles"], keyId: null, keySecret: secret(null) });
  });

  it("imports pipe settings by <organizationId>/<serviceId>/<pipeId>, the settings set live managed", async () => {
    await configured();
    await native.create(TOKENS.pipeSettings, { ...PIPE_IDS, dbMaxThreads: 8 });
    const imported = await native.read(TOKENS.pipeSettings, PIPE_RESOURCE_ID);
    expect(imported).toMatchObject({
      id: PIPE_RESOURCE_ID,
      inputs: { ...PIPE_IDS, dbMaxThreads: 8 },
      props: { managedSettings: ["dbMaxThreads"] },
    });
  });

  it("refuses a key import id without the organization, naming the form", async () => {
    await configured();
    const err = await rejection(native.read(TOKENS.apiKey, "3f2504e0-4f89-41d3-9a0c-0305e82c3301"));
    expect(err.details).toContain("<organizationId>/<id>");
  });
});
