// The guarantees the dynamic path proves on the engine (engine.localKey, engine.options,
// engine.recovery, engine.rotation, engine.lifecycle), now through the native plugin: Pulumi YAML
// programs run by the real CLI, the plugin found through plugins.providers, against the bundled
// emulator and its faults. Same behaviour written once, so the same promises hold through either
// front door: no secret in plain text in the state, a lost create answer recovered with exactly one
// object and a notice under the resource, keepers rotation creating before deleting, and many keys
// paced under the service's rate limit.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { DEFAULT_RATE_LIMITS } from "../../emulator";
import type { CliRun, CliStack } from "../support/cliStack";
import { changes, emulator as startEmulator, ourState, requestLog, statusWithKey } from "../support/engine";
import { ALERTS_PATH, KEYS_PATH, ORG_ID } from "../support/fixtures";
import { LAG_ALERT, expectKeyRotated, keyRotationWrites } from "../support/programs";
import { yamlProgram, yamlStack } from "../support/yamlStack";

/** The command's run, once it is known to have exited 0; otherwise the test fails showing its output. */
function ok<T extends CliRun>(run: T): T {
  expect(run.code, run.output).toBe(0);
  return run;
}

const isWrite = (method: string) => method !== "GET";

/** A developer key named "deployer", as YAML properties. */
const DEPLOYER = {
  type: "alertpipe:index:ApiKey",
  properties: { organizationId: ORG_ID, name: "deployer", roles: ["developer"] },
};

/** The lag alert, its message naming the key's suffix, as YAML properties. */
const LAG = {
  type: "alertpipe:index:Alert",
  properties: { ...LAG_ALERT, message: "Deploy key ending ${deployer.keySuffix}" },
};

/** The key's pair from the stack's outputs (never printed). */
async function pairOf(stack: CliStack): Promise<{ keyId: string; keySecret: string }> {
  const outputs = await stack.outputs();
  expect(typeof outputs.keyId).toBe("string");
  expect(typeof outputs.keySecret).toBe("string");
  return { keyId: String(outputs.keyId), keySecret: String(outputs.keySecret) };
}

const KEY_OUTPUTS = {
  keyUuid: "${deployer.id}",
  keyId: "${deployer.keyId}",
  keySecret: "${deployer.keySecret}",
  keySuffix: "${deployer.keySuffix}",
};

describe("secrets in the state of a YAML program through the plugin", () => {
  let emu: RunningEmulator;
  let stack: CliStack;

  beforeAll(async () => {
    emu = await startEmulator();
    ({ stack } = await yamlStack(emu, yamlProgram({ resources: { deployer: DEPLOYER }, outputs: KEY_OUTPUTS })));
    ok(await stack.run(["up", "--yes"]));
  }, 900_000);

  it("keeps neither the key's secret nor a credential in plain text in the state file or pulumi stack export", async () => {
    const { keySecret } = await pairOf(stack);
    const secrets = { keySecret, cloudKeySecret: emu.keySecret, alertingToken: emu.token };
    const places: Array<[string, string]> = [
      ["state file", stack.readStateFile()],
      ["stack export", await stack.exportText()],
    ];
    for (const [where, text] of places) {
      for (const [name, value] of Object.entries(secrets))
        expect(text.includes(value), `${name} in plain text in the ${where}`).toBe(false);
    }
  });

  it("shows the key's secret as [secret] in pulumi stack output", async () => {
    const shown = ok(await stack.run(["stack", "output", "keySecret"]));
    expect(shown.stdout.trim()).toBe("[secret]");
  });
});

describe("lost create answers through the plugin: an alert's 500 after commit and a key's cut connection", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  let up: CliRun;

  beforeAll(async () => {
    emu = await startEmulator();
    ({ stack } = await yamlStack(
      emu,
      yamlProgram({ resources: { deployer: DEPLOYER, lag: LAG }, outputs: { ...KEY_OUTPUTS, alertId: "${lag.id}" } }),
    ));
    emu.setFaults({
      cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 },
      failAfterCommit: { method: "POST", pathPattern: /^\/api\/v2\/alerts$/, count: 1 },
    });
    up = await stack.run(["up", "--yes"]);
  }, 900_000);

  it("succeeds although both POSTs lost their answers", () => {
    ok(up);
  });

  it("leaves exactly one alert on the service, the one in state, found by listing with no second POST", () => {
    const ids = Object.keys(emu.snapshot().alerts);
    expect(ids).toHaveLength(1);
    expect(ourState(stack).get("lag")?.id).toBe(ids[0]);
    expect(requestLog(emu, isWrite).filter((r) => r.startsWith(`POST ${ALERTS_PATH}`))).toEqual([
      `POST ${ALERTS_PATH}`,
    ]);
  });

  it("leaves exactly one key, made again once after the one whose secret was lost was deleted, in state, its pair working", async () => {
    const keyWrites = requestLog(emu, isWrite).filter((r) => r.includes(KEYS_PATH));
    expect(keyWrites).toEqual([
      `POST ${KEYS_PATH}`,
      expect.stringMatching(new RegExp(`^DELETE ${KEYS_PATH}/[0-9a-f-]{36}$`)),
      `POST ${KEYS_PATH}`,
    ]);
    const ids = Object.keys(emu.snapshot().keys);
    expect(ids).toHaveLength(1);
    expect(ourState(stack).get("deployer")?.id).toBe(ids[0]);
    const { keyId, keySecret } = await pairOf(stack);
    expect(await statusWithKey(emu, ORG_ID, keyId, keySecret)).toBe(200);
  });

  it("shows each recovery notice under its resource in pulumi up's output", () => {
    // The engine's summary groups what each resource said under "<type> (<name>):".
    const under = (type: string, name: string) =>
      new RegExp(`\\n {2}${type} \\(${name}\\):\\n(?: {4}.*\\n)*? {4}.*pulumi-alertpipe: POST \\S+ lost its answer`);
    expect(up.output).toMatch(under("alertpipe:index:Alert", "lag"));
    expect(up.output).toMatch(under("alertpipe:index:ApiKey", "deployer"));
    expect(up.output).toContain("making the key again");
  });
});

describe("rotating a key through the plugin by changing a keeper", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  let firstKey = "";
  let alertId = "";

  beforeAll(async () => {
    emu = await startEmulator();
    const program = yamlProgram({
      config: { rotation: { type: "string" } },
      resources: {
        deployer: { ...DEPLOYER, properties: { ...DEPLOYER.properties, keepers: { rotation: "${rotation}" } } },
        lag: LAG,
      },
      outputs: { ...KEY_OUTPUTS, alertId: "${lag.id}" },
    });
    ({ stack } = await yamlStack(emu, program, { config: { "alertpipe-yaml:rotation": { value: "2025-01" } } }));
    ok(await stack.run(["up", "--yes"]));
    firstKey = ourState(stack).get("deployer")?.id ?? "";
    alertId = ourState(stack).get("lag")?.id ?? "";
  }, 900_000);

  it("replaces the key on a new keeper value, the engine creating the new key before it updates the alert and deletes the old", async () => {
    emu.resetRequestLog();
    await stack.setConfig({ "alertpipe-yaml:rotation": { value: "2025-02" } });
    const rotation = ok(await stack.runLogged("up", ["up", "--yes"]));
    expectKeyRotated(rotation);
  });

  it("sent the new key's POST, then the alert's PUT, then the old key's DELETE", () => {
    expect(requestLog(emu, isWrite)).toEqual(keyRotationWrites(alertId, firstKey));
  });

  it("leaves one key, the new one, in state, its pair working and the alert naming its suffix", async () => {
    const keys = Object.values(emu.snapshot().keys);
    expect(keys.map((k) => k.id)).toEqual([ourState(stack).get("deployer")?.id]);
    expect(keys[0]?.id).not.toBe(firstKey);
    const { keyId, keySecret } = await pairOf(stack);
    expect(await statusWithKey(emu, ORG_ID, keyId, keySecret)).toBe(200);
    expect(emu.snapshot().alerts[alertId]?.message).toBe(`Deploy key ending ${String(keys[0]?.keySuffix)}`);
  });
});

describe("many keys through the plugin under the service's default rate limit", () => {
  it("creates 25 keys in one up, paced by default under 10 requests per 10 s, with no 429", async () => {
    // The emulator's published limit for area B and our pacing's default are the same fact.
    expect(DEFAULT_RATE_LIMITS.cloud).toEqual({ requests: 10, perSeconds: 10 });
    const emu = await startEmulator();
    const resources = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [
        `key${i}`,
        {
          type: "alertpipe:index:ApiKey",
          properties: { organizationId: ORG_ID, name: `key-${i}`, roles: ["query_endpoints"] },
        },
      ]),
    );
    const { stack } = await yamlStack(emu, yamlProgram({ resources }));
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up).filter((c) => c.startsWith("create "))).toHaveLength(25);
    // The preview's check of the key spends one request of the window the update's process starts in and
    // cannot see (each is a process of its own): a fresh process's limiter counts one send as made at
    // its start (reservedAtStart, provider/http/rateLimit.ts), so the update stays under the limit.
    expect(emu.requests.filter((r) => r.status === 429)).toEqual([]);
    // The key's checks aside (one in each of up's provider processes: its preview's, its update's).
    expect(requestLog(emu)).toEqual(Array.from({ length: 25 }, () => `POST ${KEYS_PATH}`));
    expect(Object.keys(emu.snapshot().keys)).toHaveLength(25);
  }, 240_000);
});
