// The lookups in a Pulumi YAML program on the real engine: `fn::invoke` of getAlert and getApiKeys
// through the native plugin's Invoke, against an emulator holding an estate made by hand. The
// stack's outputs are what the service holds; no secret reaches them; only GETs are sent, each
// collection listed once.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { emulator as startEmulator, requestLog } from "../support/engine";
import type { CliStack } from "../support/cliStack";
import { seedEstate, type Estate } from "../support/exportRuns";
import { ALERTS_PATH, KEYS_PATH, ORG_ID } from "../support/fixtures";
import { yamlProgram, yamlStack } from "../support/yamlStack";

/** Looks up one alert by id and every key of the organization, and outputs what it found. */
const program = (alertId: string) =>
  yamlProgram({
    resources: {},
    variables: {
      alert: { "fn::invoke": { function: "alertpipe:index:getAlert", arguments: { id: alertId } } },
      found: { "fn::invoke": { function: "alertpipe:index:getApiKeys", arguments: { organizationId: ORG_ID } } },
    },
    outputs: { alertName: "${alert.name}", alertThreshold: "${alert.threshold}", keys: "${found.keys}" },
  });

describe("fn::invoke of the lookups in Pulumi YAML", () => {
  let emu: RunningEmulator;
  let estate: Estate;
  let stack: CliStack;
  let outputs: Record<string, unknown>;

  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    estate = await seedEstate(emu);
    const yaml = await yamlStack(emu, program(estate.alerts[0] ?? ""), {
      config: { "alertpipe:cloudRateLimit": { value: "off" }, "alertpipe:alertingRateLimit": { value: "off" } },
    });
    stack = yaml.stack;
    emu.resetRequestLog();
    // One pass of the program (no preview first), so each collection's listing is counted once.
    const up = await stack.runLogged("up", ["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    outputs = await stack.outputs();
  }, 900_000);

  it("outputs the alert getAlert found", () => {
    expect({ name: outputs.alertName, threshold: outputs.alertThreshold }).toEqual({
      name: "Ingest lag",
      threshold: 300,
    });
  });

  it("outputs every key getApiKeys found, without a secret", () => {
    const keys = outputs.keys as Array<{ id: string; organizationId: string }>;
    expect(keys.map((k) => `${k.organizationId}/${k.id}`).sort()).toEqual([...estate.keys].sort());
    expect(JSON.stringify(keys)).not.toMatch(/keySecret|hashData/);
  });

  it("sent only GETs, each collection once", () => {
    expect(requestLog(emu).map((r) => r.split("?")[0])).toEqual([`GET ${ALERTS_PATH}`, `GET ${KEYS_PATH}`]);
  });
});
