// PipeSettings in the two dialects of area B: the program's names never change; the path and the
// six `db_*` names do, at the wire, one fact per setting (serviceFacts/pipeSettings.ts), as
// ClickHouse Cloud's `ClickPipeSettings` spells them (docs/design/cloud-api-clickhouse.md).

import { describe, expect, it } from "vitest";
import * as provider from "../../provider/pipeSettings/provider";
import { fromWire, settingsPath, toWire } from "../../provider/pipeSettings/wire";
import { PIPE_SETTINGS, SETTING_NAMES, wireName } from "../../provider/serviceFacts/pipeSettings";
import { cloudDialectOfHost } from "../../provider/serviceFacts/cloudDialects";
import { lookupNamed, runLookup } from "../../provider/lookups/run";
import { behaviour } from "../../provider/pipeSettings/behaviour";
import { cloudAnswer, mockApiPerTest, answerOnce } from "../support/mockApi";
import { PIPE_IDS, PIPE_RESOURCE_ID } from "../support/fixtures";

/** ClickHouse Cloud's `ClickPipeSettings` members, as its OpenAPI document (2026-07-31) lists them. */
const CLOUD_NAMES = [
  "streaming_max_insert_wait_ms",
  "object_storage_concurrency",
  "object_storage_polling_interval_ms",
  "object_storage_max_insert_bytes",
  "object_storage_max_file_count",
  "clickhouse_max_threads",
  "clickhouse_max_insert_threads",
  "clickhouse_min_insert_block_size_bytes",
  "clickhouse_max_download_threads",
  "clickhouse_parallel_distributed_insert_select",
  "object_storage_use_cluster_function",
  "clickhouse_parallel_view_processing",
  // Newer than that document (the Terraform provider, 2026-08-06): the same name in both dialects.
  "kafka_read_committed",
];

const CLOUD_PATH = `/v1/organizations/${PIPE_IDS.organizationId}/services/${PIPE_IDS.serviceId}/clickpipes/${PIPE_IDS.pipeId}/settings`;
const CONTRACT_PATH = `/v1/organizations/${PIPE_IDS.organizationId}/services/${PIPE_IDS.serviceId}/pipes/${PIPE_IDS.pipeId}/settings`;

describe("the facts of each setting", () => {
  it("name the Cloud's thirteen members, in the table's order", () => {
    expect(SETTING_NAMES.map((n) => wireName(n, "clickhouse"))).toEqual(CLOUD_NAMES);
  });

  it("differ between the dialects in the six db_* names alone, each db_x being clickhouse_x", () => {
    const differing = SETTING_NAMES.filter((n) => wireName(n, "contract") !== wireName(n, "clickhouse"));
    expect(differing.map((n) => wireName(n))).toEqual([
      "db_max_threads",
      "db_max_insert_threads",
      "db_min_insert_block_size_bytes",
      "db_max_download_threads",
      "db_parallel_distributed_insert_select",
      "db_parallel_view_processing",
    ]);
    for (const n of differing) expect(wireName(n, "clickhouse")).toBe(wireName(n).replace(/^db_/, "clickhouse_"));
  });

  it("keep the contract's name the default", () => {
    expect(wireName("dbMaxThreads")).toBe(PIPE_SETTINGS.dbMaxThreads.wire);
  });
});

describe("the dialect of a host", () => {
  it("is ClickHouse Cloud's for api.clickhouse.cloud and any *.clickhouse.cloud, in any case", () => {
    expect(cloudDialectOfHost("api.clickhouse.cloud")).toBe("clickhouse");
    expect(cloudDialectOfHost("API.clickhouse.CLOUD.")).toBe("clickhouse");
    expect(cloudDialectOfHost("eu.api.clickhouse.cloud")).toBe("clickhouse");
  });

  it("is the contract's for any other host, even one that only looks alike", () => {
    for (const host of ["clickhouse.cloud.example.test", "myclickhouse.cloud", "127.0.0.1", "localhost"])
      expect(cloudDialectOfHost(host)).toBe("contract");
  });
});

describe("the wire translation", () => {
  it("sends the Cloud's names in the clickhouse dialect, nulls kept", () => {
    expect(
      toWire({ dbMaxThreads: 8, dbParallelViewProcessing: null, objectStorageConcurrency: 3 }, "clickhouse"),
    ).toEqual({ clickhouse_max_threads: 8, clickhouse_parallel_view_processing: null, object_storage_concurrency: 3 });
  });

  it("sends the contract's names in the contract dialect", () => {
    expect(toWire({ dbMaxThreads: 8, kafkaReadCommitted: false }, "contract")).toEqual({
      db_max_threads: 8,
      kafka_read_committed: false,
    });
  });

  it("reads the Cloud's names in the clickhouse dialect, and not the contract's", () => {
    const read = fromWire(
      { clickhouse_max_threads: 8, db_max_insert_threads: 4, kafka_read_committed: true },
      "clickhouse",
    );
    expect(read.dbMaxThreads).toBe(8);
    expect(read.dbMaxInsertThreads).toBeNull();
    expect(read.kafkaReadCommitted).toBe(true);
  });

  it("reads the contract's names in the contract dialect, and not the Cloud's", () => {
    const read = fromWire({ db_max_threads: 8, clickhouse_max_insert_threads: 4 }, "contract");
    expect(read.dbMaxThreads).toBe(8);
    expect(read.dbMaxInsertThreads).toBeNull();
  });

  it("round-trips every setting in both dialects", () => {
    const values = Object.fromEntries(
      SETTING_NAMES.map((n) => {
        const fact = PIPE_SETTINGS[n];
        return [n, fact.kind === "boolean" ? true : fact.min];
      }),
    );
    for (const dialect of ["contract", "clickhouse"] as const)
      expect(fromWire(toWire(values, dialect), dialect)).toEqual(values);
  });

  it("puts the pipe under /clickpipes/ in the clickhouse dialect, /pipes/ in the contract's", () => {
    const { organizationId, serviceId, pipeId } = PIPE_IDS;
    expect(settingsPath(organizationId, serviceId, pipeId, "clickhouse")).toBe(CLOUD_PATH);
    expect(settingsPath(organizationId, serviceId, pipeId, "contract")).toBe(CONTRACT_PATH);
  });
});

describe("PipeSettings on a connection in the clickhouse dialect", () => {
  const mock = mockApiPerTest();
  const seen = mock.seen;
  /** The clickhouse dialect, the Cloud answering each request in turn with these settings. */
  const clickhouse = (...answers: ["GET" | "PUT", Record<string, unknown>][]) => {
    process.env.ALERTPIPE_CLOUD_DIALECT = "clickhouse";
    for (const [method, settings] of answers)
      answerOnce(mock.api.cloud, seen, { method, path: CLOUD_PATH }, 200, cloudAnswer(settings));
  };

  it("creates with one PUT to /clickpipes/ in the Cloud's names, and records the program's names", async () => {
    clickhouse(["PUT", { clickhouse_max_threads: 8 }]);
    const result = await provider.create({ ...PIPE_IDS, dbMaxThreads: 8 });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT ${CLOUD_PATH}`]);
    expect(seen[0]?.body).toEqual({ clickhouse_max_threads: 8 });
    expect(result.id).toBe(PIPE_RESOURCE_ID);
    expect(result.outs).toMatchObject({ dbMaxThreads: 8, managedSettings: ["dbMaxThreads"] });
  });

  it("reads a state made in the contract dialect, with the same id and program names, and sees drift in the Cloud's names", async () => {
    clickhouse(["GET", { clickhouse_max_threads: 16 }]);
    const stored = { ...PIPE_IDS, dbMaxThreads: 8, managedSettings: ["dbMaxThreads"] };
    const read = await provider.read(PIPE_RESOURCE_ID, stored);
    expect(read.id).toBe(PIPE_RESOURCE_ID);
    expect(read.props).toMatchObject({ dbMaxThreads: 16 });
  });

  it("resets on delete with a GET and a PUT of the Cloud's names", async () => {
    clickhouse(["GET", { clickhouse_max_threads: 8 }], ["PUT", { clickhouse_max_threads: null }]);
    await provider.delete(PIPE_RESOURCE_ID, {
      ...PIPE_IDS,
      dbMaxThreads: 8,
      resetOnDelete: true,
      managedSettings: ["dbMaxThreads"],
    });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${CLOUD_PATH}`, `PUT ${CLOUD_PATH}`]);
    expect(seen[1]?.body).toEqual({ clickhouse_max_threads: null });
  });

  it("serves the getPipeSettings lookup from the Cloud's path and names", async () => {
    clickhouse(["GET", { clickhouse_max_threads: 4 }]);
    const def = lookupNamed("getPipeSettings");
    if (def === undefined) throw new Error("no getPipeSettings");
    const result = await runLookup(def, { ...PIPE_IDS });
    expect(result).toMatchObject({ ...PIPE_IDS, dbMaxThreads: 4, dbMaxInsertThreads: null });
  });

  it("imports by the same id form as in the contract dialect, managing the settings set live", async () => {
    clickhouse(["GET", { clickhouse_max_threads: 4 }]);
    const found = await behaviour.readImported(PIPE_RESOURCE_ID);
    expect(found?.id).toBe(PIPE_RESOURCE_ID);
    expect(found?.outputs).toMatchObject({ dbMaxThreads: 4, managedSettings: ["dbMaxThreads"] });
  });
});
