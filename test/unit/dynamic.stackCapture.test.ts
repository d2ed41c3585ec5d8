// The classes' constructors pause V8's stack capture around the SDK's (which stamps a stack on
// four promises of every declared output): the limit comes back as it was, an error thrown inside
// still points at the program's line, and the SDK's promise-leak report keeps its stacks.

import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type * as AlertModule from "../../provider/dynamic/alert";
import { pauseStackCapture, restoreStackCapture } from "../../provider/dynamic/stackCapture";
import { providerModule } from "../support/dynamicClasses";

const { Alert } = providerModule("./provider/dynamic/alert") as typeof AlertModule;

const args = {
  name: "errors",
  source: "tile" as const,
  dashboardId: "d",
  tileId: "t",
  threshold: 1,
  thresholdType: "above" as const,
  interval: "5m" as const,
  channel: { type: "webhook" as const, webhookId: "w" },
};

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: () => ({}) },
    "stack-capture-test",
    "dev",
    false,
  );
});

afterEach(() => {
  delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
});

describe("a class's constructor", () => {
  it("leaves Error.stackTraceLimit as it found it", () => {
    Error.stackTraceLimit = 17;
    new Alert("limit", args);
    expect(Error.stackTraceLimit).toBe(17);
    Error.stackTraceLimit = 10;
  });

  it("gives an error thrown inside the SDK's constructor a stack from the program's line", () => {
    const transformations = [
      (): undefined => {
        throw new Error("transformation failed");
      },
    ];
    let thrown: unknown;
    try {
      new Alert("throws", args, { transformations });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    const [, firstFrame] = (thrown as Error).stack?.split("\n") ?? [];
    expect(firstFrame).toContain("dynamic.stackCapture.test.ts");
    expect(Error.stackTraceLimit).toBe(10);
  });
});

describe("pausing capture", () => {
  it("sets the limit to 0 and restores the one it returns", () => {
    const limit = pauseStackCapture();
    expect(Error.stackTraceLimit).toBe(0);
    restoreStackCapture(limit);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("leaves capture on when the SDK's promise-leak report is asked for", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const limit = pauseStackCapture();
    expect(Error.stackTraceLimit).toBe(limit);
    restoreStackCapture(limit);
  });
});
