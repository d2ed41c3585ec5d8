// examples/observability.ts, unmodified, on the real engine against the emulator's HyperDX mode:
// connection → source → dashboard with three tiles → an alert on one tile by its name → an alert on a
// saved search, both to one webhook. Preview plans the seven objects and writes nothing; up makes
// them, each alert on what it names; the next preview changes nothing; destroy leaves nothing.

import { describe, expect, it } from "vitest";
import { examplesDir, exampleProgram } from "../../scripts/exampleStack";
import { changes, emulator, requestLog, stackOn, succeeded, type EngineStack } from "../support/engine";
import type { RunningEmulator } from "../support/engine";
import { beforeAll } from "vitest";

const OBJECTS = ["clickhouse", "errors-high", "logs", "oncall", "ops", "timeouts", "timeouts-seen"];

describe("the observability example on the real engine", () => {
  let emu: RunningEmulator;
  let stack: EngineStack;
  const snap = () => emu.snapshot();

  beforeAll(async () => {
    emu = await emulator({ mode: "2026", rateLimits: { cloud: false, alerting: false } });
    stack = await stackOn(emu, "observability-example", {
      program: exampleProgram(examplesDir(), "observability"),
      config: { "alertpipe-example:clickhousePassword": { value: "ch-example-password", secret: true } },
    });
  }, 300_000);

  it("previews the seven objects as creates, writing nothing", async () => {
    const preview = succeeded(await stack.preview());
    expect(changes(preview)).toEqual(OBJECTS.map((n) => `create ${n}`));
    expect(requestLog(emu)).toEqual([]);
  });

  it("makes them in one up: the tile alert on the tile named Errors, the search alert on its saved search", async () => {
    const up = succeeded(await stack.up());
    expect(changes(up)).toEqual(OBJECTS.map((n) => `create ${n}`));
    const [board] = Object.values(snap().dashboards ?? {}) as Array<{
      id: string;
      tiles: { id: string; name: string }[];
    }>;
    expect(board?.tiles.map((t) => t.name)).toEqual(["Errors", "Requests", "Runbook"]);
    const errorsTile = board?.tiles.find((t) => t.name === "Errors")?.id;
    const alerts = Object.values(snap().alerts);
    const hook = Object.keys(snap().webhooks ?? {})[0];
    const search = Object.keys(snap().savedSearches ?? {})[0];
    const tileAlert = alerts.find((a) => a.name === "Errors high");
    expect(tileAlert).toMatchObject({ tileId: errorsTile });
    expect(JSON.stringify(tileAlert)).toContain(board?.id ?? "no dashboard");
    expect(alerts.find((a) => a.name === "Timeouts seen")).toMatchObject({ savedSearchId: search });
    for (const alert of alerts) expect(JSON.stringify(alert)).toContain(hook ?? "no webhook");
    expect(up.outputs.tileAlertId?.value).toBe(alerts.find((a) => a.name === "Errors high")?.id);
  });

  it("previews nothing to change on the next run", async () => {
    emu.resetRequestLog();
    expect(changes(succeeded(await stack.preview()))).toEqual([]);
    expect(requestLog(emu, (m) => m !== "GET")).toEqual([]);
  });

  it("destroys everything it made", async () => {
    succeeded(await stack.destroy());
    expect(Object.keys(snap().alerts)).toEqual([]);
    expect(Object.keys(snap().dashboards ?? {})).toEqual([]);
    expect(Object.keys(snap().webhooks ?? {})).toEqual([]);
    expect(Object.keys(snap().savedSearches ?? {})).toEqual([]);
  });
});
