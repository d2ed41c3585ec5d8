// check reports the connection settings a resource's requests will need, all at once, so that
// `pulumi preview` fails on them instead of `up` meeting them one at a time.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { CONNECTION_SETTINGS, configure } from "../../provider/runtime/connection";
import { noConnectionPerTest } from "../support/mockApi";
import { ORG_ID, PIPE_IDS, searchAlert } from "../support/fixtures";

const ALERT = searchAlert;
const PIPE = { ...PIPE_IDS, dbMaxThreads: 8 };
const KEY = { organizationId: ORG_ID, roles: ["developer"] };

noConnectionPerTest();

const reasons = (r: { failures?: Array<{ reason: string }> }) => (r.failures ?? []).map((f) => f.reason);

describe("check with the connection unconfigured", () => {
  it("fails a PipeSettings naming every missing area B setting at once, by config key and environment variable", async () => {
    const got = reasons(await pipeSettings.check({}, PIPE));
    expect(got).toHaveLength(3);
    for (const s of [
      CONNECTION_SETTINGS.cloudUrl,
      CONNECTION_SETTINGS.cloudKeyId,
      CONNECTION_SETTINGS.cloudKeySecret,
    ]) {
      expect(got.some((r) => r.includes(s.configKey) && r.includes(s.envVar))).toBe(true);
    }
  });

  it("fails an ApiKey for the same three area B settings", async () => {
    expect(reasons(await apiKey.check({}, KEY))).toHaveLength(3);
  });

  it("fails an Alert only for area A's two settings", async () => {
    const got = reasons(await alert.check({}, ALERT));
    expect(got).toHaveLength(2);
    expect(got.join("\n")).toContain("alertpipe:alertingUrl");
    expect(got.join("\n")).toContain("ALERTPIPE_ALERTING_TOKEN");
    expect(got.join("\n")).not.toContain("cloud");
  });

  it("does not hold a resource back for the other API's settings", async () => {
    process.env.ALERTPIPE_ALERTING_URL = "https://alerts.example.test";
    process.env.ALERTPIPE_ALERTING_TOKEN = "tok";
    expect((await alert.check({}, ALERT)).failures).toEqual([]);
    expect(reasons(await pipeSettings.check({}, PIPE))).toHaveLength(3);
  });

  it("names invalid settings too, with the input failures, from the stack config given to configure", async () => {
    process.env.ALERTPIPE_CLOUD_KEY_ID = "id";
    process.env.ALERTPIPE_CLOUD_KEY_SECRET = "secret";
    const config: Record<string, string> = {
      "alertpipe:cloudUrl": "http://cloud.example.test",
      "alertpipe:cloudRateLimit": "fast",
    };
    configure({ get: (k) => config[k] });
    const got = await pipeSettings.check({}, { ...PIPE, dbMaxThreads: 65 });
    expect(got.failures?.map((f) => f.property)).toEqual(["dbMaxThreads", "", ""]);
    expect(reasons(got)[1]).toContain("alertpipe:cloudUrl must use https");
    expect(reasons(got)[2]).toContain('alertpipe:cloudRateLimit must look like "10/10"');
  });

  it("passes once everything is set, without sending anything", async () => {
    Object.assign(process.env, {
      ALERTPIPE_CLOUD_URL: "https://cloud.example.test",
      ALERTPIPE_CLOUD_KEY_ID: "id",
      ALERTPIPE_CLOUD_KEY_SECRET: "secret",
    });
    expect((await pipeSettings.check({}, PIPE)).failures).toEqual([]);
  });
});
