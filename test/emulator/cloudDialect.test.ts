// PipeSettings and ApiKey through the dynamic door against the emulator speaking ClickHouse Cloud's
// area B (`cloudDialect: "clickhouse"`, the provider told so by ALERTPIPE_CLOUD_DIALECT): the same
// program names and ids, the Cloud's path and names on the wire, drift found and put back.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { lookupNamed, runLookup } from "../../provider/lookups/run";
import { startEmulator } from "../../emulator";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { emulatorPerTest, envFor, FAST_RETRIES, setEnv } from "../support/emulatorPerTest";
import { exportEnv, exportInProcess } from "../support/exportRuns";
import { ORG_ID, PIPE_IDS, PIPE_RESOURCE_ID } from "../support/fixtures";

const emu = emulatorPerTest({ service: "cloud", helper: "cloudDialect", cloudDialect: "clickhouse" });
beforeEach(() => useRuntime({ readByList: false }));

const host = { __provider: "serialized" };
const CLICKPIPE = `/v1/organizations/${PIPE_IDS.organizationId}/services/${PIPE_IDS.serviceId}/clickpipes/${PIPE_IDS.pipeId}/settings`;
const basic = () => `Basic ${Buffer.from(`${emu.emulator.keyId}:${emu.emulator.keySecret}`).toString("base64")}`;

async function byHand(method: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${emu.emulator.url}${path}`, {
    method,
    headers: { authorization: basic(), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe("PipeSettings on the Cloud's area B", () => {
  const args = { ...PIPE_IDS, dbMaxThreads: 8, dbParallelViewProcessing: true, objectStorageConcurrency: 3 };

  it("creates at /clickpipes/ and reads back with nothing to do", async () => {
    const made = await pipeSettings.create({ ...args, ...host });
    expect(made.id).toBe(PIPE_RESOURCE_ID);
    expect(emu.requests()).toEqual([`PUT ${CLICKPIPE}`]);
    expect(emu.emulator.snapshot().pipes[PIPE_RESOURCE_ID]).toEqual({
      db_max_threads: 8,
      db_parallel_view_processing: true,
      object_storage_concurrency: 3,
    });
    const read = await pipeSettings.read(made.id, { ...made.outs, ...host });
    expect(read.props).toMatchObject({ dbMaxThreads: 8, dbParallelViewProcessing: true });
    expect((await pipeSettings.diff(made.id, { ...read.props, ...host }, { ...args, ...host })).changes).toBe(false);
  });

  it("finds a change made by hand in the Cloud's names, and one update puts it back", async () => {
    const made = await pipeSettings.create({ ...args, ...host });
    await byHand("PUT", CLICKPIPE, { clickhouse_max_threads: 32 });
    const drifted = await pipeSettings.read(made.id, { ...made.outs, ...host });
    expect(drifted.inputs).toMatchObject({ dbMaxThreads: 32 });
    expect((await pipeSettings.diff(made.id, { ...drifted.props, ...host }, { ...args, ...host })).changes).toBe(true);
    emu.emulator.resetRequestLog();
    await pipeSettings.update(made.id, { ...drifted.props, ...host }, { ...args, ...host });
    expect(emu.requests()).toEqual([`PUT ${CLICKPIPE}`]);
    expect(emu.emulator.snapshot().pipes[PIPE_RESOURCE_ID]?.db_max_threads).toBe(8);
  });

  it("resets on delete what it left, through the Cloud's names", async () => {
    const made = await pipeSettings.create({ ...args, resetOnDelete: true, ...host });
    // Another run: a setting claimed by this run's create is never reset by its deletes.
    resetRuntime();
    useRuntime({ retryPolicy: FAST_RETRIES, readByList: false });
    emu.emulator.resetRequestLog();
    await pipeSettings.delete(made.id, { ...made.outs, ...host });
    expect(emu.emulator.snapshot().pipes[PIPE_RESOURCE_ID]).toEqual({
      db_max_threads: null,
      db_parallel_view_processing: null,
      object_storage_concurrency: null,
    });
    expect(emu.requests()).toEqual([`GET ${CLICKPIPE}`, `PUT ${CLICKPIPE}`]);
  });

  it("serves the getPipeSettings lookup", async () => {
    await byHand("PUT", CLICKPIPE, { clickhouse_max_insert_threads: 2 });
    const def = lookupNamed("getPipeSettings");
    if (def === undefined) throw new Error("no getPipeSettings");
    expect(await runLookup(def, { ...PIPE_IDS })).toMatchObject({ dbMaxInsertThreads: 2, dbMaxThreads: null });
  });
});

describe("alertpipe export on the Cloud's area B", () => {
  it("writes a set pipe's settings by the same import id as in the contract dialect, from one GET at /clickpipes/", async () => {
    await byHand("PUT", CLICKPIPE, { clickhouse_max_threads: 2 });
    emu.emulator.resetRequestLog();
    const env = { ...exportEnv(emu.emulator), ALERTPIPE_CLOUD_DIALECT: "clickhouse" };
    const run = await exportInProcess(["export", "--pipe", PIPE_RESOURCE_ID], env);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { resources: Array<{ type: string; id: string }> };
    const pipes = doc.resources.filter((r) => r.type === "alertpipe:index:PipeSettings");
    expect(pipes).toEqual([expect.objectContaining({ id: PIPE_RESOURCE_ID })]);
    const cloudRequests = emu.emulator.requests.filter((r) => r.area === "cloud");
    expect(cloudRequests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET ${CLICKPIPE} 200`]);
  });
});

describe("ApiKey on the Cloud's area B", () => {
  it("creates, reads with nothing to do, and finds a change by hand", async () => {
    const args = { organizationId: ORG_ID, name: "ci", roles: ["developer"] };
    const made = await apiKey.create({ ...args, ...host });
    expect(made.outs?.keySecret).toEqual(expect.any(String));
    const read = await apiKey.read(made.id, { ...made.outs, ...host });
    expect((await apiKey.diff(made.id, { ...read.props, ...host }, { ...args, ...host })).changes).toBe(false);
    await byHand("PATCH", `/v1/organizations/${ORG_ID}/keys/${made.id}`, { name: "by hand" });
    const drifted = await apiKey.read(made.id, { ...read.props, ...host });
    expect(drifted.props).toMatchObject({ name: "by hand" });
    await apiKey.delete(made.id, { ...drifted.props, ...host });
    expect(emu.emulator.snapshot().keys).toEqual({});
  });
});

describe("a PipeSettings made in one dialect", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps its id and reads with nothing to do once the same service speaks the Cloud's dialect, set explicitly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "alertpipe-dialect-"));
    dirs.push(dir);
    const dataFile = join(dir, "emulator.json");
    const args = { ...PIPE_IDS, dbMaxThreads: 8 };

    const contract = await startEmulator({ port: 0, dataFile, rateLimits: { cloud: false } });
    let restore = setEnv({ ...envFor("cloud", contract), ALERTPIPE_CLOUD_DIALECT: "contract" });
    resetRuntime();
    useRuntime({ retryPolicy: FAST_RETRIES, readByList: false });
    const made = await pipeSettings.create({ ...args, ...host });
    expect(contract.requests.map((r) => r.path)).toEqual([expect.stringContaining("/pipes/")]);
    await contract.close();
    restore();

    const clickhouse = await startEmulator({
      port: 0,
      dataFile,
      cloudDialect: "clickhouse",
      rateLimits: { cloud: false },
    });
    restore = setEnv({ ...envFor("cloud", clickhouse), ALERTPIPE_CLOUD_DIALECT: "clickhouse" });
    try {
      const read = await pipeSettings.read(made.id, { ...made.outs, ...host });
      expect(read.id).toBe(made.id);
      expect((await pipeSettings.diff(made.id, { ...read.props, ...host }, { ...args, ...host })).changes).toBe(false);
      expect(clickhouse.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET ${CLICKPIPE} 200`]);
    } finally {
      restore();
      await clickhouse.close();
    }
  });
});
