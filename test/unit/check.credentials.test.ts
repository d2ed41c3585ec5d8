// The first check of a run reads once per credential, so a wrong key fails preview, before any
// write, naming its configuration keys; the answer serves every later check of the process.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as clickPipe from "../../provider/clickPipe/provider";
import * as cdcInfrastructure from "../../provider/clickPipeCdcInfrastructure/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { CONNECTION_SETTINGS } from "../../provider/runtime/connection";
import { answerOnce, cloudAnswer, mockApiPerTest } from "../support/mockApi";
import { PROGRAMS } from "../support/clickPipes";
import { ORG_ID, PIPE_IDS, searchAlert } from "../support/fixtures";

const mock = mockApiPerTest();
const PIPE = { ...PIPE_IDS, dbMaxThreads: 8 };
const KEY = { organizationId: ORG_ID, roles: ["developer"] };
const ALERTING_READ = { method: "GET", path: "/api/v2/alerts?limit=1" };
const CLOUD_READ = { method: "GET", path: "/v1/organizations" };

const reasons = (r: { failures?: Array<{ reason: string }> }) => (r.failures ?? []).map((f) => f.reason);

describe("the credential check of a run", () => {
  it("reads once per credential, however many resources check, concurrently or later", async () => {
    answerOnce(mock.api.alerting, mock.seen, ALERTING_READ, 200, { data: [] });
    answerOnce(mock.api.cloud, mock.seen, CLOUD_READ, 200, cloudAnswer([{ id: ORG_ID }]));
    const first = await Promise.all([
      alert.check({}, searchAlert),
      alert.check({}, { ...searchAlert, name: "second" }),
      pipeSettings.check({}, PIPE),
      apiKey.check({}, KEY),
    ]);
    const later = await Promise.all([alert.check({}, searchAlert), pipeSettings.check({}, PIPE)]);
    for (const r of [...first, ...later]) expect(reasons(r)).toEqual([]);
    expect(mock.seen.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "GET /api/v2/alerts?limit=1",
      "GET /v1/organizations",
    ]);
  });

  it("fails every resource of a refused cloud key, coded, naming alertpipe:cloudKeyId and cloudKeySecret", async () => {
    answerOnce(mock.api.cloud, mock.seen, CLOUD_READ, 401, { status: 401, error: "missing or invalid credentials" });
    const got = [...reasons(await pipeSettings.check({}, PIPE)), ...reasons(await apiKey.check({}, KEY))];
    expect(got).toHaveLength(2);
    for (const reason of got) {
      expect(reason).toMatch(/^\[CREDENTIAL_REFUSED\] /);
      expect(reason).toContain(CONNECTION_SETTINGS.cloudKeyId.configKey);
      expect(reason).toContain(CONNECTION_SETTINGS.cloudKeySecret.configKey);
    }
    expect(mock.seen).toHaveLength(1);
  });

  it("fails a ClickPipe and a ClickPipeCdcInfrastructure of a refused cloud key too, with one read", async () => {
    const dialect = process.env.ALERTPIPE_CLOUD_DIALECT;
    process.env.ALERTPIPE_CLOUD_DIALECT = "clickhouse";
    try {
      answerOnce(mock.api.cloud, mock.seen, CLOUD_READ, 401, { status: 401, error: "missing or invalid credentials" });
      const ids = { organizationId: PIPE_IDS.organizationId, serviceId: PIPE_IDS.serviceId };
      const cdc = { ...ids, replicaCpuMillicores: 2000, replicaMemoryGb: 8 };
      const got = [
        ...reasons(await clickPipe.check({}, PROGRAMS.kafka)),
        ...reasons(await cdcInfrastructure.check({}, cdc)),
      ];
      expect(got).toHaveLength(2);
      for (const reason of got) expect(reason).toMatch(/^\[CREDENTIAL_REFUSED\] /);
      expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/organizations"]);
    } finally {
      if (dialect === undefined) delete process.env.ALERTPIPE_CLOUD_DIALECT;
      else process.env.ALERTPIPE_CLOUD_DIALECT = dialect;
    }
  });

  it("fails on a 403 of the alerting token, naming alertpipe:alertingToken", async () => {
    answerOnce(mock.api.alerting, mock.seen, ALERTING_READ, 403, { message: "Forbidden" });
    const [reason] = reasons(await alert.check({}, searchAlert));
    expect(reason).toMatch(/^\[CREDENTIAL_REFUSED\] /);
    expect(reason).toContain(CONNECTION_SETTINGS.alertingToken.configKey);
  });

  it("sends nothing when the input already fails", async () => {
    const got = reasons(await pipeSettings.check({}, { ...PIPE, dbMaxThreads: 100_000 }));
    expect(got.join("\n")).toContain("[INVALID_INPUT]");
    expect(mock.seen).toEqual([]);
  });

  it("leaves an answer other than 401 or 403 to the request that needs it", async () => {
    answerOnce(mock.api.cloud, mock.seen, CLOUD_READ, 404, { status: 404, error: "no such route" });
    expect(reasons(await pipeSettings.check({}, PIPE))).toEqual([]);
  });
});
