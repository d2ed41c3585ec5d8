import { describe, expect, it } from "vitest";
import * as provider from "../../provider/pipeSettings/provider";
import { SETTING_NAMES } from "../../provider/serviceFacts/pipeSettings";
import { UNKNOWN } from "../../provider/protocol/properties";
import { CANARY, cloudAnswer, errorText, mockApiPerTest, answerOnce } from "../support/mockApi";
import { PIPE_IDS, PIPE_RESOURCE_ID, SETTINGS_PATH } from "../support/fixtures";

const ids = PIPE_IDS;
const id = PIPE_RESOURCE_ID;
const path = SETTINGS_PATH;

/** All twelve wire fields unset, with the given ones set. */
function wire(values: Record<string, number | boolean | null> = {}): Record<string, number | boolean | null> {
  return {
    ...Object.fromEntries(SETTING_NAMES.map((n) => [n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), null])),
    ...values,
  };
}

/** Outputs as create records them: the pipe, all twelve settings null but the given ones, and what the program manages. */
function stored(values: Record<string, unknown>): Record<string, unknown> {
  return { ...ids, ...Object.fromEntries(SETTING_NAMES.map((n) => [n, null])), ...values };
}

const mock = mockApiPerTest();
const seen = mock.seen;

function intercept(method: string, status: number, data: unknown) {
  answerOnce(mock.api.cloud, seen, { method, path }, status, data);
}

describe("PipeSettings create", () => {
  it("sends one PUT with only the settings the program sets, in wire names", async () => {
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 8, object_storage_use_cluster_function: null })));
    await provider.create({ ...ids, dbMaxThreads: 8, objectStorageUseClusterFunction: null, __provider: "x" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.body).toEqual({ db_max_threads: 8, object_storage_use_cluster_function: null });
  });

  it("returns the id org/service/pipe, all twelve effective values and the managed names", async () => {
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 8, db_max_insert_threads: 4 })));
    const result = await provider.create({ ...ids, dbMaxThreads: 8 });
    expect(result.id).toBe(id);
    expect(result.outs).toMatchObject({
      ...ids,
      dbMaxThreads: 8,
      dbMaxInsertThreads: 4,
      streamingMaxInsertWaitMs: null,
      managedSettings: ["dbMaxThreads"],
    });
    expect(Object.keys(result.outs ?? {})).toEqual(expect.arrayContaining(SETTING_NAMES));
  });

  it("reports a 400 with method, path, status, the service message and requestId, without credentials", async () => {
    intercept("PUT", 400, { status: 400, error: "db_max_threads out of range", requestId: "rid-400" });
    const err = await provider.create({ ...ids, dbMaxThreads: 8 }).catch((e: unknown) => e);
    expect(String(err)).toContain(`PUT ${path}`);
    expect(String(err)).toContain("400");
    expect(String(err)).toContain("db_max_threads out of range");
    expect(String(err)).toContain("rid-400");
    expect(errorText(err)).not.toContain(CANARY.keySecret);
  });
});

describe("PipeSettings uuids", () => {
  const upper = {
    organizationId: ids.organizationId.toUpperCase(),
    serviceId: ids.serviceId.toUpperCase(),
    pipeId: ids.pipeId.toUpperCase(),
  };

  it("are lower-cased by check, so state holds one form", async () => {
    const result = await provider.check({}, { ...upper, dbMaxThreads: 8 });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ ...ids, dbMaxThreads: 8 });
  });

  it("differing only in letter case are no change, even against a state written before check lower-cased them", async () => {
    const olds = stored({ ...upper, dbMaxThreads: 8, managedSettings: ["dbMaxThreads"] });
    expect(await provider.diff(id, olds, { ...ids, dbMaxThreads: 8 })).toMatchObject({ changes: false, replaces: [] });
  });
});

describe("PipeSettings diff", () => {
  const olds = stored({ dbMaxThreads: 8, objectStorageConcurrency: 3, managedSettings: ["dbMaxThreads"] });

  it("sees no change when managed settings equal their stored values, whatever the unmanaged ones are", async () => {
    expect(await provider.diff(id, olds, { ...ids, dbMaxThreads: 8 })).toMatchObject({ changes: false, replaces: [] });
  });

  it("updates in place when a setting changes", async () => {
    expect(await provider.diff(id, olds, { ...ids, dbMaxThreads: 9 })).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces when the pipe changes", async () => {
    const d = await provider.diff(id, olds, {
      ...ids,
      pipeId: "2c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
      dbMaxThreads: 8,
    });
    expect(d).toMatchObject({ changes: true, replaces: ["pipeId"] });
  });

  it("counts an unknown value as a change", async () => {
    expect(await provider.diff(id, olds, { ...ids, dbMaxThreads: UNKNOWN })).toMatchObject({ changes: true });
  });

  it("counts a newly managed setting as a change", async () => {
    expect(await provider.diff(id, olds, { ...ids, dbMaxThreads: 8, objectStorageConcurrency: 3 })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("PipeSettings update", () => {
  const olds = stored({
    dbMaxThreads: 8,
    dbMaxInsertThreads: 2,
    managedSettings: ["dbMaxThreads", "dbMaxInsertThreads"],
  });

  it("sends only the settings whose value changed, and an explicit null as null", async () => {
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 16, db_max_insert_threads: null })));
    await provider.update(id, olds, { ...ids, dbMaxThreads: 16, dbMaxInsertThreads: null });
    expect(seen.map((s) => s.body)).toEqual([{ db_max_threads: 16, db_max_insert_threads: null }]);
  });

  it("leaves a setting removed from the program out of the PUT, so it stays as it is live", async () => {
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 16, db_max_insert_threads: 2 })));
    await provider.update(id, olds, { ...ids, dbMaxThreads: 16 });
    expect(seen.map((s) => s.body)).toEqual([{ db_max_threads: 16 }]);
  });

  it("stops managing a setting removed from the program, recording its live value", async () => {
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 16, db_max_insert_threads: 2 })));
    const result = await provider.update(id, olds, { ...ids, dbMaxThreads: 16 });
    expect(result.outs).toMatchObject({ dbMaxInsertThreads: 2, managedSettings: ["dbMaxThreads"] });
  });

  it("sends no request when only the set of managed settings shrinks", async () => {
    await provider.update(id, olds, { ...ids, dbMaxThreads: 8 });
    expect(seen).toHaveLength(0);
  });

  it("records the smaller set of managed settings when only it shrinks", async () => {
    const result = await provider.update(id, olds, { ...ids, dbMaxThreads: 8 });
    expect(result.outs).toMatchObject({ dbMaxThreads: 8, managedSettings: ["dbMaxThreads"] });
  });
});

describe("PipeSettings read", () => {
  const props = stored({ dbMaxThreads: 8, managedSettings: ["dbMaxThreads"] });

  it("sends one GET of the settings", async () => {
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 4, object_storage_concurrency: 9 })));
    await provider.read(id, props);
    expect(seen.map((s) => s.method)).toEqual(["GET"]);
  });

  it("returns the live values of every setting as outputs, under the same id and managed names", async () => {
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 4, object_storage_concurrency: 9 })));
    const result = await provider.read(id, props);
    expect(result.id).toBe(id);
    expect(result.props).toMatchObject({
      dbMaxThreads: 4,
      objectStorageConcurrency: 9,
      managedSettings: ["dbMaxThreads"],
    });
  });

  it("reports drift on managed settings only, through inputs", async () => {
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 4, object_storage_concurrency: 9 })));
    const result = await provider.read(id, props);
    expect(result.inputs).toEqual({ ...ids, dbMaxThreads: 4 });
  });

  it("says the pipe is gone when the service answers 404", async () => {
    intercept("GET", 404, { status: 404, error: "pipe not found", requestId: "rid" });
    expect(await provider.read(id, props)).toEqual({});
  });
});

describe("PipeSettings delete", () => {
  const props = {
    ...ids,
    dbMaxThreads: 8,
    objectStorageConcurrency: 3,
    managedSettings: ["dbMaxThreads", "objectStorageConcurrency"],
  };

  it("leaves the live settings alone by default: no request", async () => {
    await provider.delete(id, props);
    expect(seen).toHaveLength(0);
  });

  it("with resetOnDelete reads the pipe, then sends null for every managed setting still as this resource left it", async () => {
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 8, object_storage_concurrency: 3 })));
    intercept("PUT", 200, cloudAnswer(wire()));
    await provider.delete(id, { ...props, resetOnDelete: true });
    expect(seen.map((s) => `${s.method} ${JSON.stringify(s.body ?? null)}`)).toEqual([
      "GET null",
      'PUT {"object_storage_concurrency":null,"db_max_threads":null}',
    ]);
  });

  it("with resetOnDelete leaves a setting someone changed since: only the ones still ours are unset", async () => {
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 12, object_storage_concurrency: 3 })));
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 12 })));
    await provider.delete(id, { ...props, resetOnDelete: true });
    expect(seen.map((s) => s.body)).toEqual([undefined, { object_storage_concurrency: null }]);
  });

  it("with resetOnDelete sends no PUT when nothing live is still ours", async () => {
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 12, object_storage_concurrency: null })));
    await provider.delete(id, { ...props, resetOnDelete: true });
    expect(seen.map((s) => s.method)).toEqual(["GET"]);
  });

  it("with resetOnDelete never unsets what another resource of the same run wrote to the pipe (a rename without alias)", async () => {
    // The renamed resource is created first, writing the same values, then the old one is deleted.
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 8 })));
    await provider.create({ ...ids, dbMaxThreads: 8, resetOnDelete: true });
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 8, object_storage_concurrency: 3 })));
    intercept("PUT", 200, cloudAnswer(wire({ db_max_threads: 8 })));
    await provider.delete(id, { ...props, resetOnDelete: true });
    expect(seen.map((s) => `${s.method} ${JSON.stringify(s.body ?? null)}`)).toEqual([
      'PUT {"db_max_threads":8}',
      "GET null",
      'PUT {"object_storage_concurrency":null}',
    ]);
  });

  it("with resetOnDelete counts the same pipe in another letter case as the same pipe", async () => {
    await provider.diff(id, props, {
      organizationId: ids.organizationId.toUpperCase(),
      serviceId: ids.serviceId,
      pipeId: ids.pipeId.toUpperCase(),
      dbMaxThreads: 8,
      objectStorageConcurrency: 3,
    });
    await provider.delete(id, { ...props, resetOnDelete: true });
    expect(seen).toEqual([]);
  });

  it("with resetOnDelete still unsets settings that another resource's check alone saw: check claims nothing", async () => {
    await provider.check({}, { ...ids, dbMaxThreads: 8, objectStorageConcurrency: 3 });
    intercept("GET", 200, cloudAnswer(wire({ db_max_threads: 8, object_storage_concurrency: 3 })));
    intercept("PUT", 200, cloudAnswer(wire()));
    await provider.delete(id, { ...props, resetOnDelete: true });
    expect(seen.map((s) => s.method)).toEqual(["GET", "PUT"]);
  });

  it("with resetOnDelete treats a 404 as already gone", async () => {
    intercept("GET", 404, { status: 404, error: "no such pipe", requestId: "rid" });
    await expect(provider.delete(id, { ...props, resetOnDelete: true })).resolves.toBeUndefined();
  });
});
