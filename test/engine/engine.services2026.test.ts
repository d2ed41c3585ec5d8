// The 2026 properties (issue 27) on the real engine, through both front doors: bad input fails YAML's
// preview naming the property before any request; an alert with `between` and two channels, a
// scheduled alert, a key with assignedRoleIds and pipe settings with kafkaReadCommitted round-trip
// (a second up writes nothing); a change made by hand on the service to each new property, through each
// door, is found by refresh (the state holds the service's value) and put back by up.

import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ROLES } from "../../emulator/roles";
import { SEEDED_SOURCES, type RunningEmulator } from "../../emulator";
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
import { ALERTS_PATH, KEYS_PATH, ORG_ID, PIPE_IDS, PIPE_RESOURCE_ID, SETTINGS_PATH } from "../support/fixtures";
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
/** The band alert watching a saved search made by hand (the emulator gives its id). */
const band = (savedSearchId: string): AlertArgs => ({ ...BETWEEN, savedSearchId });
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
const { scheduleStartAt: _start, ...unstarted } = SCHEDULED;
const OFFSET: AlertArgs = { ...unstarted, scheduleOffsetMinutes: 15 };
const KEY: ApiKeyArgs = { organizationId: ORG_ID, name: "ci", assignedRoleIds: [ADMIN] };
const PIPE = { ...PIPE_IDS, kafkaReadCommitted: true };

/** The command's run, once it is known to have exited 0; otherwise the test fails showing its output. */
function ok<T extends CliRun>(run: T): T {
  expect(run.code, run.output).toBe(0);
  return run;
}

/** Two saved searches made by hand on the service: the one the band alert watches, and another. */
async function twoSearches(emu: RunningEmulator): Promise<{ watched: string; other: string }> {
  const made = async (name: string) =>
    (
      (await byHand(emu, "POST", "/api/v2/saved-searches", { name, sourceId: SEEDED_SOURCES[0].id })) as {
        data: { id: string };
      }
    ).data.id;
  return { watched: await made("lag"), other: await made("lag, by hand") };
}

type Made = Pick<CliStack, "readStateFile">;
const idOf = (stack: Made, name: string) => ourState(stack).get(name)?.id ?? "";
const CHANGED = ["band", "ci", "ingest", "nightly", "offset"];

const BAND_BY_HAND = { channels: [hook("ops-oncall"), hook("other")], thresholdMax: 30, groupBy: "region" };
const NIGHTLY_BY_HAND = {
  scheduleStartAt: new Date(Date.parse(START) - 86_400_000).toISOString(),
  note: "changed by hand",
  numConsecutiveWindows: 5,
};
const OFFSET_BY_HAND = { scheduleOffsetMinutes: 40 };

/**
 * Each new property changed by hand on the service, in one step: the band's channels, thresholdMax,
 * groupBy and saved search; the nightly's start, note and windows; the offset; the key's roles; the
 * Kafka setting. Returns the writes that put them back.
 */
async function changeEachByHand(emu: RunningEmulator, stack: Made, other: string): Promise<string[]> {
  const [bandId, nightly, offset, key] = [
    idOf(stack, "band"),
    idOf(stack, "nightly"),
    idOf(stack, "offset"),
    idOf(stack, "ci"),
  ];
  const was = emu.snapshot().alerts[bandId]?.savedSearchId ?? "";
  await byHand(emu, "PUT", `${ALERTS_PATH}/${bandId}`, { ...band(was), ...BAND_BY_HAND, savedSearchId: other });
  await byHand(emu, "PUT", `${ALERTS_PATH}/${nightly}`, { ...SCHEDULED, ...NIGHTLY_BY_HAND });
  await byHand(emu, "PUT", `${ALERTS_PATH}/${offset}`, { ...OFFSET, ...OFFSET_BY_HAND });
  await byHand(emu, "PATCH", `${KEYS_PATH}/${key}`, { assignedRoleIds: [DEVELOPER] });
  await byHand(emu, "PUT", SETTINGS_PATH, { kafka_read_committed: false });
  return [
    `PUT ${ALERTS_PATH}/${bandId}`,
    `PUT ${ALERTS_PATH}/${nightly}`,
    `PUT ${ALERTS_PATH}/${offset}`,
    `PATCH ${KEYS_PATH}/${key}`,
    `PUT ${SETTINGS_PATH}`,
  ].sort();
}
/** The state after refresh holds what each hand change left on the service. */
function expectRefreshed(stack: Made, other: string): void {
  const state = ourState(stack);
  expect(state.get("band")?.outputs).toMatchObject({ ...BAND_BY_HAND, savedSearchId: other });
  expect(state.get("nightly")?.outputs).toMatchObject(NIGHTLY_BY_HAND);
  expect(state.get("offset")?.outputs).toMatchObject(OFFSET_BY_HAND);
  expect(state.get("ci")?.outputs).toMatchObject({ assignedRoleIds: [DEVELOPER] });
  expect(state.get("ingest")?.outputs).toMatchObject({ kafkaReadCommitted: false });
}

/** The service holds the program's values again after up. */
function expectPutBack(emu: RunningEmulator, stack: Made, watched: string): void {
  const snap = emu.snapshot();
  const { channels, thresholdMax, groupBy } = BETWEEN;
  expect(snap.alerts[idOf(stack, "band")]).toMatchObject({ channels, thresholdMax, groupBy, savedSearchId: watched });
  const { scheduleStartAt, note, numConsecutiveWindows } = SCHEDULED;
  expect(snap.alerts[idOf(stack, "nightly")]).toMatchObject({ scheduleStartAt, note, numConsecutiveWindows });
  expect(snap.alerts[idOf(stack, "offset")]?.scheduleOffsetMinutes).toBe(OFFSET.scheduleOffsetMinutes);
  expect(snap.keys[idOf(stack, "ci")]?.assignedRoleIds).toEqual([ADMIN]);
  expect(snap.pipes[PIPE_RESOURCE_ID]?.kafka_read_committed).toBe(true);
}

describe("the 2026 properties in Pulumi YAML, through the native plugin", () => {
  const resourcesWith = (search: string) => ({
    band: { type: "alertpipe:index:Alert", properties: band(search) },
    nightly: { type: "alertpipe:index:Alert", properties: SCHEDULED },
    offset: { type: "alertpipe:index:Alert", properties: OFFSET },
    ci: { type: "alertpipe:index:ApiKey", properties: KEY },
    ingest: { type: "alertpipe:index:PipeSettings", properties: PIPE },
  });
  let resources: ReturnType<typeof resourcesWith>;
  let searches: { watched: string; other: string };
  let emu: RunningEmulator;
  let stack: CliStack;
  let yaml: YamlStack;

  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: OFF });
    searches = await twoSearches(emu);
    resources = resourcesWith(searches.watched);
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
    expect(requestLog(emu)).toEqual([]);
  });

  it("creates the five, and a second up writes nothing", async () => {
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up)).toEqual(CHANGED.map((n) => `create ${n}`));
    emu.resetRequestLog();
    const again = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(again)).toEqual([]);
    expect(requestLog(emu, isWrite)).toEqual([]);
  });

  it("finds each new property changed by hand on refresh, and puts it back on up", async () => {
    const writes = await changeEachByHand(emu, stack, searches.other);
    const refresh = ok(await stack.runLogged("refresh", ["refresh", "--yes"]));
    expect(changes(refresh)).toEqual(CHANGED.map((n) => `refresh-update ${n}`));
    expectRefreshed(stack, searches.other);
    emu.resetRequestLog();
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up)).toEqual(CHANGED.map((n) => `update ${n}`));
    expect(requestLog(emu, isWrite).sort()).toEqual(writes);
    expectPutBack(emu, stack, searches.watched);
  });
});

describe("the 2026 properties through the dynamic classes", () => {
  let searches = { watched: "", other: "" };
  const t = sharedStack(
    "services-2026",
    async ({ Alert, ApiKey, PipeSettings }) => {
      new Alert("band", band(searches.watched));
      new Alert("nightly", SCHEDULED);
      new Alert("offset", OFFSET);
      new ApiKey("ci", KEY);
      new PipeSettings("ingest", PIPE);
    },
    { emulator: { rateLimits: OFF }, config: LIMITS_OFF },
  );
  // After sharedStack's beforeAll: the program runs at up, once the searches exist.
  beforeAll(async () => {
    searches = await twoSearches(t.emu);
  });

  it("creates the five, and a second up writes nothing", async () => {
    const up = succeeded(await t.stack.up());
    expect(changes(up)).toEqual(CHANGED.map((n) => `create ${n}`));
    t.emu.resetRequestLog();
    expect(changes(succeeded(await t.stack.up()))).toEqual([]);
    expect(requestLog(t.emu, isWrite)).toEqual([]);
  });

  it("finds each new property changed by hand on refresh, and puts it back on up", async () => {
    const writes = await changeEachByHand(t.emu, t.stack, searches.other);
    const refresh = succeeded(await t.stack.refresh());
    expect(changes(refresh)).toEqual(CHANGED.map((n) => `refresh-update ${n}`));
    expectRefreshed(t.stack, searches.other);
    t.emu.resetRequestLog();
    expect(changes(succeeded(await t.stack.up()))).toEqual(CHANGED.map((n) => `update ${n}`));
    expect(requestLog(t.emu, isWrite).sort()).toEqual(writes);
    expectPutBack(t.emu, t.stack, searches.watched);
  });
});
