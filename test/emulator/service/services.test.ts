// The emulator's ClickHouse Cloud services (emulator/services.ts): running unless a test says
// otherwise; an idle or stopped one refuses ClickPipes writes with the Cloud's 424 until its awake
// (or start) command has run it; its CDC scaling, bounded by provider/serviceFacts/cdcScaling.ts.

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_CDC_SCALING } from "../../../emulator";
import { cloud, deliberately, result, start } from "./helpers";

const ids = () => ({ org: randomUUID(), svc: randomUUID() });
const servicePath = (org: string, svc: string) => `/v1/organizations/${org}/services/${svc}`;
const scalingPath = (org: string, svc: string) => `${servicePath(org, svc)}/clickpipesCdcScaling`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a ClickHouse Cloud service", () => {
  it("runs unless a test says otherwise, and its GET answers its state", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const { org, svc } = ids();
    const answer = await cloud(emu, "GET", servicePath(org, svc));
    expect(answer.status).toBe(200);
    expect(result(answer)).toMatchObject({ id: svc, state: "running" });
  });

  it("refuses a CDC scaling PATCH with the Cloud's 424 while idle, and still answers reads", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const { org, svc } = ids();
    emu.setServiceState(org, svc, "idle");
    const refused = await cloud(emu, "PATCH", scalingPath(org, svc), {
      replicaCpuMillicores: 4000,
      replicaMemoryGb: 16,
    });
    expect(refused.status).toBe(424);
    expect(refused.json.error).toBe(
      "FAILED_DEPENDENCY: ClickPipes CDC scaling is allowed only when the ClickHouse service is running. Current state: idle",
    );
    expect(emu.snapshot().cdcScaling).toBeUndefined();
    expect((await cloud(emu, "GET", scalingPath(org, svc))).status).toBe(200);
  });

  it(
    "refuses every ClickPipe write with the Cloud's 424 while idle, changing nothing, and still answers reads",
    deliberately(async () => {
      const emu = await start({ cloudDialect: "clickhouse" });
      const { org, svc } = ids();
      const pipes = `${servicePath(org, svc)}/clickpipes`;
      const made = await cloud(emu, "POST", pipes, {
        name: "orders",
        source: { kinesis: { format: "JSONEachRow" } },
        destination: { database: "default", table: "orders" },
      });
      const pipe = `${pipes}/${String(result(made).id)}`;
      emu.setServiceState(org, svc, "idle");
      const writes: Array<[string, string, unknown, string]> = [
        ["POST", pipes, { name: "second" }, "ClickPipe creation"],
        ["PATCH", pipe, { name: "renamed" }, "ClickPipe update"],
        ["PATCH", `${pipe}/scaling`, { replicas: 2 }, "ClickPipe scaling"],
        ["PATCH", `${pipe}/state`, { command: "stop" }, "ClickPipe state change"],
      ];
      for (const [method, path, body, what] of writes) {
        const refused = await cloud(emu, method, path, body);
        expect(refused.status, `${method} ${path}`).toBe(424);
        expect(refused.json.error).toBe(
          `FAILED_DEPENDENCY: ${what} is allowed only when the ClickHouse service is running. Current state: idle`,
        );
      }
      const list = await cloud(emu, "GET", pipes);
      expect(result<Array<Record<string, unknown>>>(list).map((p) => [p.name, p.scaling])).toEqual([
        ["orders", undefined],
      ]);
    }),
  );

  it("runs after its awake command and the delay the test set, then takes the PATCH", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const { org, svc } = ids();
    emu.setServiceState(org, svc, "idle", { wakeDelayMs: 100 });
    const woken = await cloud(emu, "PATCH", `${servicePath(org, svc)}/state`, { command: "awake" });
    expect(woken.status).toBe(200);
    expect(result(woken)).toMatchObject({ state: "awaking" });
    expect((await cloud(emu, "PATCH", scalingPath(org, svc), { replicaCpuMillicores: 4000 })).status).toBe(424);
    await sleep(150);
    expect(result(await cloud(emu, "GET", servicePath(org, svc)))).toMatchObject({ state: "running" });
    const taken = await cloud(emu, "PATCH", scalingPath(org, svc), { replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
    expect(taken.status).toBe(200);
    expect(result(taken)).toEqual({ replicaCpuMillicores: 4000, replicaMemoryGb: 16 });
  });

  it("is not woken from stopped by awake, and is started by start", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const { org, svc } = ids();
    emu.setServiceState(org, svc, "stopped", { wakeDelayMs: 50 });
    const refused = await cloud(emu, "PATCH", `${servicePath(org, svc)}/state`, { command: "awake" });
    expect(refused.status).toBe(400);
    expect(emu.serviceState(org, svc)).toBe("stopped");
    const started = await cloud(emu, "PATCH", `${servicePath(org, svc)}/state`, { command: "start" });
    expect(result(started)).toMatchObject({ state: "starting" });
    await sleep(100);
    expect(emu.serviceState(org, svc)).toBe("running");
  });
});

describe("the CDC scaling", () => {
  it("answers the document's example values for a service never scaled, and keeps what a PATCH leaves out", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const { org, svc } = ids();
    expect(result(await cloud(emu, "GET", scalingPath(org, svc)))).toEqual(DEFAULT_CDC_SCALING);
    await cloud(emu, "PATCH", scalingPath(org, svc), { replicaCpuMillicores: 8000, replicaMemoryGb: 32 });
    const kept = await cloud(emu, "PATCH", scalingPath(org, svc), { replicaCpuMillicores: 8000 });
    expect(result(kept)).toEqual({ replicaCpuMillicores: 8000, replicaMemoryGb: 32 });
  });

  it("refuses memory that is not four GiB a core, saying what it must be", async () => {
    const emu = await start({ cloudDialect: "clickhouse" });
    const { org, svc } = ids();
    const refused = await cloud(emu, "PATCH", scalingPath(org, svc), {
      replicaCpuMillicores: 2000,
      replicaMemoryGb: 16,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toContain("replicaMemoryGb must be 4 times the CPU cores: 8");
  });

  it(
    "refuses a value out of its steps",
    deliberately(async () => {
      const emu = await start({ cloudDialect: "clickhouse" });
      const { org, svc } = ids();
      const refused = await cloud(emu, "PATCH", scalingPath(org, svc), {
        replicaCpuMillicores: 1500,
        replicaMemoryGb: 6,
      });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toBe("replicaCpuMillicores must be 1000 to 32000 in steps of 1000");
    }),
  );

  it("is not served in the contract's dialect", async () => {
    const emu = await start();
    const { org, svc } = ids();
    expect((await cloud(emu, "GET", scalingPath(org, svc))).status).toBe(404);
  });
});
