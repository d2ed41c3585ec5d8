// The lookups in a Pulumi YAML program on the real engine: `fn::invoke` of getAlert, getApiKeys,
// getWebhook and getSavedSearches through the native plugin's Invoke, against an emulator holding an
// estate made by hand. The stack's outputs are what the service holds; no secret or write-only
// value reaches them; only GETs are sent, each collection listed once. Then an alert wired to a
// webhook and a saved search found by name, as the lookups guide shows it. And a ClickPipe on the
// Cloud mode: the program `alertpipe export --format yaml` writes of a Kafka pipe with credentials,
// set as secret config, adopted with one PATCH carrying them, with getClickPipe and getClickPipes.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { changes, emulator as startEmulator, requestLog } from "../support/engine";
import type { CliStack } from "../support/cliStack";
import { TEAM_SECRET, seedEstate, seedTeamObjects, type Estate, type TeamObjects } from "../support/exportRuns";
import { ALERTS_PATH, KEYS_PATH, ORG_ID } from "../support/fixtures";
import { yamlProgram, yamlStack } from "../support/yamlStack";
import { exportEnv, exportInProcess } from "../support/exportRuns";
import { PIPE_SERVICE, PROGRAMS, kafkaPipeMadeByHand } from "../support/clickPipes";

/** Looks up one alert by id and every key of the organization, and outputs what it found. */
const program = (alertId: string) =>
  yamlProgram({
    resources: {},
    variables: {
      alert: { "fn::invoke": { function: "alertpipe:index:getAlert", arguments: { id: alertId } } },
      found: { "fn::invoke": { function: "alertpipe:index:getApiKeys", arguments: { organizationId: ORG_ID } } },
      pager: { "fn::invoke": { function: "alertpipe:index:getWebhook", arguments: { name: "pager" } } },
      searches: { "fn::invoke": { function: "alertpipe:index:getSavedSearches", arguments: {} } },
    },
    outputs: {
      alertName: "${alert.name}",
      alertThreshold: "${alert.threshold}",
      keys: "${found.keys}",
      pager: "${pager}",
      searches: "${searches.savedSearches}",
    },
  });

/** An alert notifying the webhook "ops" and watching the search "errors", each found by its name. */
const wiredByLookup = yamlProgram({
  variables: {
    ops: { "fn::invoke": { function: "alertpipe:index:getWebhook", arguments: { name: "ops" } } },
    errors: { "fn::invoke": { function: "alertpipe:index:getSavedSearch", arguments: { name: "errors" } } },
  },
  resources: {
    warnRate: {
      type: "alertpipe:index:Alert",
      properties: {
        name: "Warn rate",
        source: "search",
        threshold: 50,
        thresholdType: "above",
        interval: "5m",
        channel: { type: "webhook", webhookId: "${ops.id}" },
        savedSearchId: "${errors.id}",
      },
    },
  },
});

describe("fn::invoke of the lookups in Pulumi YAML", () => {
  let emu: RunningEmulator;
  let estate: Estate;
  let team: TeamObjects;
  let stack: CliStack;
  let outputs: Record<string, unknown>;

  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    estate = await seedEstate(emu);
    team = await seedTeamObjects(emu);
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

  it("outputs the webhook getWebhook found by name, without its body, headers or parameters", () => {
    expect(outputs.pager).toMatchObject({ id: team.pager, name: "pager", service: "incidentio" });
    expect(Object.keys(outputs.pager as object)).not.toContain("body");
    expect(JSON.stringify(outputs.pager)).not.toContain(TEAM_SECRET);
  });

  it("outputs the saved searches getSavedSearches found", () => {
    expect(outputs.searches).toEqual([expect.objectContaining({ id: team.errors, where: "level:error" })]);
  });

  it("sent only GETs, each collection once", () => {
    expect(
      requestLog(emu)
        .map((r) => r.split("?")[0])
        .sort(),
    ).toEqual([`GET ${ALERTS_PATH}`, `GET ${KEYS_PATH}`, "GET /api/v2/saved-searches", "GET /api/v2/webhooks"].sort());
  });

  it("makes an alert notifying the webhook and watching the search that lookups found by name", async () => {
    stack = (await yamlStack(emu, wiredByLookup)).stack;
    const up = await stack.runLogged("up", ["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    const made = Object.values(emu.snapshot().alerts).filter((a) => a.name === "Warn rate");
    expect(made).toEqual([
      expect.objectContaining({ channel: { type: "webhook", webhookId: team.ops }, savedSearch: team.errors }),
    ]);
  });
});

describe("a Kafka pipe adopted by the exported YAML program, found by getClickPipe and getClickPipes", () => {
  const service = `${PIPE_SERVICE.organizationId}/${PIPE_SERVICE.serviceId}`;
  const pipes = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipes`;
  const secrets = PROGRAMS.kafka.credentials;
  let emu: RunningEmulator;
  let stack: CliStack;
  let pipeId: string;
  let upOutput: string;
  let outputs: Record<string, unknown>;
  let programText: string;
  let writeProgram: (text: string) => void;

  beforeAll(async () => {
    emu = await startEmulator({ cloudDialect: "clickhouse", rateLimits: { cloud: false, alerting: false } });
    pipeId = await kafkaPipeMadeByHand(emu);
    const env = { ...exportEnv(emu), ALERTPIPE_CLOUD_DIALECT: "clickhouse" };
    const exported = await exportInProcess(
      ["export", "--type", "ClickPipe", "--service", service, "--format", "yaml"],
      env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    const lookups = [
      "variables:",
      "  one:",
      "    fn::invoke:",
      "      function: alertpipe:index:getClickPipe",
      "      arguments:",
      `        organizationId: "${PIPE_SERVICE.organizationId}"`,
      `        serviceId: "${PIPE_SERVICE.serviceId}"`,
      `        clickPipeId: "${pipeId}"`,
      "  all:",
      "    fn::invoke:",
      "      function: alertpipe:index:getClickPipes",
      "      arguments:",
      `        organizationId: "${PIPE_SERVICE.organizationId}"`,
      `        serviceId: "${PIPE_SERVICE.serviceId}"`,
      "outputs:",
      "  one: ${one}",
      "  all: ${all.clickPipes}",
    ];
    programText = `${exported.stdout}${lookups.join("\n")}\n`;
    const yaml = await yamlStack(emu, programText, {
      config: {
        "alertpipe:cloudRateLimit": { value: "off" },
        "alertpipe:alertingRateLimit": { value: "off" },
        "alertpipe:cloudDialect": { value: "clickhouse" },
        "adopted:ordersUsername": { value: secrets.username, secret: true },
        "adopted:ordersPassword": { value: secrets.password, secret: true },
        "adopted:ordersSchemaRegistryUsername": { value: secrets.schemaRegistryUsername, secret: true },
        "adopted:ordersSchemaRegistryPassword": { value: secrets.schemaRegistryPassword, secret: true },
      },
    });
    stack = yaml.stack;
    writeProgram = (text) => yaml.write(text);
    emu.resetRequestLog();
    const up = await stack.runLogged("up", ["up", "--yes", "--skip-preview"]);
    upOutput = up.output;
    expect(up.code, up.output).toBe(0);
    outputs = await stack.outputs();
  }, 900_000);

  it("adopts the pipe with the import option and sends its credentials from secret config, one PATCH alone", () => {
    expect(requestLog(emu, (method) => method !== "GET")).toEqual([`PATCH ${pipes}/${pipeId}`]);
    for (const secret of Object.values(secrets)) expect(upOutput).not.toContain(secret);
  });

  it("outputs the pipe getClickPipe found, and getClickPipes' list of it, without a credential", () => {
    expect(outputs.one).toMatchObject({ clickPipeId: pipeId, name: "orders", ...PIPE_SERVICE });
    expect((outputs.all as Array<{ clickPipeId: string }>).map((p) => p.clickPipeId)).toEqual([pipeId]);
    for (const secret of Object.values(secrets)) expect(JSON.stringify(outputs)).not.toContain(secret);
  });

  it("previews nothing to do once the import lines are gone, sending no write", async () => {
    writeProgram(programText.replace(/^ {4}options:\n {6}import: .*\n/gm, ""));
    emu.resetRequestLog();
    const preview = await stack.runLogged("preview", ["preview", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(changes(preview)).toEqual([]);
    expect(requestLog(emu, (method) => method !== "GET")).toEqual([]);
  }, 300_000);
});
