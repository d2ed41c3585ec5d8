// The emulator's default mode with the 2026 fields of issue 27: each checked by the upstream rule
// in its words (docs/design/alerting-service-2026.md), stored and answered; a PUT keeping what the
// service keeps; a key's role uuids answered as assignedRoles; kafka_read_committed a plain boolean.

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ORGANIZATION_ROLES } from "../../../emulator/cloud";
import { alerting, cloud, createKey, data, result, settingsPath, start, validAlert } from "./helpers";

const hook = (webhookId: string) => ({ type: "webhook", webhookId });
const ADMIN = Object.keys(ORGANIZATION_ROLES)[0] ?? "";

describe("alerts: the 2026 fields", () => {
  it.each([
    [{ thresholdType: "between" }, "thresholdMax: thresholdMax is required for between/not_between threshold types"],
    [{ thresholdType: "between", thresholdMax: 4 }, "thresholdMax must be greater than or equal to threshold"],
    [{ channel: undefined }, 'Provide either "channel" or "channels"'],
    [{ channels: [] }, "At least one notification channel is required"],
    [{ channels: [hook("a"), hook("a")], channel: hook("a") }, "Duplicate notification channels are not allowed"],
    [{ channels: [hook("b")] }, '"channel" must match the first entry of "channels"'],
    [{ scheduleOffsetMinutes: 5 }, "scheduleOffsetMinutes must be less than 5 minutes"],
    [{ scheduleStartAt: "2026-02-08T10:00:00+01:00" }, "Invalid datetime"],
    [{ numConsecutiveWindows: 0 }, "numConsecutiveWindows"],
  ])("refuses %j with the service's words", async (change, words) => {
    const emu = await start();
    const answer = await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, ...change });
    expect(answer.status).toBe(400);
    expect(String(answer.json.message)).toContain(words);
  });

  it("stores and answers every new field; thresholdMax equal to threshold is allowed", async () => {
    const emu = await start();
    const sent = {
      ...validAlert,
      source: "search",
      dashboardId: undefined,
      tileId: undefined,
      thresholdType: "between",
      thresholdMax: 5,
      channels: [hook("wh-1"), hook("wh-2")],
      scheduleStartAt: "2026-02-08T10:00Z",
      numConsecutiveWindows: 2,
      note: "see the runbook",
      groupBy: "host",
      savedSearchId: "ss-1",
    };
    const alert = data(await alerting(emu, "POST", "/api/v2/alerts", sent));
    expect(alert).toMatchObject({
      thresholdMax: 5,
      channel: hook("wh-1"),
      channels: [hook("wh-1"), hook("wh-2")],
      scheduleStartAt: "2026-02-08T10:00:00.000Z",
      scheduleOffsetMinutes: 0,
      numConsecutiveWindows: 2,
      note: "see the runbook",
      groupBy: "host",
      savedSearchId: "ss-1",
    });
  });

  it("keeps thresholdMax and the schedule on a PUT that leaves them out; a null start clears it", async () => {
    const emu = await start();
    const made = { ...validAlert, thresholdType: "between", thresholdMax: 9, scheduleOffsetMinutes: 3 };
    const { id } = data(await alerting(emu, "POST", "/api/v2/alerts", made));
    const kept = data(await alerting(emu, "PUT", `/api/v2/alerts/${id}`, validAlert));
    expect(kept).toMatchObject({ thresholdMax: 9, scheduleOffsetMinutes: 3 });
    const cleared = data(await alerting(emu, "PUT", `/api/v2/alerts/${id}`, { ...validAlert, scheduleStartAt: null }));
    expect(cleared).toMatchObject({ scheduleStartAt: null, scheduleOffsetMinutes: 0 });
  });
});

describe("keys: assignedRoleIds", () => {
  it("answers the uuids as assignedRoles, system roles named", async () => {
    const emu = await start();
    const made = await createKey(emu, randomUUID(), { roles: undefined, assignedRoleIds: [ADMIN] });
    expect((made.key as unknown as Record<string, unknown>).assignedRoles).toEqual([
      { roleId: ADMIN, roleName: "Admin", roleType: "system" },
    ]);
  });

  it("refuses a role uuid the organization does not have, naming it", async () => {
    const emu = await start();
    const missing = randomUUID();
    const answer = await cloud(emu, "POST", `/v1/organizations/${randomUUID()}/keys`, { assignedRoleIds: [missing] });
    expect(answer.status).toBe(400);
    expect(String(answer.json.error)).toContain(missing);
  });
});

describe("pipe settings: kafka_read_committed", () => {
  it("round-trips true and false", async () => {
    const emu = await start();
    const path = settingsPath();
    for (const value of [true, false]) {
      expect(result(await cloud(emu, "PUT", path, { kafka_read_committed: value })).kafka_read_committed).toBe(value);
      expect(result(await cloud(emu, "GET", path)).kafka_read_committed).toBe(value);
    }
  });

  it.each([null, "yes", 1])("refuses %j, naming it", async (value) => {
    const emu = await start();
    const answer = await cloud(emu, "PUT", settingsPath(), { kafka_read_committed: value });
    expect(answer.status).toBe(400);
    expect(String(answer.json.error)).toContain("kafka_read_committed");
  });
});
