// ClickPipe's checks in preview: each source kind's required fields (its schema's `required` and its
// prose, docs/design/clickpipes.md), ranges, the mappings rule, scaling on a database pipe, the dialect.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as provider from "../../provider/clickPipe/provider";
import { checkFailures, where } from "../support/failures";
import { connectionEnvPerFile } from "../support/mockApi";
import { PROGRAMS, withValue, type ProgramKind } from "../support/clickPipes";

connectionEnvPerFile();
beforeEach(() => {
  process.env.ALERTPIPE_CLOUD_DIALECT = "clickhouse";
});
afterEach(() => {
  delete process.env.ALERTPIPE_CLOUD_DIALECT;
});

const failuresOf = checkFailures(provider.check);
const KINDS = Object.keys(PROGRAMS) as ProgramKind[];

/** Per kind: fields whose absence must fail, as "path in the program" → what the failure names. */
const REQUIRED: Readonly<Record<ProgramKind, readonly string[]>> = {
  kafka: ["type", "format", "brokers", "topics", "authentication"],
  kinesis: ["format", "streamName", "region", "iteratorType", "authentication"],
  objectStorage: ["type", "format", "url"],
  pubsub: ["format", "projectId", "topic", "authentication", "seekType"],
  postgres: ["host", "port", "database", "settings", "tableMappings"],
  mysql: ["host", "port", "settings", "tableMappings"],
  mongodb: ["uri", "readPreference", "settings", "tableMappings"],
  bigquery: ["snapshotStagingPath", "tableMappings"],
};

describe("ClickPipe check", () => {
  it.each(KINDS)("accepts a valid %s pipe", async (kind) => {
    expect(await failuresOf(PROGRAMS[kind])).toEqual([]);
  });

  describe.each(KINDS)("a %s source", (kind) => {
    it.each(REQUIRED[kind])("refuses it without %s, naming the field", async (field) => {
      const failures = await failuresOf(withValue(PROGRAMS[kind], `source.${kind}.${field}`, undefined));
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.map((f) => f.reason).join("\n")).toContain(`source.${kind}.${field}`);
    });
  });

  it("refuses a source of no kind and one of two kinds", async () => {
    expect((await failuresOf({ ...PROGRAMS.kafka, source: {} }))[0]?.reason).toContain("exactly one kind");
    const two = { ...PROGRAMS.kafka, source: { ...PROGRAMS.kafka.source, ...PROGRAMS.kinesis.source } };
    expect((await failuresOf(two))[0]?.reason).toContain("not kafka and kinesis");
  });

  it("refuses an enum value, listing the allowed ones", async () => {
    const [f] = await failuresOf(withValue(PROGRAMS.kafka, "source.kafka.format", "XML"));
    expect(where(f)).toBe("source.kafka.format");
    expect(f?.reason).toContain('"AvroConfluent"');
  });

  it("refuses an unknown member, naming it", async () => {
    const [f] = await failuresOf(withValue(PROGRAMS.kafka, "source.kafka.password", "x"));
    expect(f?.reason).toContain("source.kafka.password");
  });

  it.each([
    ["replicas", 0],
    ["replicas", 41],
    ["replicaCpuMillicores", 124],
    ["replicaCpuMillicores", 2001],
    ["replicaMemoryGb", 0.25],
    ["replicaMemoryGb", 9],
  ])("refuses scaling.%s %s, giving the range", async (field, value) => {
    const [f] = await failuresOf(withValue(PROGRAMS.kafka, `scaling.${field}`, value));
    expect(where(f)).toBe(`scaling.${field}`);
    expect(f?.reason).toMatch(/from [\d.]+ to [\d.]+/);
  });

  it("refuses name empty and longer than 255 characters", async () => {
    expect(where((await failuresOf({ ...PROGRAMS.kafka, name: "" }))[0])).toBe("name");
    expect(where((await failuresOf({ ...PROGRAMS.kafka, name: "n".repeat(256) }))[0])).toBe("name");
    expect(await failuresOf({ ...PROGRAMS.kafka, name: "n".repeat(255) })).toEqual([]);
  });

  it("checks settings with PipeSettings' own ranges", async () => {
    const [f] = await failuresOf(withValue(PROGRAMS.kafka, "settings.dbMaxThreads", 65));
    expect(f?.reason).toContain("dbMaxThreads must be an integer from 0 to 64");
    expect(await failuresOf(withValue(PROGRAMS.kafka, "settings.kafkaReadCommitted", true))).toEqual([]);
  });

  it("refuses a destination column no field mapping fills", async () => {
    const program = withValue(PROGRAMS.kafka, "fieldMappings", [{ sourceField: "id", destinationField: "id" }]);
    const failures = await failuresOf(program);
    expect(failures).toEqual([
      {
        property: "fieldMappings",
        reason: 'all destination columns must be included in the mappings: no fieldMappings entry fills "at"',
      },
    ]);
  });

  it.each(["kafka", "kinesis", "objectStorage", "pubsub"] as const)(
    "needs destination.table, managedTable and columns on a %s pipe",
    async (kind) => {
      const failures = await failuresOf(withValue(PROGRAMS[kind], "destination.table", undefined));
      expect(failures).toContainEqual({
        property: "destination",
        reason: `destination.table is required for a ${kind} pipe`,
      });
    },
  );

  it.each(["postgres", "mysql", "mongodb", "bigquery"] as const)(
    "refuses scaling on a %s pipe, naming ClickPipeCdcInfrastructure",
    async (kind) => {
      const [f] = await failuresOf({ ...PROGRAMS[kind], scaling: { replicas: 2 } });
      expect(f?.property).toBe("scaling");
      expect(f?.reason).toContain("ClickPipeCdcInfrastructure");
    },
  );

  it.each([
    ["kafka", "password", "with authentication PLAIN"],
    ["kafka", "schemaRegistryPassword", "with a schema registry"],
    ["kinesis", "secretKey", "with IAM_USER"],
    ["pubsub", "serviceAccountKey", "for Pub/Sub"],
    ["postgres", "password", "for postgres"],
    ["mysql", "username", "for mysql"],
    ["mongodb", "password", "for mongodb"],
    ["bigquery", "serviceAccountKey", "for bigquery"],
  ] as const)("needs of a %s pipe credentials.%s (%s), naming no property (secret)", async (kind, field, when) => {
    const failures = await failuresOf(withValue(PROGRAMS[kind], `credentials.${field}`, undefined));
    expect(failures).toContainEqual({
      property: "",
      reason: `credentials need ${field} ${when} (write-only, secret)`,
    });
  });

  it("needs the timestamps their strategies ask for", async () => {
    const kafka = withValue(PROGRAMS.kafka, "source.kafka.offset", { strategy: "from_timestamp" });
    expect((await failuresOf(kafka))[0]?.reason).toContain("source.kafka.offset.timestamp is required");
    const kinesis = withValue(PROGRAMS.kinesis, "source.kinesis.iteratorType", "AT_TIMESTAMP");
    expect((await failuresOf(kinesis))[0]?.reason).toContain("source.kinesis.timestamp is required");
    const pubsub = withValue(PROGRAMS.pubsub, "source.pubsub.seekType", "timestamp");
    expect((await failuresOf(pubsub))[0]?.reason).toContain("source.pubsub.seekTimestamp is required");
  });

  it("needs an https schema registry", async () => {
    const program = withValue(PROGRAMS.kafka, "source.kafka.schemaRegistry.url", "http://registry");
    expect((await failuresOf(program))[0]?.reason).toContain("source.kafka.schemaRegistry.url must be an https URL");
  });

  it("needs path and container for Azure Blob Storage instead of url", async () => {
    const program = withValue(PROGRAMS.objectStorage, "source.objectStorage.type", "azureblobstorage");
    expect((await failuresOf(program)).map((f) => f.reason)).toEqual([
      'source.objectStorage.path is required for type "azureblobstorage"',
    ]);
    const withPath = withValue(program, "source.objectStorage.path", "logs/*.json");
    expect((await failuresOf(withPath)).map((f) => f.reason)).toEqual([
      'source.objectStorage.azureContainerName is required for type "azureblobstorage"',
    ]);
  });

  it("refuses a table mapped twice", async () => {
    const mapping = PROGRAMS.postgres.source.postgres.tableMappings[0];
    const program = withValue(PROGRAMS.postgres, "source.postgres.tableMappings", [mapping, mapping]);
    expect((await failuresOf(program)).map((f) => f.reason).join("\n")).toContain("a second time");
  });

  it("refuses the contract dialect, naming alertpipe:cloudDialect", async () => {
    process.env.ALERTPIPE_CLOUD_DIALECT = "contract";
    const failures = await failuresOf(PROGRAMS.kafka);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.reason).toContain("alertpipe:cloudDialect");
  });
});
