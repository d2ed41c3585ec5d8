// What a new user ran into (issue 9), on the real engine: a rename without an alias keeps the new
// resource's settings under resetOnDelete, a uuid's letter case alone is no change, and a missing
// connection setting fails preview, named, before any request.

import type { PulumiFn } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { changes, emulator, installedPackage, stackOn, told } from "../support/engine";

const ORG = "0f8fad5b-d9cb-469f-a165-70867728950e";
const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const PIPE = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";

describe("PipeSettings with resetOnDelete on the real engine", () => {
  it("keeps the settings through a rename without alias (create new, delete old), and takes a uuid's case change as no change", async () => {
    const emu = await emulator();
    const { PipeSettings } = installedPackage();
    let name = "ingest";
    let pipeId = PIPE;
    const program: PulumiFn = async () => {
      new PipeSettings(name, {
        organizationId: ORG,
        serviceId: SERVICE,
        pipeId,
        dbMaxThreads: 8,
        objectStorageConcurrency: 4,
        resetOnDelete: true,
      });
      return {};
    };
    const s = await stackOn(emu, "rename-reset", { program });
    const first = await s.up();
    expect(first.ok, told(first)).toBe(true);

    name = "ingest-renamed";
    emu.resetRequestLog();
    const renamed = await s.up();
    expect(renamed.ok, told(renamed)).toBe(true);
    expect(changes(renamed)).toEqual(["create ingest-renamed", "delete ingest"]);
    // State says the settings are set; so must the service.
    expect(emu.snapshot().pipes[`${ORG}/${SERVICE}/${PIPE}`]).toMatchObject({
      db_max_threads: 8,
      object_storage_concurrency: 4,
    });
    expect(emu.requests.filter((r) => r.method === "PUT")).toHaveLength(1);

    pipeId = PIPE.toUpperCase();
    emu.resetRequestLog();
    const recased = await s.up();
    expect(recased.ok, told(recased)).toBe(true);
    expect(changes(recased)).toEqual([]);
    expect(emu.requests.filter((r) => r.method !== "GET")).toEqual([]);

    // The resource's own destroy still unsets what it set.
    const destroyed = await s.destroy();
    expect(destroyed.ok, told(destroyed)).toBe(true);
    expect(emu.snapshot().pipes[`${ORG}/${SERVICE}/${PIPE}`]).toMatchObject({
      db_max_threads: null,
      object_storage_concurrency: null,
    });
  });
});

describe("connection settings in preview on the real engine", () => {
  it("fails preview naming every missing setting of the resource's API, by config key and variable, and sends nothing", async () => {
    const emu = await emulator();
    const { PipeSettings } = installedPackage();
    const program: PulumiFn = async () => {
      new PipeSettings("ingest", { organizationId: ORG, serviceId: SERVICE, pipeId: PIPE, dbMaxThreads: 8 });
      return {};
    };
    const s = await stackOn(emu, "preview-config", { program });
    await s.removeConfig("alertpipe:cloudUrl");
    await s.removeConfig("alertpipe:cloudKeySecret");
    const preview = await s.preview();
    expect(preview.ok).toBe(false);
    const said = told(preview);
    for (const named of [
      "alertpipe:cloudUrl",
      "ALERTPIPE_CLOUD_URL",
      "alertpipe:cloudKeySecret",
      "ALERTPIPE_CLOUD_KEY_SECRET",
    ])
      expect(said).toContain(named);
    expect(said).not.toContain("alertpipe:cloudKeyId is not set");
    expect(said).not.toContain("alertpipe:alertingUrl");
    expect(emu.requests).toEqual([]);
  });
});
