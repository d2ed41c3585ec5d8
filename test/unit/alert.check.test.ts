import { describe, expect, it } from "vitest";
import * as provider from "../../provider/alert/provider";
import { UNKNOWN } from "../../provider/protocol/properties";
import { checkFailures } from "../support/failures";
import { searchAlert } from "../support/fixtures";
import { connectionEnvPerFile } from "../support/mockApi";

connectionEnvPerFile();

/** A valid search alert; each test changes one thing. */
const search = searchAlert;
const tile = { ...search, source: "tile", dashboardId: "dash-1", tileId: "tile-1" };

const failuresFor = checkFailures(provider.check);

function without<T extends Record<string, unknown>>(obj: T, key: keyof T): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = obj;
  return rest;
}

describe("Alert check", () => {
  it("accepts a complete search alert", async () => {
    expect(await failuresFor(search)).toEqual([]);
  });

  it("accepts a complete tile alert with name and message", async () => {
    expect(await failuresFor({ ...tile, name: "High CPU", message: "CPU is high" })).toEqual([]);
  });

  it("returns the inputs unchanged, __provider included", async () => {
    const news = { ...search, __provider: "text" };
    expect((await provider.check({}, news)).inputs).toEqual(news);
  });

  describe("threshold", () => {
    // The 2026 service takes any number, negative too (alerting-service-2026.md); older ones refused below 0.
    it.each([0, 2.5, 1e9, -3, -0.5])("accepts %s", async (threshold) => {
      expect(await failuresFor({ ...search, threshold })).toEqual([]);
    });
    it.each([
      [NaN, "NaN"],
      [Infinity, "Infinity"],
      [-Infinity, "-Infinity"],
    ])("refuses %s, saying it is %s rather than only what it accepts", async (threshold, named) => {
      const [failure, ...others] = await failuresFor({ ...search, threshold });
      expect(others).toEqual([]);
      expect(failure?.property).toBe("threshold");
      expect(failure?.reason.startsWith(`threshold is ${named}: threshold must be`)).toBe(true);
    });
    it.each([
      ["a string", "5"],
      ["a boolean", true],
    ])("refuses %s, naming the property", async (_label, threshold) => {
      expect(await failuresFor({ ...search, threshold })).toEqual([
        { property: "threshold", reason: "threshold must be a finite number" },
      ]);
    });
    it("refuses a missing threshold, saying it is required", async () => {
      expect(await failuresFor(without(search, "threshold"))).toEqual([
        { property: "threshold", reason: "threshold is required: a finite number" },
      ]);
    });
  });

  describe("interval", () => {
    // The real service's list (real-services.md), which replaced our own "number and unit" guess.
    it.each(["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"])("accepts %s", async (interval) => {
      expect(await failuresFor({ ...search, interval })).toEqual([]);
    });
    it.each(["1s", "10m", "90s", "120m", "2h", "0m", "05m", "5x", "10", "m", "5M", " 5m", "5 minutes", ""])(
      "refuses %j, listing the allowed values",
      async (interval) => {
        expect(await failuresFor({ ...search, interval })).toEqual([
          { property: "interval", reason: 'interval must be one of "1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"' },
        ]);
      },
    );
    it("refuses a number, naming the property", async () => {
      expect((await failuresFor({ ...search, interval: 5 }))[0]?.property).toBe("interval");
    });
    it("refuses a missing interval, saying it is required", async () => {
      const failures = await failuresFor(without(search, "interval"));
      expect(failures).toEqual([{ property: "interval", reason: expect.stringContaining("interval is required") }]);
    });
  });

  describe("enums", () => {
    it.each(["tile", "search"])("accepts source %s (with what it needs)", async (source) => {
      expect(await failuresFor({ ...tile, source })).toEqual([]);
    });
    it("refuses another source, listing the allowed values", async () => {
      expect(await failuresFor({ ...search, source: "query" })).toEqual([
        { property: "source", reason: 'source must be one of "tile", "search"' },
      ]);
    });
    it.each(["above", "below", "above_exclusive", "below_or_equal", "equal", "not_equal"])(
      "accepts thresholdType %s",
      async (thresholdType) => {
        expect(await failuresFor({ ...search, thresholdType })).toEqual([]);
      },
    );
    it("refuses another thresholdType, listing the allowed values", async () => {
      expect(await failuresFor({ ...search, thresholdType: "over" })).toEqual([
        {
          property: "thresholdType",
          reason:
            'thresholdType must be one of "above", "below", "above_exclusive", "below_or_equal", "equal", "not_equal", "between", "not_between"',
        },
      ]);
    });
    it("refuses a thresholdType in the wrong case", async () => {
      expect((await failuresFor({ ...search, thresholdType: "Above" }))[0]?.property).toBe("thresholdType");
    });
  });

  describe("channel", () => {
    it("refuses an unknown channel type, listing the allowed value", async () => {
      expect(await failuresFor({ ...search, channel: { type: "sms", webhookId: "hook-1" } })).toEqual([
        { property: "", reason: 'channel.type is "sms": channel.type must be one of "webhook"' },
      ]);
    });
    it("refuses an email channel, pointing at emailRecipients on managed ClickStack", async () => {
      const [failure] = await failuresFor({ ...search, channels: [{ type: "email", webhookId: "hook-1" }] });
      expect(failure?.reason).toBe(
        'channels[0].type is "email": channels[].type must be "webhook": to send email, set the alert\'s ' +
          "emailRecipients (managed ClickStack) instead of channel and channels",
      );
    });
    it.each([
      ["slack", 'a Webhook with service "slack"', 'webhookService "slack_api"'],
      ["pagerduty", "made in the managed ClickStack console", 'webhookService "pagerduty_api"'],
    ])("refuses a %s channel, pointing at a webhook of that service", async (type, webhook, service) => {
      const [failure] = await failuresFor({ ...search, channel: { type, webhookId: "hook-1" } });
      expect(failure?.reason).toContain(`channel.type is "${type}": channel.type must be "webhook"`);
      expect(failure?.reason).toContain(webhook);
      expect(failure?.reason).toContain(service);
    });
    it.each([
      ["empty", ""],
      ["blank", "  "],
      ["a number", 7],
    ])("refuses a webhookId that is %s", async (_label, webhookId) => {
      expect(await failuresFor({ ...search, channel: { type: "webhook", webhookId } })).toEqual([
        // Nested: no property (the engine would show its top-level lookup, {<nil>}), the value in the reason.
        {
          property: "",
          reason: `channel.webhookId is ${JSON.stringify(webhookId)}: channel.webhookId must be a non-empty string`,
        },
      ]);
    });
    it("refuses a missing webhookId", async () => {
      expect(await failuresFor({ ...search, channel: { type: "webhook" } })).toEqual([
        { property: "", reason: "channel.webhookId is missing: channel.webhookId must be a non-empty string" },
      ]);
    });
    it("refuses an unknown channel property, naming it", async () => {
      const failures = await failuresFor({
        ...search,
        channel: { type: "webhook", webhookId: "hook-1", url: "https://x" },
      });
      expect(failures).toEqual([
        { property: "", reason: expect.stringMatching(/^channel\.url: unknown property.*type and webhookId/) },
      ]);
    });
    it("refuses a channel that is not an object", async () => {
      expect(await failuresFor({ ...search, channel: "hook-1" })).toEqual([
        { property: "channel", reason: expect.stringContaining('{type: "webhook", webhookId}') },
      ]);
    });
    it("refuses a missing channel without channels, saying to set one of them", async () => {
      expect(await failuresFor(without(search, "channel"))).toEqual([
        { property: "channel", reason: expect.stringContaining("set channel or channels") },
      ]);
    });
  });

  it.each(["source", "thresholdType"])("refuses a missing %s, naming it", async (name) => {
    expect((await failuresFor(without(search, name as keyof typeof search)))[0]?.property).toBe(name);
  });

  it("reports every missing required property at once", async () => {
    const properties = (await failuresFor({})).map((f) => f.property).sort();
    expect(properties).toEqual(["channel", "interval", "source", "threshold", "thresholdType"]);
  });

  describe("tile source", () => {
    it("refuses a tile alert without dashboardId, at dashboardId", async () => {
      expect(await failuresFor(without(tile, "dashboardId"))).toEqual([
        { property: "dashboardId", reason: expect.stringContaining('dashboardId is required when source is "tile"') },
      ]);
    });
    it("refuses a tile alert without tileId, at tileId", async () => {
      expect(await failuresFor(without(tile, "tileId"))).toEqual([
        { property: "tileId", reason: expect.stringContaining('tileId is required when source is "tile"') },
      ]);
    });
    it("refuses a tile alert without either, at each", async () => {
      const failures = await failuresFor({ ...search, source: "tile" });
      expect(failures.map((f) => f.property)).toEqual(["dashboardId", "tileId"]);
    });
    it("still demands dashboardId and tileId when another property is wrong too", async () => {
      const failures = await failuresFor({ ...search, source: "tile", threshold: "high" });
      expect(failures.map((f) => f.property).sort()).toEqual(["dashboardId", "threshold", "tileId"]);
    });
    it("does not demand them of a search alert", async () => {
      expect(await failuresFor(search)).toEqual([]);
    });
    it("accepts dashboardId and tileId on a search alert too", async () => {
      expect(await failuresFor({ ...search, dashboardId: "dash-1", tileId: "tile-1" })).toEqual([]);
    });
  });

  it.each(["dashboardId", "tileId"])("refuses an empty %s, naming it", async (name) => {
    expect(await failuresFor({ ...tile, [name]: "" })).toEqual([
      { property: name, reason: `${name} must be a non-empty string` },
    ]);
  });

  it.each([
    ["name", 512],
    ["message", 4096],
  ] as const)("accepts a %s of 1 to %i characters", async (name, max) => {
    expect(await failuresFor({ ...search, [name]: "x" })).toEqual([]);
    expect(await failuresFor({ ...search, [name]: "x".repeat(max) })).toEqual([]);
  });
  it.each([
    ["name", 512],
    ["message", 4096],
  ] as const)(
    "counts a %s's length as the service does, in UTF-16 units: an emoji is 2 of the %i",
    async (name, max) => {
      expect(await failuresFor({ ...search, [name]: "😀".repeat(max / 2) })).toEqual([]);
      expect(await failuresFor({ ...search, [name]: `${"😀".repeat(max / 2)}x` })).toEqual([
        {
          property: name,
          reason: `${name} must be at most ${max} characters (it has ${max + 1}; the service counts UTF-16 units, 2 for most emoji)`,
        },
      ]);
    },
  );
  it.each([
    ["name", 512],
    ["message", 4096],
  ] as const)("refuses a %s longer than %i characters, saying the limit", async (name, max) => {
    expect(await failuresFor({ ...search, [name]: "x".repeat(max + 1) })).toEqual([
      { property: name, reason: `${name} must be at most ${max} characters (it has ${max + 1})` },
    ]);
  });
  it.each(["name", "message"])("refuses an empty %s, saying to leave it out", async (name) => {
    const failures = await failuresFor({ ...search, [name]: "" });
    expect(failures).toEqual([{ property: name, reason: expect.stringContaining(`${name} must not be empty`) }]);
    expect(failures[0]?.reason).toContain("leave it out");
  });
  it.each(["name", "message"])("refuses a %s that is not a string", async (name) => {
    expect(await failuresFor({ ...search, [name]: 42 })).toEqual([
      { property: name, reason: `${name} must be a string` },
    ]);
  });

  it("refuses an unknown property, naming it and listing the properties", async () => {
    const failures = await failuresFor({ ...search, dashboard: "dash-1" });
    expect(failures).toEqual([
      {
        property: "dashboard",
        reason: expect.stringContaining(
          "threshold, interval, source, thresholdType, thresholdMax, channel, channels, dashboardId, tileId, name, message, note",
        ),
      },
    ]);
  });

  describe("during preview", () => {
    it("lets unknown values pass", async () => {
      const news = {
        ...tile,
        threshold: UNKNOWN,
        interval: UNKNOWN,
        dashboardId: UNKNOWN,
        tileId: UNKNOWN,
        name: UNKNOWN,
      };
      expect(await failuresFor(news)).toEqual([]);
    });
    it("lets an unknown channel and an unknown webhookId pass", async () => {
      expect(await failuresFor({ ...search, channel: UNKNOWN })).toEqual([]);
      expect(await failuresFor({ ...search, channel: { type: "webhook", webhookId: UNKNOWN } })).toEqual([]);
    });
    it("does not demand dashboardId or tileId while source is unknown", async () => {
      expect(await failuresFor({ ...search, source: UNKNOWN })).toEqual([]);
    });
    it("still refuses the known values that are wrong", async () => {
      expect(await failuresFor({ ...search, threshold: UNKNOWN, interval: "0m" })).toEqual([
        { property: "interval", reason: expect.any(String) },
      ]);
    });
  });
});
