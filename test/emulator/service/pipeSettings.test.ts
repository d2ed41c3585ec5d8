import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  PIPE_SETTINGS,
  SETTING_NAMES,
  wireName,
  type IntegerSetting,
} from "../../../provider/serviceFacts/pipeSettings";
import { UUID_V4, basic, call, cloud, deliberately, result, settingsPath, start } from "./helpers";

const ALL_UNSET = Object.fromEntries(SETTING_NAMES.map((n) => [wireName(n), null]));
const INTEGER_SETTINGS = SETTING_NAMES.filter((n) => PIPE_SETTINGS[n].kind === "integer");
const BOOLEAN_SETTINGS = SETTING_NAMES.filter((n) => PIPE_SETTINGS[n].kind === "boolean");
const range = (n: (typeof SETTING_NAMES)[number]) => PIPE_SETTINGS[n] as IntegerSetting;

describe("area B authentication and envelope", () => {
  it(
    "answers 401 {status, error, requestId} without credentials",
    deliberately(async () => {
      const emu = await start();
      const answer = await call(emu, "GET", settingsPath());
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({
        status: 401,
        error: expect.any(String),
        requestId: expect.stringMatching(UUID_V4),
      });
    }),
  );

  it("answers 401 for a wrong key secret", async () => {
    const emu = await start();
    expect((await call(emu, "GET", settingsPath(), { auth: basic(emu.keyId, "wrong") })).status).toBe(401);
  });

  it(
    "answers 401 for a Bearer token on area B",
    deliberately(async () => {
      const emu = await start();
      expect((await call(emu, "GET", settingsPath(), { auth: `Bearer ${emu.token}` })).status).toBe(401);
    }),
  );

  it("wraps a success in {requestId, status, result} with a fresh uuid v4 each time", async () => {
    const emu = await start();
    const path = settingsPath();
    const first = await cloud(emu, "GET", path);
    const second = await cloud(emu, "GET", path);
    expect(first.status).toBe(200);
    expect(Object.keys(first.json).sort()).toEqual(["requestId", "result", "status"]);
    expect(first.json.status).toBe(200);
    expect(first.json.requestId).toMatch(UUID_V4);
    expect(second.json.requestId).not.toBe(first.json.requestId);
  });

  it.each([
    ["organizationId", settingsPath("org-1")],
    ["serviceId", settingsPath(undefined, "not-a-uuid")],
    ["pipeId", settingsPath(undefined, undefined, "1234")],
  ])("answers 400 when %s in the path is not a uuid", async (param, path) => {
    const emu = await start();
    const answer = await cloud(emu, "PUT", path, { db_max_threads: 1 });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toContain(param);
  });
});

describe("pipe settings merge semantics", () => {
  // Issue 8: as the real service may, GET leaves out settings never set (it answered all twelve before).
  it("GET of a pipe never updated answers no settings: those never set are left out", async () => {
    const emu = await start();
    expect(result(await cloud(emu, "GET", settingsPath()))).toEqual({});
  });

  it("PUT answers all twelve wire fields with the sent one set", async () => {
    const emu = await start();
    const answer = await cloud(emu, "PUT", settingsPath(), { db_max_threads: 8 });
    expect(answer.status).toBe(200);
    expect(result(answer)).toEqual({ ...ALL_UNSET, db_max_threads: 8 });
  });

  it("an omitted setting keeps its earlier value", async () => {
    const emu = await start();
    const path = settingsPath();
    await cloud(emu, "PUT", path, { db_max_threads: 8 });
    const answer = await cloud(emu, "PUT", path, { db_parallel_view_processing: true });
    expect(result(answer)).toEqual({ ...ALL_UNSET, db_max_threads: 8, db_parallel_view_processing: true });
    expect(result(await cloud(emu, "GET", path))).toEqual({ db_max_threads: 8, db_parallel_view_processing: true });
  });

  it("null resets a setting to unset", async () => {
    const emu = await start();
    const path = settingsPath();
    await cloud(emu, "PUT", path, { db_max_threads: 8, object_storage_concurrency: 3 });
    const answer = await cloud(emu, "PUT", path, { db_max_threads: null });
    expect(result(answer)).toEqual({ ...ALL_UNSET, object_storage_concurrency: 3 });
  });

  it("pipes are independent of each other", async () => {
    const emu = await start();
    const org = randomUUID();
    const svc = randomUUID();
    await cloud(emu, "PUT", settingsPath(org, svc, randomUUID()), { db_max_threads: 8 });
    expect(result(await cloud(emu, "GET", settingsPath(org, svc, randomUUID())))).toEqual({});
  });

  it("treats upper- and lowercase uuids as the same pipe", async () => {
    const emu = await start();
    const [org, svc, pipe] = [randomUUID(), randomUUID(), randomUUID()];
    await cloud(emu, "PUT", settingsPath(org.toUpperCase(), svc, pipe), { db_max_threads: 8 });
    expect(result(await cloud(emu, "GET", settingsPath(org, svc, pipe)))).toMatchObject({ db_max_threads: 8 });
  });
});

describe("pipe settings validation (400)", () => {
  it("rejects an empty body {}", async () => {
    const emu = await start();
    expect((await cloud(emu, "PUT", settingsPath(), {})).status).toBe(400);
  });

  it(
    "rejects an unknown field",
    deliberately(async () => {
      const emu = await start();
      const answer = await cloud(emu, "PUT", settingsPath(), { db_max_threads: 1, max_threads: 1 });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toContain("max_threads");
    }),
  );

  it(
    "rejects the Pulumi (camelCase) name on the wire",
    deliberately(async () => {
      const emu = await start();
      expect((await cloud(emu, "PUT", settingsPath(), { dbMaxThreads: 1 })).status).toBe(400);
    }),
  );

  it(
    "rejects a body that is not an object",
    deliberately(async () => {
      const emu = await start();
      expect((await cloud(emu, "PUT", settingsPath(), [1])).status).toBe(400);
    }),
  );

  it(
    "does not change anything when one of several values is invalid",
    deliberately(async () => {
      const emu = await start();
      const path = settingsPath();
      await cloud(emu, "PUT", path, { db_max_threads: 8 });
      expect((await cloud(emu, "PUT", path, { db_max_threads: 9, db_max_insert_threads: 17 })).status).toBe(400);
      expect(result(await cloud(emu, "GET", path))).toEqual({ db_max_threads: 8 });
    }),
  );

  it.each(INTEGER_SETTINGS)("%s accepts both inclusive bounds", async (name) => {
    const emu = await start();
    const { min, max } = range(name);
    const answer = await cloud(emu, "PUT", settingsPath(), { [wireName(name)]: min });
    expect(result(answer)[wireName(name)]).toBe(min);
    expect(result(await cloud(emu, "PUT", settingsPath(), { [wireName(name)]: max }))[wireName(name)]).toBe(max);
  });

  it.each(INTEGER_SETTINGS)(
    "%s rejects one below the minimum and one above the maximum",
    deliberately(async (name) => {
      const emu = await start();
      const { min, max } = range(name);
      for (const value of [min - 1, max + 1]) {
        const answer = await cloud(emu, "PUT", settingsPath(), { [wireName(name)]: value });
        expect(answer.status).toBe(400);
        expect(answer.json.error).toContain(wireName(name));
      }
    }),
  );

  it.each(INTEGER_SETTINGS)(
    "%s rejects a non-integer, a numeric string and a boolean",
    deliberately(async (name) => {
      const emu = await start();
      const { min } = range(name);
      for (const value of [min + 0.5, String(min), true]) {
        expect((await cloud(emu, "PUT", settingsPath(), { [wireName(name)]: value })).status).toBe(400);
      }
    }),
  );

  it.each(BOOLEAN_SETTINGS)(
    '%s accepts true and false and rejects 1 and "true"',
    deliberately(async (name) => {
      const emu = await start();
      const wire = wireName(name);
      expect(result(await cloud(emu, "PUT", settingsPath(), { [wire]: true }))[wire]).toBe(true);
      expect(result(await cloud(emu, "PUT", settingsPath(), { [wire]: false }))[wire]).toBe(false);
      expect((await cloud(emu, "PUT", settingsPath(), { [wire]: 1 })).status).toBe(400);
      expect((await cloud(emu, "PUT", settingsPath(), { [wire]: "true" })).status).toBe(400);
    }),
  );
});
