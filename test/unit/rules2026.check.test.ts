// Each rule of the 2026 properties (issue 27), one row each: the program, where check fails and
// what it says, before any request (connectionEnvPerFile's origins answer nothing). `stricter` notes
// where ours refuses what the service takes (docs/design/services-2026-decisions.md).

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { checkFailures, where } from "../support/failures";
import { connectionEnvPerFile } from "../support/mockApi";
import { ORG_ID, PIPE_IDS } from "../support/fixtures";

connectionEnvPerFile();

const hook = (webhookId: string) => ({ type: "webhook", webhookId });
const search = { threshold: 5, interval: "5m", source: "search", thresholdType: "above", channel: hook("h1") };
const tile = { ...search, source: "tile", dashboardId: "d1", tileId: "t1" };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const ROLE = "9a3e1c52-6f0e-4b7a-8d1e-3c4b5a6f7e80";

interface Row {
  readonly rule: string;
  readonly program: Record<string, unknown>;
  /** Where the failure points, and words its reason holds; undefined: it passes. */
  readonly at?: string;
  readonly says?: string;
  /** Where ours refuses what the service takes, and why. */
  readonly stricter?: string;
}

const ALERT_ROWS: Row[] = [
  { rule: "between with thresholdMax passes", program: { ...search, thresholdType: "between", thresholdMax: 9 } },
  {
    rule: "thresholdMax equal to threshold passes",
    program: { ...search, thresholdType: "not_between", thresholdMax: 5 },
  },
  {
    rule: "between needs thresholdMax",
    program: { ...search, thresholdType: "between" },
    at: "thresholdMax",
    says: "required",
  },
  {
    rule: "thresholdMax at least threshold",
    program: { ...search, thresholdType: "between", thresholdMax: 4 },
    at: "thresholdMax",
    says: "at least threshold",
  },
  {
    rule: "thresholdMax refused for other types",
    program: { ...search, thresholdMax: 9 },
    at: "thresholdMax",
    says: "only for",
    stricter: "the service stores it and never reads it",
  },
  {
    rule: "thresholdMax finite",
    program: { ...search, thresholdType: "between", thresholdMax: Infinity },
    at: "thresholdMax",
  },
  { rule: "negative threshold passes", program: { ...search, threshold: -2.5 } },
  { rule: "channels alone passes", program: { ...search, channel: undefined, channels: [hook("h1"), hook("h2")] } },
  { rule: "channel equal to channels[0] passes", program: { ...search, channels: [hook("h1"), hook("h2")] } },
  {
    rule: "neither channel nor channels",
    program: { ...search, channel: undefined },
    at: "channel",
    says: "channel or channels",
  },
  { rule: "channels empty", program: { ...search, channels: [] }, at: "channels", says: "at least one" },
  {
    rule: "channels over ten",
    program: { ...search, channel: undefined, channels: Array.from({ length: 11 }, (_, i) => hook(`h${i}`)) },
    at: "channels",
    says: "at most 10",
  },
  {
    rule: "channels with two alike",
    program: { ...search, channel: undefined, channels: [hook("h1"), hook("h1")] },
    at: "channels",
    says: "alike",
  },
  {
    rule: "channel differing from channels[0]",
    program: { ...search, channels: [hook("h2"), hook("h1")] },
    at: "channel",
    says: "channels[0]",
  },
  {
    rule: "a channel of another type",
    program: { ...search, channel: undefined, channels: [{ type: "email", webhookId: "x" }] },
    at: "channels[0].type",
  },
  { rule: "offset within the interval passes", program: { ...search, scheduleOffsetMinutes: 4 } },
  {
    rule: "offset an integer",
    program: { ...search, scheduleOffsetMinutes: 1.5 },
    at: "scheduleOffsetMinutes",
    says: "integer",
  },
  {
    rule: "offset at most 1439",
    program: { ...search, interval: "1d", scheduleOffsetMinutes: 1440 },
    at: "scheduleOffsetMinutes",
    says: "1439",
  },
  {
    rule: "offset under the interval",
    program: { ...search, scheduleOffsetMinutes: 5 },
    at: "scheduleOffsetMinutes",
    says: "5 minutes",
  },
  {
    rule: "offset 0 with a start",
    program: { ...search, scheduleStartAt: iso(Date.now()), scheduleOffsetMinutes: 2 },
    at: "scheduleOffsetMinutes",
    says: "0 when scheduleStartAt",
  },
  { rule: "a start without seconds passes", program: { ...search, scheduleStartAt: "2026-02-08T10:00Z" } },
  {
    rule: "a start ending in Z",
    program: { ...search, scheduleStartAt: "2026-02-08T10:00:00+01:00" },
    at: "scheduleStartAt",
    says: "ending in Z",
  },
  {
    rule: "a start a real date",
    program: { ...search, scheduleStartAt: "2026-13-01T10:00:00Z" },
    at: "scheduleStartAt",
  },
  {
    rule: "a start over a year ahead",
    program: { ...search, scheduleStartAt: iso(Date.now() + 370 * day) },
    at: "scheduleStartAt",
    says: "365 days ahead",
  },
  {
    rule: "a start over ten years back",
    program: { ...search, scheduleStartAt: iso(Date.now() - 3700 * day) },
    at: "scheduleStartAt",
    says: "3650 days back",
  },
  {
    rule: "numConsecutiveWindows at least 1",
    program: { ...search, numConsecutiveWindows: 0 },
    at: "numConsecutiveWindows",
    says: ">= 1",
  },
  {
    rule: "numConsecutiveWindows an integer",
    program: { ...search, numConsecutiveWindows: 2.5 },
    at: "numConsecutiveWindows",
  },
  { rule: "note not empty", program: { ...search, note: "" }, at: "note", says: "must not be empty" },
  { rule: "note at most 4096", program: { ...search, note: "n".repeat(4097) }, at: "note", says: "at most 4096" },
  {
    rule: "groupBy and savedSearchId on a search alert pass",
    program: { ...search, groupBy: "host", savedSearchId: "s1" },
  },
  {
    rule: "groupBy on a tile alert",
    program: { ...tile, groupBy: "host" },
    at: "groupBy",
    says: "search alerts only",
    stricter: "the service drops it silently",
  },
  {
    rule: "savedSearchId on a tile alert",
    program: { ...tile, savedSearchId: "s1" },
    at: "savedSearchId",
    says: "search alerts only",
  },
];

const KEY_ROWS: Row[] = [
  { rule: "assignedRoleIds alone passes", program: { organizationId: ORG_ID, assignedRoleIds: [ROLE] } },
  { rule: "both passes", program: { organizationId: ORG_ID, roles: ["admin"], assignedRoleIds: [ROLE] } },
  {
    rule: "neither roles nor assignedRoleIds",
    program: { organizationId: ORG_ID },
    at: "assignedRoleIds",
    says: "at least one role",
  },
  {
    rule: "assignedRoleIds empty",
    program: { organizationId: ORG_ID, roles: ["admin"], assignedRoleIds: [] },
    at: "assignedRoleIds",
    says: "at least one",
    stricter: "the OpenAPI gives no minimum",
  },
  {
    rule: "assignedRoleIds not uuids",
    program: { organizationId: ORG_ID, assignedRoleIds: ["admin"] },
    at: "assignedRoleIds[0]",
    says: "uuid",
  },
  {
    rule: "assignedRoleIds repeated",
    program: { organizationId: ORG_ID, assignedRoleIds: [ROLE, ROLE.toUpperCase()] },
    at: "assignedRoleIds",
    says: "repeat",
  },
];

const PIPE_ROWS: Row[] = [
  { rule: "kafkaReadCommitted true passes", program: { ...PIPE_IDS, kafkaReadCommitted: true } },
  {
    rule: "kafkaReadCommitted takes no null",
    program: { ...PIPE_IDS, kafkaReadCommitted: null },
    at: "kafkaReadCommitted",
    says: "no null",
  },
  {
    rule: "kafkaReadCommitted a boolean",
    program: { ...PIPE_IDS, kafkaReadCommitted: "yes" },
    at: "kafkaReadCommitted",
    says: "true or false",
  },
];

const table: [string, Parameters<typeof checkFailures>[0], Row[]][] = [
  ["Alert", alert.check, ALERT_ROWS],
  ["ApiKey", apiKey.check, KEY_ROWS],
  ["PipeSettings", pipeSettings.check, PIPE_ROWS],
];

describe.each(table)("%s check, the 2026 rules", (_name, check, rows) => {
  const failuresFor = checkFailures(check);
  it.each(rows.map((r) => [r.rule, r] as const))("%s", async (_rule, row) => {
    const program = Object.fromEntries(Object.entries(row.program).filter(([, v]) => v !== undefined));
    const failures = await failuresFor(program);
    if (row.at === undefined) return expect(failures).toEqual([]);
    expect(failures.map((f) => where(f))).toEqual([row.at]);
    if (row.says !== undefined) expect(failures[0]?.reason).toContain(row.says);
  });
});

describe("a schedule's start window", () => {
  const failuresFor = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    alert.check(olds, news).then((r) => r.failures ?? []);
  const old = iso(Date.now() - 3700 * day);

  it("is not checked again when the start is unchanged (it fell out of the window since)", async () => {
    expect(await failuresFor({ ...search, scheduleStartAt: old }, { ...search, scheduleStartAt: old })).toEqual([]);
  });
  it("is checked again when the start changes", async () => {
    const moved = iso(Date.now() - 3800 * day);
    const failures = await failuresFor({ ...search, scheduleStartAt: old }, { ...search, scheduleStartAt: moved });
    expect(failures.map((f) => where(f))).toEqual(["scheduleStartAt"]);
  });
});
