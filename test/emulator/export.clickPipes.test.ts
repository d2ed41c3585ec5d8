// `alertpipe export --service` of a ClickHouse Cloud service with a Kafka pipe whose source needs
// credentials: in every format, the pipe and the service's CDC capacity, read by one GET each; the
// credentials, which the service never returns, become secret config values the report names, and no
// secret is in any output.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { exportEnv, exportInProcess, type ExportRun } from "../support/exportRuns";
import { PIPE_SERVICE, PROGRAMS, kafkaPipeMadeByHand } from "../support/clickPipes";

const SERVICE = `${PIPE_SERVICE.organizationId}/${PIPE_SERVICE.serviceId}`;
const PIPES = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipes`;
const SECRETS = Object.values(PROGRAMS.kafka.credentials);
const KEYS = ["ordersUsername", "ordersPassword", "ordersSchemaRegistryUsername", "ordersSchemaRegistryPassword"];

describe("alertpipe export --service of a service with a Kafka pipe that has credentials", () => {
  let emu: RunningEmulator;
  let pipeId: string;
  const runs: Record<"yaml" | "typescript" | "import", ExportRun> = {} as never;

  beforeAll(async () => {
    emu = await startEmulator({ cloudDialect: "clickhouse", rateLimits: { cloud: false, alerting: false } });
    pipeId = await kafkaPipeMadeByHand(emu);
    const env = { ...exportEnv(emu), ALERTPIPE_CLOUD_DIALECT: "clickhouse" };
    for (const format of ["yaml", "typescript", "import"] as const) {
      emu.resetRequestLog();
      runs[format] = await exportInProcess(
        [
          "export",
          "--type",
          "ClickPipe",
          "--type",
          "ClickPipeCdcInfrastructure",
          "--service",
          SERVICE,
          "--format",
          format,
        ],
        env,
      );
    }
  });
  afterAll(() => emu.close());

  it("reads the pipes with one GET of their list and the capacity with one GET, and writes nothing", () => {
    expect(emu.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [`GET ${PIPES}`, `GET /v1/organizations/${SERVICE.replace("/", "/services/")}/clickpipesCdcScaling`].sort(),
    );
  });

  it("writes a YAML program adopting the pipe, its credentials secret config values it declares", () => {
    const yaml = runs.yaml;
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toContain("    type: alertpipe:index:ClickPipe\n");
    expect(yaml.stdout).toContain(`      import: "${SERVICE}/${pipeId}"`);
    expect(yaml.stdout).toContain("    type: alertpipe:index:ClickPipeCdcInfrastructure\n");
    for (const key of KEYS) {
      expect(yaml.stdout).toContain(`  ${key}:\n    type: string\n    secret: true\n`);
      expect(yaml.stdout).toContain(`: "\${${key}}"`);
    }
    expect(yaml.stdout).not.toContain("ignoreChanges");
  });

  it("names each config key to set in the report, with the credential it stands for", () => {
    for (const key of KEYS) expect(runs.yaml.stderr).toContain(`pulumi config set --secret ${key} <value>`);
    expect(runs.yaml.stderr).toContain("(ClickPipe orders's credentials.password)");
  });

  it("writes the pipe in the TypeScript program commented out, as its class cannot take it over", () => {
    const ts = runs.typescript;
    expect(ts.code, ts.stderr).toBe(0);
    expect(ts.stdout).not.toMatch(/^const orders = new ClickPipe/m);
    expect(ts.stdout).toContain(
      "// ClickPipe orders is left out: its dynamic class cannot take an existing object over",
    );
    expect(ts.stdout).toContain('//       password: config.requireSecret("ordersPassword"),');
    expect(ts.stdout).toMatch(/^const cdcInfrastructure\w* = new ClickPipeCdcInfrastructure\(/m);
    expect(ts.stdout).toContain("ClickPipeCdcInfrastructure has no importId: the first up sends one PATCH");
  });

  it("lists the pipe in the import file, the report saying which credentials the generated code needs", () => {
    const run = runs.import;
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { resources: Array<{ type: string; name: string; id: string }> };
    expect(doc.resources).toContainEqual({
      type: "alertpipe:index:ClickPipe",
      name: "orders",
      id: `${SERVICE}/${pipeId}`,
    });
    expect(run.stderr).toContain(
      "secret to set: ClickPipe orders's credentials.password, which the import file cannot carry",
    );
  });

  it("holds no credential in any output or report", () => {
    for (const run of Object.values(runs))
      for (const secret of SECRETS) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
  });
});
