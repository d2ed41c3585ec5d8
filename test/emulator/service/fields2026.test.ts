// The emulator's default mode with the 2026 fields of issue 27: each checked by the upstream rule
// in its words (docs/design/alerting-service-2026.md), stored and answered; a PUT keeping what the
// service keeps; a key's role uuids answered as assignedRoles; kafka_read_committed a plain boolean.

import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SYSTEM_ROLES, customRoleId } from "../../../emulator/roles";
import {
  DELIBERATE,
  alerting,
  cloud,
  createKey,
  data,
  deliberately,
  makeReferents,
  onTile,
  result,
  settingsPath,
  start,
  validAlert,
} from "./helpers";

const hook = (webhookId: string) => ({ type: "webhook", webhookId });
const ADMIN = Object.keys(SYSTEM_ROLES)[0] ?? "";

describe.each(["contract", "2026"] as const)("alerts in the %s mode: the 2026 fields", (mode) => {
  const search = mode === "2026" ? "saved_search" : "search";
  const startIn = () => start({ mode });
  /** An emulator in this mode, the webhooks and saved search an alert names made in it, and a tile alert on them. */
  const withReferents = async () => {
    const emu = await startIn();
    const refs = await makeReferents(emu);
    return { emu, refs, alert: { ...validAlert, ...onTile(refs), channel: hook(refs.hooks[0]) } };
  };

  it.each([
    [{ thresholdType: "between" }, "thresholdMax: thresholdMax is required for between/not_between threshold types"],
    [{ thresholdType: "between", thresholdMax: 4 }, "thresholdMax must be greater than or equal to threshold"],
    [{ channel: undefined }, 'Provide either "channel" or "channels"'],
    [{ channels: [] }, "At least one notification channel is required"],
    [{ channels: Array.from({ length: 11 }, (_, i) => hook(`w${i}`)), channel: undefined }, "at most 10"],
    [{ channels: [hook("a"), hook("a")], channel: hook("a") }, "Duplicate notification channels are not allowed"],
    [{ channels: [hook("b")] }, '"channel" must match the first entry of "channels"'],
    [{ scheduleOffsetMinutes: 5 }, "scheduleOffsetMinutes: scheduleOffsetMinutes must be less than 5 minutes"],
    [{ scheduleOffsetMinutes: 1440, interval: "1d" }, "scheduleOffsetMinutes"],
    [{ scheduleOffsetMinutes: 1, scheduleStartAt: "2026-02-08T10:00Z" }, "must be 0 when scheduleStartAt is provided"],
    [{ scheduleStartAt: "2026-02-08T10:00:00+01:00" }, "Invalid datetime"],
    [{ scheduleStartAt: "2001-01-01T00:00:00Z" }, "scheduleStartAt must be within 10 years in the past"],
    [{ numConsecutiveWindows: 0 }, "numConsecutiveWindows"],
    [{ note: "" }, "note"],
    [{ note: "x".repeat(4097) }, "note"],
  ])(
    "refuses %j with the service's words",
    deliberately(async (change, words) => {
      const emu = await startIn();
      const answer = await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, ...change });
      expect(answer.status).toBe(400);
      expect(String(answer.json.message)).toContain(words);
    }),
  );

  it("stores and answers every new field; thresholdMax equal to threshold is allowed", async () => {
    const { emu, refs, alert } = await withReferents();
    const [wh1, wh2] = refs.hooks;
    const sent = {
      ...alert,
      source: search,
      dashboardId: undefined,
      tileId: undefined,
      thresholdType: "between",
      thresholdMax: 5,
      channels: [hook(wh1), hook(wh2)],
      scheduleStartAt: "2026-02-08T10:00Z",
      numConsecutiveWindows: 2,
      note: "see the runbook",
      groupBy: "host",
      savedSearchId: refs.savedSearchId,
    };
    const made = data(await alerting(emu, "POST", "/api/v2/alerts", sent));
    const expected = {
      thresholdMax: 5,
      channel: hook(wh1),
      channels: [hook(wh1), hook(wh2)],
      scheduleStartAt: "2026-02-08T10:00:00.000Z",
      scheduleOffsetMinutes: 0,
      numConsecutiveWindows: 2,
      note: "see the runbook",
      groupBy: "host",
      savedSearchId: refs.savedSearchId,
    };
    expect(made).toMatchObject(expected);
    expect(data(await alerting(emu, "GET", `/api/v2/alerts/${made.id}`))).toMatchObject(expected);
  });

  it("keeps thresholdMax and the schedule on a PUT that leaves them out; a null start clears it", async () => {
    const { emu, alert } = await withReferents();
    const made = { ...alert, thresholdType: "between", thresholdMax: 9, scheduleOffsetMinutes: 3 };
    const { id } = data(await alerting(emu, "POST", "/api/v2/alerts", made));
    const kept = data(await alerting(emu, "PUT", `/api/v2/alerts/${id}`, alert));
    expect(kept).toMatchObject({ thresholdMax: 9, scheduleOffsetMinutes: 3 });
    const cleared = data(await alerting(emu, "PUT", `/api/v2/alerts/${id}`, { ...alert, scheduleStartAt: null }));
    expect(cleared).toMatchObject({ scheduleStartAt: null, scheduleOffsetMinutes: 0 });
  });

  it("drops groupBy from a tile alert, as the service does", async () => {
    const { emu, alert } = await withReferents();
    const made = data(await alerting(emu, "POST", "/api/v2/alerts", { ...alert, groupBy: "host" }));
    expect(made).not.toHaveProperty("groupBy");
  });
});

describe("alerts in the 2026 mode: what an alert without the new fields answers", () => {
  it("null note and numConsecutiveWindows, channels beside channel, no thresholdMax, schedule or groupBy", async () => {
    const emu = await start({ mode: "2026" });
    const refs = await makeReferents(emu);
    const alert = { ...validAlert, ...onTile(refs), channel: hook(refs.hooks[0]) };
    const made = (await alerting(emu, "POST", "/api/v2/alerts", alert)).json.data as Record<string, unknown>;
    expect(made).toMatchObject({ note: null, numConsecutiveWindows: null, channels: [alert.channel] });
    for (const member of ["thresholdMax", "scheduleOffsetMinutes", "scheduleStartAt", "groupBy"])
      expect(made).not.toHaveProperty(member);
  });
});

describe("alerts in the 2026 mode: what an alert names is looked up, as the service's validateAlertInput", () => {
  const NOT_MADE = "0123456789abcdef01234567";

  it.each([
    [{ dashboardId: NOT_MADE }, "Dashboard not found"],
    [{ dashboardId: "d1" }, "Invalid dashboard ID"],
    [{ tileId: NOT_MADE }, "Tile not found"],
    [{ channel: hook(NOT_MADE) }, "Webhook not found"],
    [{ channel: hook("ops-hook") }, "Invalid webhook ID"],
    [
      { source: "saved_search", dashboardId: undefined, tileId: undefined, savedSearchId: NOT_MADE },
      "Saved search not found",
    ],
    [
      { source: "saved_search", dashboardId: undefined, tileId: undefined, savedSearchId: "errors" },
      "Invalid saved search ID",
    ],
  ])("refuses %j with 400 and the service's words", async (change, words) => {
    const emu = await start({ mode: "2026" });
    const refs = await makeReferents(emu);
    const alert = { ...validAlert, ...onTile(refs), channel: hook(refs.hooks[0]), ...change };
    const answer = await alerting(emu, "POST", "/api/v2/alerts", alert);
    expect([answer.status, answer.json.message]).toEqual([400, words]);
  });

  it("refuses a second channel whose webhook is not made", async () => {
    const emu = await start({ mode: "2026" });
    const refs = await makeReferents(emu);
    const channels = [hook(refs.hooks[0]), hook(NOT_MADE)];
    const alert = { ...validAlert, ...onTile(refs), channel: hook(refs.hooks[0]), channels };
    const answer = await alerting(emu, "POST", "/api/v2/alerts", alert);
    expect([answer.status, answer.json.message]).toEqual([400, "Webhook not found"]);
  });

  it("checks a PUT's body before it looks the alert up: a 400, not a 404", async () => {
    const emu = await start({ mode: "2026" });
    const alert = { ...validAlert, ...onTile(await makeReferents(emu)), channel: hook(NOT_MADE) };
    const answer = await alerting(emu, "PUT", `/api/v2/alerts/${NOT_MADE}`, alert);
    expect([answer.status, answer.json.message]).toEqual([400, "Webhook not found"]);
  });

  it("the contract's mode takes any id, as before", async () => {
    const emu = await start();
    const answer = await alerting(emu, "POST", "/api/v2/alerts", { ...validAlert, channel: hook(NOT_MADE) });
    expect(answer.status).toBe(200);
  });
});

describe("a method a route lacks (a GET of one webhook)", () => {
  it(
    "is Express's HTML 404 in the 2026 mode, the key checked first",
    deliberately(async () => {
      const emu = await start({ mode: "2026" });
      const { hooks } = await makeReferents(emu);
      const res = await fetch(`${emu.url}/api/v2/webhooks/${hooks[0]}`, {
        headers: { authorization: `Bearer ${emu.token}`, ...DELIBERATE },
      });
      expect([res.status, res.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
      expect(await res.text()).toContain(`Cannot GET /api/v2/webhooks/${hooks[0]}`);
      const unknownKey = await fetch(`${emu.url}/api/v2/webhooks/${hooks[0]}`, {
        headers: { authorization: "Bearer x", ...DELIBERATE },
      });
      expect(unknownKey.status).toBe(401);
    }),
  );

  it(
    "is a 405 naming the allowed methods in the contract's mode",
    deliberately(async () => {
      const emu = await start();
      const answer = await alerting(emu, "GET", `/api/v2/webhooks/0123456789abcdef01234567`);
      expect([answer.status, answer.headers.get("allow")]).toEqual([405, "PUT, DELETE"]);
    }),
  );
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

describe("roles: system, and custom ones seeded", () => {
  const org = randomUUID();
  const auditor = customRoleId(org, "Auditor");
  const seeded = () => start({ customRoles: [{ organizationId: org, name: "Auditor" }] });

  it("lists the three system roles and the organization's custom ones, each key holding one as an actor", async () => {
    const emu = await seeded();
    const made = await createKey(emu, org, { roles: undefined, assignedRoleIds: [auditor] });
    const roles = result<Record<string, unknown>[]>(await cloud(emu, "GET", `/v1/organizations/${org}/roles`));
    expect(roles.map((r) => [r.id, r.name, r.type])).toEqual([
      ...Object.entries(SYSTEM_ROLES).map(([id, r]) => [id, r.roleName, "system"]),
      [auditor, "Auditor", "custom"],
    ]);
    expect(roles.at(-1)?.actors).toEqual([`apiKey/${made.key.id}`]);
  });

  it("answers a custom role in assignedRoles by its name and type", async () => {
    const emu = await seeded();
    const made = await createKey(emu, org, { roles: undefined, assignedRoleIds: [auditor, ADMIN] });
    expect((made.key as unknown as Record<string, unknown>).assignedRoles).toEqual([
      { roleId: auditor, roleName: "Auditor", roleType: "custom" },
      { roleId: ADMIN, roleName: "Admin", roleType: "system" },
    ]);
  });

  it("refuses another organization's custom role as unknown", async () => {
    const emu = await seeded();
    const answer = await cloud(emu, "POST", `/v1/organizations/${randomUUID()}/keys`, { assignedRoleIds: [auditor] });
    expect(answer.status).toBe(400);
    expect(String(answer.json.error)).toContain(`no role ${auditor}`);
  });

  it("freezes roles in an organization with custom roles: a create or a change of them is refused", async () => {
    const emu = await seeded();
    const create = await cloud(emu, "POST", `/v1/organizations/${org}/keys`, { roles: ["admin"] });
    expect([create.status, String(create.json.error)]).toEqual([400, expect.stringContaining("roles: frozen")]);
    const made = await createKey(emu, org, { roles: undefined, assignedRoleIds: [auditor] });
    const path = `/v1/organizations/${org}/keys/${made.key.id}`;
    const change = await cloud(emu, "PATCH", path, { roles: ["developer"] });
    expect([change.status, String(change.json.error)]).toEqual([400, expect.stringContaining("roles: frozen")]);
  });

  it("leaves roles free in an organization with none", async () => {
    const emu = await seeded();
    const made = await createKey(emu, randomUUID(), { roles: ["admin"] });
    expect(made.key.roles).toEqual(["admin"]);
  });

  it("keeps its custom roles in the data file, and a restart with the same seed adds none", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "roles-")), "state.json");
    const first = await start({ dataFile, customRoles: [{ organizationId: org, name: "Auditor" }] });
    await first.close();
    const again = await start({ dataFile, customRoles: [{ organizationId: org, name: "Auditor" }] });
    expect(Object.keys(again.snapshot().customRoles ?? {})).toEqual([auditor]);
    const restarted = await start({ dataFile });
    expect(roleNames(result(await cloud(restarted, "GET", `/v1/organizations/${org}/roles`)))).toContain("Auditor");
  });

  it("refuses a seed whose organization is not a uuid", async () => {
    await expect(start({ customRoles: [{ organizationId: "acme", name: "Auditor" }] })).rejects.toThrow(
      /organization must be a uuid/,
    );
  });
});

function roleNames(roles: unknown): unknown[] {
  return (roles as Record<string, unknown>[]).map((r) => r.name);
}

describe("pipe settings: kafka_read_committed", () => {
  it("round-trips true and false", async () => {
    const emu = await start();
    const path = settingsPath();
    for (const value of [true, false]) {
      expect(result(await cloud(emu, "PUT", path, { kafka_read_committed: value })).kafka_read_committed).toBe(value);
      expect(result(await cloud(emu, "GET", path)).kafka_read_committed).toBe(value);
    }
  });

  it.each([null, "yes", 1])(
    "refuses %j, naming it",
    deliberately(async (value) => {
      const emu = await start();
      const answer = await cloud(emu, "PUT", settingsPath(), { kafka_read_committed: value });
      expect(answer.status).toBe(400);
      expect(String(answer.json.error)).toContain("kafka_read_committed");
    }),
  );
});
