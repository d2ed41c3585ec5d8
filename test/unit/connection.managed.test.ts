// Managed ClickStack's connection: with both ids set, area A is the cloud API's gateway with the
// cloud key; one id alone, a malformed one, or both kinds of alerting connection fail the check
// naming the settings, before any request.

import { describe, expect, it } from "vitest";
import {
  CONNECTION_SETTINGS,
  configure,
  connectionFailures,
  connectionFor,
  configuredDialect,
  type ConnectionSettingName,
} from "../../provider/runtime/connection";
import { ConfigError } from "../../provider/errors";
import { CLICKSTACK_ORG, CLICKSTACK_SVC, noConnectionPerTest } from "../support/mockApi";

const ORG = CLICKSTACK_ORG;
const SVC = CLICKSTACK_SVC;
const CLOUD = {
  cloudUrl: "https://api.clickhouse.example",
  cloudKeyId: "KEYID-CANARY-managed",
  cloudKeySecret: "secret-CANARY-managed",
};
const PREFIX = `/v1/organizations/${ORG}/services/${SVC}/clickstack`;

function setEnv(values: Partial<Record<ConnectionSettingName, string>>): void {
  for (const [name, value] of Object.entries(values))
    process.env[CONNECTION_SETTINGS[name as ConnectionSettingName].envVar] = value;
}

function stackConfig(values: Partial<Record<ConnectionSettingName, string>>) {
  const byKey = new Map<string, string>(
    Object.entries(values).map(([n, v]) => [CONNECTION_SETTINGS[n as ConnectionSettingName].configKey, v]),
  );
  return { get: (key: string) => byKey.get(key) };
}

function reasons(): string[] {
  return connectionFailures("alerting").map((f) => f.reason);
}

noConnectionPerTest();

describe("managed ClickStack's connection", () => {
  it("goes to the service's /clickstack path of the cloud API with the cloud key, Basic auth", () => {
    setEnv({ ...CLOUD, clickstackOrganizationId: ORG, clickstackServiceId: SVC });
    const conn = connectionFor("alerting");
    expect(conn.baseUrl).toBe(CLOUD.cloudUrl);
    expect(conn.gateway).toEqual({ kind: "clickstack", pathPrefix: PREFIX });
    expect(conn.authorization).toBe(
      `Basic ${Buffer.from(`${CLOUD.cloudKeyId}:${CLOUD.cloudKeySecret}`).toString("base64")}`,
    );
    expect(conn.secrets).toContain(CLOUD.cloudKeySecret);
    expect(reasons()).toEqual([]);
  });

  it("needs neither alertingUrl nor alertingToken", () => {
    setEnv({ ...CLOUD, clickstackOrganizationId: ORG, clickstackServiceId: SVC });
    expect(() => connectionFor("alerting")).not.toThrow();
  });

  it("takes cloudUrl with or without a trailing /v1 (and slash), never sending /v1/v1", () => {
    for (const url of [`${CLOUD.cloudUrl}/v1`, `${CLOUD.cloudUrl}/v1/`, `${CLOUD.cloudUrl}/`]) {
      setEnv({ ...CLOUD, cloudUrl: url, clickstackOrganizationId: ORG, clickstackServiceId: SVC });
      expect(connectionFor("alerting").baseUrl).toBe(CLOUD.cloudUrl);
    }
  });

  it("speaks saved_search, so the service is never asked its dialect", () => {
    setEnv({ ...CLOUD, clickstackOrganizationId: ORG, clickstackServiceId: SVC });
    expect(connectionFor("alerting").dialect).toBe("2026");
    expect(configuredDialect()).toBe("2026");
  });

  it("is paced and keyed as the cloud key: the same limiter as area B's", () => {
    setEnv({ ...CLOUD, cloudRateLimit: "7/10", alertingRateLimit: "50/60" });
    const cloud = connectionFor("cloud");
    setEnv({ clickstackOrganizationId: ORG, clickstackServiceId: SVC });
    const managed = connectionFor("alerting");
    expect(managed.area).toBe("cloud");
    expect(managed.rateLimit).toEqual({ requests: 7, perSeconds: 10 });
    expect(managed.credentialId).toBe(cloud.credentialId);
  });

  it("takes the stack config before the environment", () => {
    const other = "8c3d4e5f-6071-4c8d-8e9f-1a2b3c4d5e6f";
    setEnv({ ...CLOUD, clickstackOrganizationId: ORG, clickstackServiceId: SVC });
    configure(stackConfig({ clickstackServiceId: other }));
    expect(connectionFor("alerting").gateway?.pathPrefix).toBe(`/v1/organizations/${ORG}/services/${other}/clickstack`);
  });

  it.each([
    ["clickstackOrganizationId", "clickstackServiceId"],
    ["clickstackServiceId", "clickstackOrganizationId"],
  ] as const)("with %s alone fails the check naming the missing %s", (set, missing) => {
    setEnv({ ...CLOUD, [set]: set === "clickstackServiceId" ? SVC : ORG });
    const found = reasons();
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`${CONNECTION_SETTINGS[missing].configKey} is not set`);
    expect(found[0]).toContain(CONNECTION_SETTINGS[missing].envVar);
    expect(() => connectionFor("alerting")).toThrow(ConfigError);
  });

  it("with both kinds of alerting connection fails the check naming both", () => {
    setEnv({
      ...CLOUD,
      clickstackOrganizationId: ORG,
      clickstackServiceId: SVC,
      alertingUrl: "https://hyperdx.example.test",
      alertingToken: "tok-CANARY-both",
    });
    const found = reasons();
    expect(found).toHaveLength(1);
    for (const key of [
      "alertpipe:alertingUrl",
      "alertpipe:alertingToken",
      "alertpipe:clickstackOrganizationId",
      "alertpipe:clickstackServiceId",
    ])
      expect(found[0]).toContain(key);
    expect(found[0]).not.toContain("tok-CANARY-both");
    expect(() => connectionFor("alerting")).toThrow(ConfigError);
  });

  it("needs the cloud settings, named as such", () => {
    setEnv({ clickstackOrganizationId: ORG, clickstackServiceId: SVC });
    const found = reasons().join("\n");
    for (const key of ["alertpipe:cloudUrl", "alertpipe:cloudKeyId", "alertpipe:cloudKeySecret"])
      expect(found).toContain(`${key} is not set`);
    expect(found).not.toContain("alertpipe:alertingUrl");
  });

  it("refuses an id that is not a uuid, naming the setting, before any request", () => {
    setEnv({ ...CLOUD, clickstackOrganizationId: "../keys", clickstackServiceId: SVC });
    const found = reasons();
    expect(found).toHaveLength(1);
    expect(found[0]).toContain("alertpipe:clickstackOrganizationId is not a ClickHouse Cloud id");
  });

  it("leaves a self-hosted connection as it was when neither id is set", () => {
    setEnv({ ...CLOUD, alertingUrl: "https://hyperdx.example.test", alertingToken: "tok-CANARY-self" });
    const conn = connectionFor("alerting");
    expect(conn.area).toBe("alerting");
    expect(conn.gateway).toBeUndefined();
    expect(conn.baseUrl).toBe("https://hyperdx.example.test");
  });
});
