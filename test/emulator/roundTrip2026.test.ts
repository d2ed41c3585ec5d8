// The 2026 properties (issue 27) through the dynamic door against the emulator: each round-trips
// (a read after the create finds nothing to do) and a change made by hand on the service is found
// by the read and put back by one update.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SYSTEM_ROLES, customRoleId } from "../../emulator/roles";
import { emulatorPerTest, envFor, setEnv } from "../support/emulatorPerTest";
import { ORG_ID, PIPE_IDS } from "../support/fixtures";
import { errorText } from "../support/mockApi";
import { afterEach, beforeEach } from "vitest";
import { useRuntime } from "../../provider/runtime/runtime";

const emu = emulatorPerTest({ service: "alerting", helper: "roundTrip2026" });
let restoreCloud = (): void => {};
beforeEach(() => {
  restoreCloud = setEnv(envFor("cloud", emu.emulator));
  // Each read its own GET: a listing serves one run, and the change by hand comes between runs.
  useRuntime({ readByList: false });
});
afterEach(() => restoreCloud());

const host = { __provider: "serialized" };
const hook = (webhookId: string) => ({ type: "webhook", webhookId });
const [ADMIN = "", DEVELOPER = ""] = Object.keys(SYSTEM_ROLES);

type Provider = typeof alert;

/** Create, read, diff: nothing to do. Then `byHand` on the service: the read finds it, one update puts it back. */
async function roundTrip(p: Provider, args: Record<string, unknown>, byHand: (id: string) => Promise<void>) {
  const made = await p.create({ ...args, ...host });
  const read = await p.read(made.id, { ...made.outs, ...host });
  expect((await p.diff(made.id, { ...read.props, ...host }, { ...args, ...host })).changes).toBe(false);
  await byHand(made.id);
  const drifted = await p.read(made.id, { ...read.props, ...host });
  expect((await p.diff(made.id, { ...drifted.props, ...host }, { ...args, ...host })).changes).toBe(true);
  const after = await p.update(made.id, { ...drifted.props, ...host }, { ...args, ...host });
  const again = await p.read(made.id, { ...after.outs, ...host });
  expect((await p.diff(made.id, { ...again.props, ...host }, { ...args, ...host })).changes).toBe(false);
}

async function put(path: string, body: unknown, auth: string): Promise<void> {
  const res = await fetch(`${emu.emulator.url}${path}`, {
    method: path.includes("/keys/") ? "PATCH" : "PUT",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}
const bearer = () => `Bearer ${emu.emulator.token}`;
const basic = () => `Basic ${Buffer.from(`${emu.emulator.keyId}:${emu.emulator.keySecret}`).toString("base64")}`;

const between = {
  threshold: 10,
  thresholdMax: 20,
  interval: "5m",
  source: "search",
  thresholdType: "between",
  channels: [hook("h1"), hook("h2")],
};

describe("the 2026 properties round-trip and their drift is put back", () => {
  it("an alert with between and two channels (a channel replaced by hand)", async () => {
    await roundTrip(alert, between, (id) =>
      put(`/api/v2/alerts/${id}`, { ...between, channels: [hook("h1"), hook("h9")] }, bearer()),
    );
  });

  it("a scheduled alert (its start moved by hand)", async () => {
    const start = new Date(Date.now() - 86_400_000).toISOString();
    const args = {
      ...between,
      thresholdType: "above",
      thresholdMax: undefined,
      scheduleStartAt: start,
      note: "n",
      numConsecutiveWindows: 2,
    };
    const { thresholdMax: _m, ...scheduled } = args;
    const moved = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await roundTrip(alert, scheduled, (id) =>
      put(`/api/v2/alerts/${id}`, { ...scheduled, scheduleStartAt: moved }, bearer()),
    );
  });

  it("a key with assignedRoleIds (a role changed by hand)", async () => {
    const args = { organizationId: ORG_ID, name: "k", assignedRoleIds: [ADMIN] };
    await roundTrip(apiKey, args, (id) =>
      put(`/v1/organizations/${ORG_ID}/keys/${id}`, { assignedRoleIds: [DEVELOPER] }, basic()),
    );
  });

  it("pipe settings with kafkaReadCommitted (flipped by hand)", async () => {
    const args = { ...PIPE_IDS, kafkaReadCommitted: true };
    const path = `/v1/organizations/${PIPE_IDS.organizationId}/services/${PIPE_IDS.serviceId}/pipes/${PIPE_IDS.pipeId}/settings`;
    await roundTrip(pipeSettings, args, () => put(path, { kafka_read_committed: false }, basic()));
  });
});

describe("an organization with a custom role", () => {
  const AUDITOR = customRoleId(ORG_ID, "Auditor");
  let seeded: RunningEmulator | undefined;
  let restore = (): void => {};
  beforeEach(async () => {
    seeded = await startEmulator({
      rateLimits: { cloud: false, alerting: false },
      customRoles: [{ organizationId: ORG_ID, name: "Auditor" }],
    });
    restore = setEnv(envFor("cloud", seeded));
  });
  afterEach(async () => {
    restore();
    await seeded?.close();
  });

  it("gives a key its custom role, read back as the service names it, with nothing to do", async () => {
    const args = { organizationId: ORG_ID, name: "k", assignedRoleIds: [AUDITOR] };
    const made = await apiKey.create({ ...args, ...host });
    expect(made.outs.assignedRoles).toEqual([{ roleId: AUDITOR, roleName: "Auditor", roleType: "custom" }]);
    const read = await apiKey.read(made.id, { ...made.outs, ...host });
    expect((await apiKey.diff(made.id, { ...read.props, ...host }, { ...args, ...host })).changes).toBe(false);
  });

  it("fails a key given the frozen roles with the service's words, naming roles", async () => {
    const failure = await apiKey.create({ organizationId: ORG_ID, name: "k", roles: ["admin"], ...host }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(errorText(failure)).toContain("roles: frozen");
  });
});
