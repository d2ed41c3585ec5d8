import { describe, expect, it } from "vitest";
import * as provider from "../../provider/pipeSettings/provider";
import { PIPE_SETTINGS, SETTING_NAMES } from "../../provider/serviceFacts/pipeSettings";
import { UNKNOWN } from "../../provider/protocol/properties";
import { checkFailures } from "../support/failures";
import { connectionEnvPerFile } from "../support/mockApi";
import { PIPE_IDS } from "../support/fixtures";

connectionEnvPerFile();

const ids = PIPE_IDS;

const failuresFor = checkFailures(provider.check, ids);

const integerSettings = SETTING_NAMES.filter((n) => PIPE_SETTINGS[n].kind === "integer");
const booleanSettings = SETTING_NAMES.filter((n) => PIPE_SETTINGS[n].kind === "boolean");

describe("PipeSettings check", () => {
  describe.each(integerSettings)("%s", (name) => {
    const fact = PIPE_SETTINGS[name] as { min: number; max: number };
    it("accepts the minimum and the maximum", async () => {
      expect(await failuresFor({ [name]: fact.min })).toEqual([]);
      expect(await failuresFor({ [name]: fact.max })).toEqual([]);
    });
    it("refuses one below the minimum, naming the property and the range", async () => {
      const failures = await failuresFor({ [name]: fact.min - 1 });
      expect(failures).toHaveLength(1);
      expect(failures[0]?.property).toBe(name);
      expect(failures[0]?.reason).toContain(`from ${fact.min} to ${fact.max}`);
    });
    it("refuses one above the maximum", async () => {
      expect((await failuresFor({ [name]: fact.max + 1 }))[0]?.property).toBe(name);
    });
    it("refuses a non-integer", async () => {
      expect((await failuresFor({ [name]: fact.min + 0.5 }))[0]?.property).toBe(name);
    });
    it("refuses a string and a boolean", async () => {
      expect((await failuresFor({ [name]: String(fact.min) }))[0]?.property).toBe(name);
      expect((await failuresFor({ [name]: true }))[0]?.property).toBe(name);
    });
    it("refuses NaN and the infinities, naming them", async () => {
      for (const [value, named] of [
        [NaN, "NaN"],
        [Infinity, "Infinity"],
        [-Infinity, "-Infinity"],
      ] as const) {
        expect(await failuresFor({ [name]: value })).toEqual([
          {
            property: name,
            reason: `${name} is ${named}: ${name} must be an integer from ${fact.min} to ${fact.max} (inclusive) or null`,
          },
        ]);
      }
    });
    it("accepts null (unset)", async () => {
      expect(await failuresFor({ [name]: null })).toEqual([]);
    });
  });

  const nullable = booleanSettings.filter((n) => n !== "kafkaReadCommitted");
  describe.each(nullable)("%s", (name) => {
    it("accepts true, false and null", async () => {
      for (const v of [true, false, null]) expect(await failuresFor({ [name]: v })).toEqual([]);
    });
    it("refuses a number, naming the allowed values", async () => {
      const failures = await failuresFor({ [name]: 1 });
      expect(failures[0]?.property).toBe(name);
      expect(failures[0]?.reason).toContain("true, false or null");
    });
  });

  // Its published type is a plain boolean (cloud-api-2026.md): null, "unset", is refused in preview.
  describe("kafkaReadCommitted", () => {
    it("accepts true and false", async () => {
      for (const v of [true, false]) expect(await failuresFor({ kafkaReadCommitted: v })).toEqual([]);
    });
    it.each([null, 1, "yes"])("refuses %s, naming the property and saying no null", async (v) => {
      expect(await failuresFor({ kafkaReadCommitted: v })).toEqual([
        { property: "kafkaReadCommitted", reason: "kafkaReadCommitted must be true or false (no null)" },
      ]);
    });
  });

  it("refuses a program that sets no setting at all", async () => {
    const failures = await failuresFor({});
    expect(failures).toHaveLength(1);
    expect(failures[0]?.reason).toContain("at least one setting");
  });

  it.each(["organizationId", "serviceId", "pipeId"])("refuses a %s that is not a uuid", async (name) => {
    const failures = await failuresFor({ [name]: "pipe-1", dbMaxThreads: 4 });
    expect(failures).toEqual([{ property: name, reason: expect.stringContaining("uuid") }]);
  });

  it("refuses an unknown property, naming it", async () => {
    const failures = await failuresFor({ dbMaxThread: 4, dbMaxThreads: 4 });
    expect(failures[0]?.property).toBe("dbMaxThread");
  });

  it("lets values unknown during preview pass", async () => {
    expect(await failuresFor({ pipeId: UNKNOWN, dbMaxThreads: UNKNOWN })).toEqual([]);
  });

  it("returns the inputs unchanged", async () => {
    const news = { ...ids, dbMaxThreads: 4, __provider: "text" };
    expect((await provider.check({}, news)).inputs).toEqual(news);
  });
});
