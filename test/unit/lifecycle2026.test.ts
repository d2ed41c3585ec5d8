// What the behaviours do with the 2026 properties (issue 27) where the service treats them
// specially: a schedule the program drops is cleared outright, channels compare as one list, a
// key's role ids are read from assignedRoles, and kafkaReadCommitted is reset as false.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { behaviour as alertBehaviour } from "../../provider/alert/behaviour";
import { answerOnce, cloudAnswer, mockApiPerTest, readByGetPerTest } from "../support/mockApi";
import {
  ALERT_ID,
  ALERT_PATH,
  KEY_PATH,
  KEY_UUID,
  PIPE_IDS,
  PIPE_RESOURCE_ID,
  SETTINGS_PATH,
  ORG_ID,
} from "../support/fixtures";

const mock = mockApiPerTest();
readByGetPerTest();
/** The properties a diff names. */
const changed = async (olds: Record<string, unknown>, news: Record<string, unknown>) =>
  Object.keys((await alertBehaviour.diff(ALERT_ID, olds, news as never)).detailedDiff);
const hook = (webhookId: string) => ({ type: "webhook", webhookId });
const search = { threshold: 5, interval: "5m", source: "search", thresholdType: "above", channel: hook("h1") };
const ROLE = "9a3e1c52-6f0e-4b7a-8d1e-3c4b5a6f7e80";

/** An alert as a 2026 service answers it: `channels` beside `channel`. */
const answered = (fields: Record<string, unknown>) => ({
  data: { id: ALERT_ID, teamId: "team-1", state: "OK", createdAt: "2026-01-01T00:00:00.000Z", ...fields },
});

describe("Alert update", () => {
  it("clears a schedule the program no longer sets: scheduleStartAt null, scheduleOffsetMinutes 0", async () => {
    answerOnce(mock.api.alerting, mock.seen, { method: "PUT", path: ALERT_PATH }, 200, answered({ ...search }));
    const olds = { ...search, scheduleStartAt: "2026-02-08T10:00:00.000Z", scheduleOffsetMinutes: 0 };
    await alert.update(ALERT_ID, olds, search);
    expect(mock.seen[0]?.body).toEqual({ ...search, scheduleStartAt: null, scheduleOffsetMinutes: 0 });
  });

  it("sends no clear for a schedule it never managed", async () => {
    answerOnce(mock.api.alerting, mock.seen, { method: "PUT", path: ALERT_PATH }, 200, answered({ ...search }));
    await alert.update(ALERT_ID, { ...search, threshold: 4 }, search);
    expect(mock.seen[0]?.body).toEqual(search);
  });

  it("leaves a thresholdMax from a range type out: it has no clear, and is not recorded", async () => {
    const live = { ...search, channels: [hook("h1")], thresholdMax: 9 };
    answerOnce(mock.api.alerting, mock.seen, { method: "PUT", path: ALERT_PATH }, 200, answered(live));
    const olds = { ...search, thresholdType: "between", thresholdMax: 9 };
    const { outs } = await alert.update(ALERT_ID, olds, search);
    expect(mock.seen[0]?.body).toEqual(search);
    expect(outs).not.toHaveProperty("thresholdMax");
    expect((await alert.diff(ALERT_ID, outs, search)).changes).toBe(false);
  });
});

describe("Alert channels", () => {
  it("records channel and channels as answered; a program of channel alone has nothing to do", async () => {
    answerOnce(
      mock.api.alerting,
      mock.seen,
      { method: "POST", path: "/api/v2/alerts" },
      200,
      answered({ ...search, channels: [hook("h1")] }),
    );
    const { outs } = await alert.create(search);
    expect(outs.channels).toEqual([hook("h1")]);
    expect((await alert.diff(ALERT_ID, outs, search)).changes).toBe(false);
  });

  it("finds a channel added by hand to a program of one channel, at channel", async () => {
    const olds = { ...search, channels: [hook("h1"), hook("h2")] };
    expect(await changed(olds, search)).toEqual(["channel"]);
  });

  it("finds a changed second channel of a program of channels, at channels", async () => {
    const { channel: _c, ...rest } = search;
    const program = { ...rest, channels: [hook("h1"), hook("h2")] };
    const olds = { ...search, channels: [hook("h1"), hook("h3")] };
    expect(await changed(olds, program)).toEqual(["channels"]);
  });

  it("reads channels into the inputs only where they say more than channel", async () => {
    mock.api.alerting
      .intercept({ method: "GET", path: ALERT_PATH })
      .reply(200, answered({ ...search, channels: [hook("h1")] }));
    const one = await alert.read(ALERT_ID, { ...search });
    expect(one.inputs).not.toHaveProperty("channels");
    mock.api.alerting
      .intercept({ method: "GET", path: ALERT_PATH })
      .reply(200, answered({ ...search, channels: [hook("h1"), hook("h2")] }));
    const two = await alert.read(ALERT_ID, { ...search });
    expect(two.inputs?.channels).toEqual([hook("h1"), hook("h2")]);
  });
});

describe("ApiKey assignedRoleIds", () => {
  it("reads the ids from the answer's assignedRoles, beside the roles as answered", async () => {
    const key = {
      id: KEY_UUID,
      name: "k",
      roles: [],
      assignedRoles: [{ roleId: ROLE, roleName: "Custom reader", roleType: "custom" }],
      createdAt: "2026-01-01T00:00:00Z",
    };
    mock.api.cloud.intercept({ method: "GET", path: KEY_PATH }).reply(200, cloudAnswer(key));
    const stored = {
      organizationId: ORG_ID,
      name: "k",
      assignedRoleIds: [ROLE],
      managedArgs: ["name", "assignedRoleIds"],
    };
    const found = await apiKey.read(KEY_UUID, stored);
    expect(found.props?.assignedRoleIds).toEqual([ROLE]);
    expect(found.props?.assignedRoles).toEqual(key.assignedRoles);
    expect(found.inputs?.assignedRoleIds).toEqual([ROLE]);
  });
});

describe("PipeSettings kafkaReadCommitted", () => {
  it("is reset as false, since it takes no null", async () => {
    const stored = {
      ...PIPE_IDS,
      kafkaReadCommitted: true,
      dbMaxThreads: 8,
      resetOnDelete: true,
      managedSettings: ["dbMaxThreads", "kafkaReadCommitted"],
    };
    mock.api.cloud
      .intercept({ method: "GET", path: SETTINGS_PATH })
      .reply(200, cloudAnswer({ kafka_read_committed: true, db_max_threads: 8 }));
    answerOnce(mock.api.cloud, mock.seen, { method: "PUT", path: SETTINGS_PATH }, 200, cloudAnswer({}));
    await pipeSettings.delete(PIPE_RESOURCE_ID, stored);
    expect(mock.seen[0]?.body).toEqual({ db_max_threads: null, kafka_read_committed: false });
  });
});
