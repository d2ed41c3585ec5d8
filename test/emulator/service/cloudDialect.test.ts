// The emulator's ClickHouse Cloud profile of area B (`cloudDialect: "clickhouse"`): pipe settings at
// `…/clickpipes/{clickPipeId}/settings` with six settings named `clickhouse_*`, as the Cloud's
// OpenAPI document has them; keys as in the contract; data files of earlier emulators still load.

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { SETTING_NAMES, wireName } from "../../../provider/serviceFacts/pipeSettings";
import { call, cloud, deliberately, result, settingsPath, start } from "./helpers";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "alertpipe-cloud-dialect-"));
  dirs.push(dir);
  return dir;
}

function clickPipePath(org: string = randomUUID(), svc: string = randomUUID(), pipe: string = randomUUID()): string {
  return `/v1/organizations/${org}/services/${svc}/clickpipes/${pipe}/settings`;
}

const CLOUD_NAMES = SETTING_NAMES.map((n) => wireName(n, "clickhouse"));

describe("area B in the clickhouse dialect", () => {
  it("takes a PUT of clickhouse_* names at /clickpipes/ and answers all thirteen settings in the Cloud's names", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const answer = await cloud(emu, "PUT", clickPipePath(), {
      clickhouse_max_threads: 8,
      clickhouse_parallel_view_processing: true,
    });
    expect(answer.status).toBe(200);
    const settings = result(answer);
    expect(Object.keys(settings).sort()).toEqual([...CLOUD_NAMES].sort());
    expect(settings).toMatchObject({ clickhouse_max_threads: 8, clickhouse_parallel_view_processing: true });
  });

  it("answers a GET with the settings set, in the Cloud's names", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const path = clickPipePath();
    await cloud(emu, "PUT", path, { clickhouse_max_insert_threads: 4, object_storage_concurrency: 3 });
    expect(result(await cloud(emu, "GET", path))).toEqual({
      clickhouse_max_insert_threads: 4,
      object_storage_concurrency: 3,
    });
  });

  it(
    "refuses a contract name with 400 naming it, and checks the Cloud's names by the same ranges",
    deliberately(async () => {
      const emu = await start({ cloudDialect: "clickhouse" });
      const refused = await cloud(emu, "PUT", clickPipePath(), { db_max_threads: 8 });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toContain("db_max_threads");
      const outOfRange = await cloud(emu, "PUT", clickPipePath(), { clickhouse_max_threads: 65 });
      expect(outOfRange.status).toBe(400);
      expect(outOfRange.json.error).toContain("clickhouse_max_threads");
    }),
  );

  it(
    "does not serve the contract's /pipes/ path, and the contract dialect does not serve /clickpipes/",
    deliberately(async () => {
      const cloudEmu = await start({ cloudDialect: "clickhouse" });
      expect((await cloud(cloudEmu, "GET", settingsPath())).status).toBe(404);
      const contractEmu = await start();
      expect((await cloud(contractEmu, "GET", clickPipePath())).status).toBe(404);
    }),
  );

  it(
    "answers 400 naming clickPipeId when the pipe's id is not a uuid",
    deliberately(async () => {
      const emu = await start({ cloudDialect: "clickhouse" });
      const answer = await cloud(emu, "GET", clickPipePath(undefined, undefined, "pipe-1"));
      expect(answer.status).toBe(400);
      expect(answer.json.error).toContain("clickPipeId");
    }),
  );

  it(
    "still wants the org's key or the bootstrap key (Basic), and counts it in the cloud limit",
    deliberately(async () => {
      const emu = await start({ cloudDialect: "clickhouse", rateLimits: { cloud: { requests: 1, perSeconds: 60 } } });
      expect((await call(emu, "GET", clickPipePath())).status).toBe(401);
      expect((await cloud(emu, "GET", clickPipePath())).status).toBe(200);
      expect((await cloud(emu, "GET", clickPipePath())).status).toBe(429);
    }),
  );

  it("serves keys at the same paths and in the same shapes as the contract", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const org = randomUUID();
    const made = await cloud(emu, "POST", `/v1/organizations/${org}/keys`, { name: "ci", roles: ["developer"] });
    expect(made.status).toBe(200);
    const id = result<{ key: { id: string } }>(made).key.id;
    expect(result(await cloud(emu, "GET", `/v1/organizations/${org}/keys/${id}`))).toMatchObject({ id, name: "ci" });
    expect((await cloud(emu, "PATCH", `/v1/organizations/${org}/keys/${id}`, { state: "disabled" })).status).toBe(200);
    const deleted = await cloud(emu, "DELETE", `/v1/organizations/${org}/keys/${id}`);
    expect(deleted.status).toBe(200);
    // As the Cloud's document has it: the envelope, no result.
    expect(Object.keys(deleted.json).sort()).toEqual(["requestId", "status"]);
  });

  it("logs the /clickpipes/ path of each call, as the provider's tests assert", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const path = clickPipePath();
    await cloud(emu, "PUT", path, { clickhouse_max_threads: 2 });
    expect(emu.requests.map((r) => `${r.area} ${r.method} ${r.path} ${r.status}`)).toEqual([`cloud PUT ${path} 200`]);
  });
});

describe("the data file across dialects", () => {
  it("keeps the contract's names, so a pipe set in one dialect reads the same in the other", async () => {
    const dataFile = join(tempDir(), "emulator.json");
    const [org, svc, pipe] = [randomUUID(), randomUUID(), randomUUID()];
    const contract = await start({ dataFile });
    await cloud(contract, "PUT", settingsPath(org, svc, pipe), { db_max_threads: 8, object_storage_concurrency: 2 });
    expect(contract.snapshot().pipes[`${org}/${svc}/${pipe}`]).toEqual({
      db_max_threads: 8,
      object_storage_concurrency: 2,
    });
    await contract.close();

    const clickhouse = await start({ dataFile, cloudDialect: "clickhouse" });
    expect(result(await cloud(clickhouse, "GET", clickPipePath(org, svc, pipe)))).toEqual({
      clickhouse_max_threads: 8,
      object_storage_concurrency: 2,
    });
    await cloud(clickhouse, "PUT", clickPipePath(org, svc, pipe), { clickhouse_max_threads: 16 });
    expect(clickhouse.snapshot().pipes[`${org}/${svc}/${pipe}`]).toEqual({
      db_max_threads: 16,
      object_storage_concurrency: 2,
    });
  });

  it("of a 0.1.0 emulator loads in the clickhouse dialect, its pipe's settings in the Cloud's names", async () => {
    const dataFile = join(tempDir(), "emulator.json");
    copyFileSync(join(__dirname, "../../engine/recorded/0.1.0/dynamic/emulator.json"), dataFile);
    const emu = await start({ dataFile, cloudDialect: "clickhouse" });
    const [key] = Object.keys(emu.snapshot().pipes);
    const [org, svc, pipe] = (key ?? "").split("/");
    expect(result(await cloud(emu, "GET", clickPipePath(org, svc, pipe)))).toEqual({
      object_storage_concurrency: 4,
      clickhouse_max_threads: 8,
    });
  });
});
