// ClickPipeCdcInfrastructure's check: the CDC capacity's bounds (serviceFacts/cdcScaling.ts, as the
// Cloud's ClickPipesCdcScalingPatchRequest states them), four GiB a core, and ClickHouse Cloud only.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as provider from "../../provider/clickPipeCdcInfrastructure/provider";
import { CDC_CPU_MILLICORES, CDC_MEMORY_GB } from "../../provider/serviceFacts/cdcScaling";
import { UNKNOWN } from "../../provider/protocol/properties";
import { checkFailures } from "../support/failures";
import { connectionEnvPerFile } from "../support/mockApi";
import { PIPE_IDS } from "../support/fixtures";

connectionEnvPerFile();

const ids = { organizationId: PIPE_IDS.organizationId, serviceId: PIPE_IDS.serviceId };
const failuresFor = checkFailures(provider.check, { ...ids, replicaCpuMillicores: 2000, replicaMemoryGb: 8 });

let dialect: string | undefined;
beforeEach(() => {
  dialect = process.env.ALERTPIPE_CLOUD_DIALECT;
  process.env.ALERTPIPE_CLOUD_DIALECT = "clickhouse";
});
afterEach(() => {
  if (dialect === undefined) delete process.env.ALERTPIPE_CLOUD_DIALECT;
  else process.env.ALERTPIPE_CLOUD_DIALECT = dialect;
});

describe("ClickPipeCdcInfrastructure check", () => {
  it("accepts each end of the range, four GiB a core", async () => {
    expect(await failuresFor({ replicaCpuMillicores: 1000, replicaMemoryGb: 4 })).toEqual([]);
    expect(await failuresFor({ replicaCpuMillicores: 32000, replicaMemoryGb: 128 })).toEqual([]);
  });

  it.each([
    ["replicaCpuMillicores", 999, 4],
    ["replicaCpuMillicores", 33000, 132],
    ["replicaCpuMillicores", 1500, 6],
    ["replicaCpuMillicores", 2000.5, 8],
    ["replicaMemoryGb", 1000, 0],
    ["replicaMemoryGb", 32000, 132],
    ["replicaMemoryGb", 2000, 10],
  ] as const)("refuses %s out of its steps (%s millicores, %s GiB), naming it and the range", async (name, cpu, gb) => {
    const failures = await failuresFor({ replicaCpuMillicores: cpu, replicaMemoryGb: gb });
    const steps = name === "replicaCpuMillicores" ? CDC_CPU_MILLICORES : CDC_MEMORY_GB;
    expect(failures[0]).toEqual({
      property: name,
      reason: `${name} must be ${steps.min} to ${steps.max} in steps of ${steps.step}`,
    });
  });

  it("refuses memory that is not four times the cores, naming replicaMemoryGb and what it must be", async () => {
    expect(await failuresFor({ replicaCpuMillicores: 2000, replicaMemoryGb: 16 })).toEqual([
      {
        property: "replicaMemoryGb",
        reason: "replicaMemoryGb must be 4 times the CPU cores: 8 for replicaCpuMillicores 2000 (2 cores), not 16",
      },
    ]);
  });

  it("needs both values", async () => {
    const failures = await checkFailures(provider.check, ids)({ replicaCpuMillicores: 2000 });
    expect(failures.map((f) => f.property)).toEqual(["replicaMemoryGb"]);
  });

  it("leaves the pair alone while one value is unknown in preview", async () => {
    expect(await failuresFor({ replicaCpuMillicores: UNKNOWN, replicaMemoryGb: 16 })).toEqual([]);
  });

  it("refuses a service id that is not a uuid", async () => {
    expect((await failuresFor({ serviceId: "../keys" }))[0]?.property).toBe("serviceId");
  });

  it("refuses the contract's dialect, naming alertpipe:cloudDialect, before any request", async () => {
    process.env.ALERTPIPE_CLOUD_DIALECT = "contract";
    const failures = await failuresFor({});
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe("");
    expect(failures[0]?.reason).toContain(
      "ClickPipeCdcInfrastructure exists only on ClickHouse Cloud's API, and alertpipe:cloudDialect says the cloud API speaks the contract (set so)",
    );
    expect(failures[0]?.reason).toContain('set alertpipe:cloudDialect to "clickhouse"');
  });

  it("refuses an alertpipe:wakeIdleServices that is neither true nor false, naming it", async () => {
    process.env.ALERTPIPE_WAKE_IDLE_SERVICES = "yes";
    try {
      const failures = await failuresFor({});
      expect(failures.map((f) => f.reason)).toEqual([
        expect.stringContaining('alertpipe:wakeIdleServices must be "true" or "false"'),
      ]);
    } finally {
      delete process.env.ALERTPIPE_WAKE_IDLE_SERVICES;
    }
  });

  it("refuses a cloudUrl of another host with the dialect unset, saying why", async () => {
    delete process.env.ALERTPIPE_CLOUD_DIALECT;
    const failures = await failuresFor({});
    expect(failures[0]?.reason).toContain("unset, and cloudUrl's host is not ClickHouse Cloud's");
  });
});
