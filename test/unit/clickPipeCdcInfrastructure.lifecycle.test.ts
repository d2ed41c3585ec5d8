// What ClickPipeCdcInfrastructure does with the Cloud's answers: the program's values recorded, the
// wait after a PATCH whose answer does not hold them yet (the scaling "may take a few minutes to
// fully propagate"), and a 424 without the opt-in left as it came.

import { beforeEach, describe, expect, it } from "vitest";
import * as cdc from "../../provider/clickPipeCdcInfrastructure/provider";
import { useRuntime } from "../../provider/runtime/runtime";
import { ApiError } from "../../provider/errors";
import { answerOnce, cloudAnswer, mockApiPerTest } from "../support/mockApi";
import { failure } from "../support/failures";
import { PIPE_IDS } from "../support/fixtures";

const mock = mockApiPerTest();
const notices: string[] = [];
beforeEach(() => {
  notices.length = 0;
  useRuntime({ timings: { servicePollMs: 1, serviceWaitMs: 1_000 }, notices: (l) => notices.push(l) });
});

const ids = { organizationId: PIPE_IDS.organizationId, serviceId: PIPE_IDS.serviceId };
const SCALING = `/v1/organizations/${ids.organizationId}/services/${ids.serviceId}/clickpipesCdcScaling`;
const args = { ...ids, replicaCpuMillicores: 4000, replicaMemoryGb: 16 };
const OLD = { replicaCpuMillicores: 2000, replicaMemoryGb: 8 };
const NEW = { replicaCpuMillicores: 4000, replicaMemoryGb: 16 };

describe("a PATCH of the CDC scaling", () => {
  it("sends both values and waits for nothing when the answer holds them", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "PATCH", path: SCALING }, 200, cloudAnswer(NEW));
    const made = await cdc.create(args);
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH ${SCALING}`]);
    expect(mock.seen[0]?.body).toEqual(NEW);
    expect(made.outs).toEqual(args);
  });

  it("reads until the scaling holds the values sent, when the answer still holds the old ones", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "PATCH", path: SCALING }, 200, cloudAnswer(OLD));
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: SCALING }, 200, cloudAnswer(OLD));
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: SCALING }, 200, cloudAnswer(NEW));
    const made = await cdc.create(args);
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH ${SCALING}`,
      `GET ${SCALING}`,
      `GET ${SCALING}`,
    ]);
    expect(made.outs).toEqual(args);
    expect(notices.join("\n")).toContain("waiting for the CDC scaling");
  });

  it("records the program's values past the bound, saying the service still reports the old ones", async () => {
    useRuntime({ timings: { servicePollMs: 50, serviceWaitMs: 120 } });
    answerOnce(mock.api.cloud, mock.seen, { method: "PATCH", path: SCALING }, 200, cloudAnswer(OLD));
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: SCALING }, 200, cloudAnswer(OLD));
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: SCALING }, 200, cloudAnswer(OLD));
    const made = await cdc.create(args);
    expect(made.outs).toEqual(args);
    expect(notices.join("\n")).toContain("still reports its old values");
  });

  it("fails on a 424 without alertpipe:wakeIdleServices, sending nothing more", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "PATCH", path: SCALING }, 424, {
      status: 424,
      error:
        "FAILED_DEPENDENCY: ClickPipes CDC scaling is allowed only when the ClickHouse service is running. Current state: idle",
      requestId: "rid-424",
    });
    const err = await failure(cdc.create(args));
    expect((err as ApiError).code).toBe("SERVICE_IDLE");
    expect(mock.seen).toHaveLength(1);
  });
});
