// The 2026 properties (issue 27) on the real engine, through both front doors: bad input fails YAML's
// preview naming the property before any request; an alert with `between` and two channels, a
// scheduled alert, a key with assignedRoleIds and pipe settings with kafkaReadCommitted round-trip
// (a second up writes nothing); a change made by hand on the service to each new property is found
// by refresh (the state holds the service's value) and put back by up.

import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ROLES } from "../../emulator/roles";
import type { RunningEmulator } from "../../emulator";
import type { AlertArgs, ApiKeyArgs } from "../../provider";
import type { CliRun, CliStack } from "../support/cliStack";
import {
  byHand,
  changes,
  emulator as startEmulator,
  ourState,
  requestLog,
  sharedStack,
  succeeded,
} from "../support/engine";
import { ALERTS_PATH, KEYS_PATH, ORG_ID, PIPE_IDS, SETTINGS_PATH } from "../support/fixtures";
import { yamlProgram, yamlStack, type YamlStack } from "../support/yamlStack";

const isWrite = (method: string) => method !== "GET";
const [ADMIN = "", DEVELOPER = ""] = Object.keys(SYSTEM_ROLES);
const hook = (webhookId: string) => ({ type: "webhook" as const, webhookId });
/** A day back, on the hour, as the service writes a date: inside the allowed window whenever the test runs. */
const START = new Date(Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000).toISOString();
const OFF = { cloud: false, alerting: false } as const;
const LIMITS_OFF = {
  "alertpipe:cloudRateLimit": { value: "off" },
  "alertpipe:alertingRateLimit": { value: "off" },
};

const BETWEEN: AlertArgs = {
  name: "lag in band",
  source: "search",
  threshold: 10,
  thresholdMax: 20,
  thresholdType: "between",
  interval: "5m",
  channels: [hook("ops-oncall"), hook("ops-chat")],
  groupBy: "host",
};
const SCHEDULED: AlertArgs = {
  name: "nightly",
  source: "search",
  threshold: 1,
  thresholdType: "above",
  interval: "1d",
  channel: hook("ops-oncall"),
  scheduleStartAt: START,
  numConsecutiveWindows: 2,
  note: "see the **runbook**",
};
const KEY: ApiKeyArgs = { organizationId: ORG_ID, name: "ci", assignedRoleIds: [ADMIN] };
const PIPE = { ...PIPE_IDS, kafkaReadCommitted: true };

/** The command's run, once it is known to have exited 0; otherwise the test fails showing its output. */
function ok<T extends CliRun>(run: T): T {
  expect(run.code, run.output).toBe(0);
  return run;
}

describe("the 2026 properties in Pulumi YAML, through the native plugin", () => {
  const resources = {
    band: { type: "alertpipe:index:Alert", properties: BETWEEN },
    nightly: { type: "alertpipe:index:Alert", properties: SCHEDULED },
    ci: { type: "alertpipe:index:ApiKey", properties: KEY },
    ingest: { type: "alertpipe:index:PipeSettings", properties: PIPE },
  };
  let emu: RunningEmulator;
  let stack: CliStack;
  let yaml: YamlStack;

  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: OFF });
    yaml = await yamlStack(emu, yamlProgram({ resources }), { config: LIMITS_OFF });
    stack = yaml.stack;
  }, 900_000);

  // The engine stops a preview at its first failed check, so each rule has a preview of its own.
  const broken = [
    [
      "thresholdMax",
      "band",
      { ...BETWEEN, thresholdMax: undefined },
      /property thresholdMax .*required when thresholdType is "between"/,
    ],
    [
      "scheduleOffsetMinutes",
      "nightly",
      { ...SCHEDULED, scheduleOffsetMinutes: 30 },
      /property scheduleOffsetMinutes .*must be 0 when scheduleStartAt is set/,
    ],
    [
      "channels",
      "band",
      { ...BETWEEN, channels: [hook("ops-chat"), hook("ops-chat")] },
      /property channels .*must not hold two alike channels/,
    ],
  ] as const;
  it.each(broken)("fails preview naming %s, before any request", async (_property, name, properties, says) => {
    // thresholdMax: undefined is left out of the program: JSON has no undefined.
    yaml.write(yamlProgram({ resources: { ...resources, [name]: { ...resources[name], properties } } }));
    emu.resetRequestLog();
    const preview = await stack.run(["preview"]);
    yaml.write(yamlProgram({ resources }));
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(says);
    expect(emu.requests).toEqual([]);
  });

  it("creates the four, and a second up writes nothing", async () => {
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up)).toEqual(["create band", "create ci", "create ingest", "create nightly"]);
    emu.resetRequestLog();
    const again = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(again)).toEqual([]);
    expect(requestLog(emu, isWrite)).toEqual([]);
  });

  it("finds channels, thresholdMax, a start, a note and windows changed by hand on refresh, and puts them back on up", async () => {
    const band = ourState(stack).get("band")?.id ?? "";
    const nightly = ourState(stack).get("nightly")?.id ?? "";
    const bandByHand = { channels: [hook("ops-oncall"), hook("other")], thresholdMax: 30 };
    await byHand(emu, "PUT", `${ALERTS_PATH}/${band}`, { ...BETWEEN, ...bandByHand });
    const moved = new Date(Date.parse(START) - 86_400_000).toISOString();
    const nightlyByHand = { scheduleStartAt: moved, note: "changed by hand", numConsecutiveWindows: 5 };
    await byHand(emu, "PUT", `${ALERTS_PATH}/${nightly}`, { ...SCHEDULED, ...nightlyByHand });
    const refresh = ok(await stack.runLogged("refresh", ["refresh", "--yes"]));
    expect(changes(refresh)).toEqual(["refresh-update band", "refresh-update nightly"]);
    expect(ourState(stack).get("band")?.outputs).toMatchObject(bandByHand);
    expect(ourState(stack).get("nightly")?.outputs).toMatchObject(nightlyByHand);
    emu.resetRequestLog();
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up)).toEqual(["update band", "update nightly"]);
    expect(requestLog(emu, isWrite).sort()).toEqual(
      [`PUT ${ALERTS_PATH}/${band}`, `PUT ${ALERTS_PATH}/${nightly}`].sort(),
    );
    expect(emu.snapshot().alerts[band]).toMatchObject({ channels: BETWEEN.channels, thresholdMax: 20 });
    expect(emu.snapshot().alerts[nightly]).toMatchObject({
      scheduleStartAt: START,
      note: SCHEDULED.note,
      numConsecutiveWindows: 2,
    });
  });
});

describe("the 2026 properties through the dynamic classes", () => {
  const t = sharedStack(
    "services-2026",
    async ({ Alert, ApiKey, PipeSettings }) => {
      new Alert("band", BETWEEN);
      const { scheduleStartAt: _start, ...unstarted } = SCHEDULED;
      new Alert("offset", { ...unstarted, scheduleOffsetMinutes: 15 });
      new ApiKey("ci", KEY);
      new PipeSettings("ingest", PIPE);
    },
    { emulator: { rateLimits: OFF }, config: LIMITS_OFF },
  );

  it("creates the four, and a second up writes nothing", async () => {
    const up = succeeded(await t.stack.up());
    expect(changes(up)).toEqual(["create band", "create ci", "create ingest", "create offset"]);
    t.emu.resetRequestLog();
    expect(changes(succeeded(await t.stack.up()))).toEqual([]);
    expect(requestLog(t.emu, isWrite)).toEqual([]);
  });

  it("finds a key's roles and Kafka setting changed by hand on refresh, and puts them back on up", async () => {
    const key = ourState(t.stack).get("ci")?.id ?? "";
    await byHand(t.emu, "PATCH", `${KEYS_PATH}/${key}`, { assignedRoleIds: [DEVELOPER] });
    await byHand(t.emu, "PUT", SETTINGS_PATH, { kafka_read_committed: false });
    const refresh = succeeded(await t.stack.refresh());
    expect(changes(refresh)).toEqual(["refresh-update ci", "refresh-update ingest"]);
    t.emu.resetRequestLog();
    expect(changes(succeeded(await t.stack.up()))).toEqual(["update ci", "update ingest"]);
    expect(requestLog(t.emu, isWrite).sort()).toEqual([`PATCH ${KEYS_PATH}/${key}`, `PUT ${SETTINGS_PATH}`]);
    expect(t.emu.snapshot().keys[key]?.assignedRoleIds).toEqual([ADMIN]);
  });

  it("finds thresholdMax, groupBy and a schedule offset changed by hand on refresh, and puts them back on up", async () => {
    const band = ourState(t.stack).get("band")?.id ?? "";
    const offset = ourState(t.stack).get("offset")?.id ?? "";
    const bandByHand = { thresholdMax: 25, groupBy: "region" };
    await byHand(t.emu, "PUT", `${ALERTS_PATH}/${band}`, { ...BETWEEN, ...bandByHand });
    const { scheduleStartAt: _start, ...unstarted } = SCHEDULED;
    await byHand(t.emu, "PUT", `${ALERTS_PATH}/${offset}`, { ...unstarted, scheduleOffsetMinutes: 40 });
    const refresh = succeeded(await t.stack.refresh());
    expect(changes(refresh)).toEqual(["refresh-update band", "refresh-update offset"]);
    expect(ourState(t.stack).get("band")?.outputs).toMatchObject(bandByHand);
    expect(ourState(t.stack).get("offset")?.outputs).toMatchObject({ scheduleOffsetMinutes: 40 });
    t.emu.resetRequestLog();
    expect(changes(succeeded(await t.stack.up()))).toEqual(["update band", "update offset"]);
    expect(requestLog(t.emu, isWrite).sort()).toEqual(
      [`PUT ${ALERTS_PATH}/${band}`, `PUT ${ALERTS_PATH}/${offset}`].sort(),
    );
    expect(t.emu.snapshot().alerts[band]).toMatchObject({ thresholdMax: 20, groupBy: "host" });
    expect(t.emu.snapshot().alerts[offset]?.scheduleOffsetMinutes).toBe(15);
  });
});
