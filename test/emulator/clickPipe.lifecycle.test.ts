// ClickPipe through the dynamic door against the emulator's Cloud mode, its states moving every
// ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS: one POST and nothing else when nothing else is needed, the
// state command and its wait, scaling and its wait, drift on `stopped`, replacements, mapping deltas
// paused around, a lost create found, and a delete that waits until the pipe is gone.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as provider from "../../provider/clickPipe/provider";
import { PartialFailure } from "../../provider/errors";
import { emulatorPerTest } from "../support/emulatorPerTest";
import { failure } from "../support/failures";
import { PIPE_SERVICE, PROGRAMS, withValue } from "../support/clickPipes";

const emu = emulatorPerTest({ service: "cloud", helper: "clickPipe", cloudDialect: "clickhouse" });
const host = { __provider: "serialized" };
const STEP_MS = "40";
let savedStep: string | undefined;
beforeAll(() => {
  savedStep = process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
  process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = STEP_MS;
});
afterAll(() => {
  if (savedStep === undefined) delete process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
  else process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = savedStep;
});

const PIPES = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipes`;
const basic = () => `Basic ${Buffer.from(`${emu.emulator.keyId}:${emu.emulator.keySecret}`).toString("base64")}`;

async function byHand(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.emulator.url}${path}`, {
    method,
    headers: { authorization: basic(), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Record<string, unknown>;
}

const live = async (id: string) => (await byHand("GET", `${PIPES}/${id}`)).result as Record<string, unknown>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function created(program: object) {
  const made = await provider.create({ ...program, ...host });
  return { id: made.id, outs: made.outs as Record<string, unknown> };
}

describe("ClickPipe against the emulator's Cloud mode", () => {
  it("creates a Kafka pipe with one POST carrying its scaling and settings, and reads it back with no diff", async () => {
    const { id, outs } = await created(PROGRAMS.kafka);
    expect(emu.requests()).toEqual([`POST ${PIPES}`]);
    const pipe = await live(id);
    expect(pipe.scaling).toEqual(PROGRAMS.kafka.scaling);
    expect(pipe.settings).toEqual({ streaming_max_insert_wait_ms: 1000, kafka_read_committed: true });
    expect(JSON.stringify(pipe)).not.toContain("kafka-password-1");
    expect(outs).toMatchObject({ clickPipeId: id, state: "Provisioning", stopped: false });
    expect(outs.credentials).toEqual(PROGRAMS.kafka.credentials);
    await sleep(Number(STEP_MS) * 2);
    const read = await provider.read(id, { ...outs, ...host });
    expect(read.props).toMatchObject({ state: "Running", stopped: false });
    const again = await provider.diff(id, { ...read.props, ...host }, { ...PROGRAMS.kafka, ...host });
    expect(again.changes).toBe(false);
  });

  it("sends no scaling when the program sets none", async () => {
    const { id } = await created(withValue(PROGRAMS.kafka, "scaling", undefined));
    expect((await live(id)).scaling).toBeUndefined();
  });

  it("stops a pipe created with stopped: true, and waits until it is Stopped", async () => {
    const { id, outs } = await created({ ...PROGRAMS.kinesis, stopped: true });
    expect(outs).toMatchObject({ stopped: true, state: "Stopped" });
    expect(emu.requests().slice(0, 2)).toEqual([`POST ${PIPES}`, `PATCH ${PIPES}/${id}/state`]);
    expect((await live(id)).state).toBe("Stopped");
  });

  it("keeps a pipe whose stop after create failed, recording it as not stopped", async () => {
    emu.emulator.setFaults({ failBeforeCommit: { method: "PATCH", pathPattern: /\/state$/, count: 10 } });
    const err = await failure(provider.create({ ...PROGRAMS.kinesis, stopped: true, ...host }));
    expect(err).toBeInstanceOf(PartialFailure);
    const partial = err as PartialFailure;
    expect(partial.properties).toMatchObject({ stopped: false });
    emu.emulator.setFaults({});
    expect((await live(partial.id)).id).toBe(partial.id);
    // The next run's diff sees the switch to flip.
    const d = await provider.diff(
      partial.id,
      { ...partial.properties, ...host },
      {
        ...PROGRAMS.kinesis,
        stopped: true,
        ...host,
      },
    );
    expect(d.detailedDiff).toHaveProperty("stopped");
  });

  it("changes replicas in place with the scaling PATCH, waiting until the pipe is no longer Modifying", async () => {
    const { id, outs } = await created(PROGRAMS.kafka);
    const scaled = withValue(PROGRAMS.kafka, "scaling.replicas", 4);
    const d = await provider.diff(id, { ...outs, ...host }, { ...scaled, ...host });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    emu.emulator.resetRequestLog();
    const after = (await provider.update(id, { ...outs, ...host }, { ...scaled, ...host })).outs as Record<
      string,
      unknown
    >;
    expect(emu.requests()[0]).toBe(`PATCH ${PIPES}/${id}/scaling`);
    expect(after.state).not.toBe("Modifying");
    expect((await live(id)).scaling).toMatchObject({ replicas: 4 });
  });

  it("stops then starts a pipe as stopped says", async () => {
    const { id, outs } = await created(PROGRAMS.kafka);
    const stopped = (await provider.update(id, { ...outs, ...host }, { ...PROGRAMS.kafka, stopped: true, ...host }))
      .outs as Record<string, unknown>;
    expect(stopped).toMatchObject({ stopped: true, state: "Stopped" });
    const started = (await provider.update(id, { ...stopped, ...host }, { ...PROGRAMS.kafka, stopped: false, ...host }))
      .outs as Record<string, unknown>;
    expect(started.stopped).toBe(false);
    expect(["Running", "Provisioning"]).toContain((await live(id)).state);
    expect(emu.notices.join("\n")).toContain("waiting for");
  });

  it("shows a pipe stopped by hand as drift on stopped, and never on state alone", async () => {
    const { id, outs } = await created(PROGRAMS.kafka);
    await sleep(Number(STEP_MS) * 2);
    await byHand("PATCH", `${PIPES}/${id}/state`, { command: "stop" });
    await sleep(Number(STEP_MS) * 2);
    const read = await provider.read(id, { ...outs, ...host });
    expect(read.props).toMatchObject({ state: "Stopped", stopped: true });
    const d = await provider.diff(id, { ...read.props, ...host }, { ...PROGRAMS.kafka, ...host });
    expect(Object.keys(d.detailedDiff)).toEqual(["stopped"]);
    const stateOnly = await provider.diff(id, { ...outs, state: "Degraded", ...host }, { ...PROGRAMS.kafka, ...host });
    expect(stateOnly.changes).toBe(false);
  });

  it("replaces the pipe when an immutable field changes, deleting first on the same table", async () => {
    const { id, outs } = await created(PROGRAMS.kafka);
    const d = await provider.diff(
      id,
      { ...outs, ...host },
      {
        ...withValue(PROGRAMS.kafka, "source.kafka.brokers", "broker-2:9092"),
        ...host,
      },
    );
    expect(d).toMatchObject({ replaces: ["source"], deleteBeforeReplace: true });
    const moved = await provider.diff(
      id,
      { ...outs, ...host },
      {
        ...withValue(withValue(PROGRAMS.kafka, "destination.table", "events_v2"), "name", "orders-v2"),
        ...host,
      },
    );
    expect(moved).toMatchObject({ replaces: ["destination"], deleteBeforeReplace: false });
    const inPlace = await provider.diff(
      id,
      { ...outs, ...host },
      {
        ...withValue(PROGRAMS.kafka, "source.kafka.caCertificate", "PEM"),
        ...host,
      },
    );
    expect(inPlace).toMatchObject({ changes: true, replaces: [] });
  });

  it("changes a Postgres pipe's table mappings by deltas, paused around the edit", async () => {
    const { id, outs } = await created(PROGRAMS.postgres);
    await sleep(Number(STEP_MS) * 3);
    const mappings = [
      ...PROGRAMS.postgres.source.postgres.tableMappings,
      { sourceSchemaName: "public", sourceTable: "orders", targetTable: "public_orders" },
    ];
    const news = withValue(PROGRAMS.postgres, "source.postgres.tableMappings", mappings);
    expect((await provider.diff(id, { ...outs, ...host }, { ...news, ...host })).replaces).toEqual([]);
    emu.emulator.resetRequestLog();
    await provider.update(id, { ...outs, ...host }, { ...news, ...host });
    const writes = emu.requests().filter((r) => !r.startsWith("GET"));
    expect(writes).toEqual([`PATCH ${PIPES}/${id}/state`, `PATCH ${PIPES}/${id}`, `PATCH ${PIPES}/${id}/state`]);
    expect(((await live(id)).source as { postgres: { tableMappings: unknown[] } }).postgres.tableMappings).toHaveLength(
      2,
    );
    expect(emu.notices.join("\n")).toContain("to change its table mappings");
    expect(emu.notices.join("\n")).toContain("again after its table mappings changed");
    expect(["Setup", "Running", "Provisioning"]).toContain((await live(id)).state);
  });

  it("never restarts a one-time object-storage load that has Completed", async () => {
    const { id, outs } = await created(PROGRAMS.objectStorage);
    await sleep(Number(STEP_MS) * 3);
    const read = await provider.read(id, { ...outs, stopped: true, ...host });
    expect(read.props).toMatchObject({ state: "Completed", stopped: false });
    emu.emulator.resetRequestLog();
    await provider.update(id, { ...outs, stopped: true, ...host }, { ...PROGRAMS.objectStorage, ...host });
    expect(emu.requests().filter((r) => !r.startsWith("GET"))).toEqual([]);
    expect(emu.notices.join("\n")).toContain("a one-time load is not restarted");
  });

  it("starts a Failed pipe whose program says stopped: false, saying so", async () => {
    const program = { ...PROGRAMS.kafka, name: "failing-orders" };
    const { id, outs } = await created(program);
    await sleep(Number(STEP_MS) * 2);
    const read = await provider.read(id, { ...outs, ...host });
    expect(read.props).toMatchObject({ state: "Failed", stopped: true });
    expect((await provider.diff(id, { ...read.props, ...host }, { ...program, ...host })).detailedDiff).toHaveProperty(
      "stopped",
    );
    emu.emulator.resetRequestLog();
    const after = (await provider.update(id, { ...read.props, ...host }, { ...program, ...host })).outs as Record<
      string,
      unknown
    >;
    expect(emu.requests().filter((r) => !r.startsWith("GET"))).toEqual([`PATCH ${PIPES}/${id}/state`]);
    expect(after.stopped).toBe(false);
    expect(emu.notices.join("\n")).toContain('starting the ClickPipe "failing-orders", which is Failed');
  });

  it("reports an InternalError met while waiting, and stops waiting at once", async () => {
    const program = { ...PROGRAMS.kafka, name: "broken-orders" };
    const { id, outs } = await created(program);
    emu.emulator.resetRequestLog();
    const err = await failure(provider.update(id, { ...outs, ...host }, { ...program, stopped: true, ...host }));
    expect(String(err)).toContain("[PIPE_STATE]");
    expect(String(err)).toContain("InternalError");
    // One read before the command, one after it: the first InternalError ends the wait.
    expect(emu.requests()).toEqual([`GET ${PIPES}/${id}`, `PATCH ${PIPES}/${id}/state`, `GET ${PIPES}/${id}`]);
  });

  it("finds the one pipe a lost create made, never a second", async () => {
    emu.emulator.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/clickpipes$/, count: 1 } });
    const { id } = await created(PROGRAMS.kafka);
    const all = (await byHand("GET", PIPES)).result as Array<{ id: string }>;
    expect(all.map((p) => p.id)).toEqual([id]);
  });

  it("fails as CREATE_AMBIGUOUS when a lost create leaves two pipes alike, making no third", async () => {
    const { credentials: _c, stopped: _s, ...wire } = { ...PROGRAMS.kinesis, stopped: undefined };
    const body = {
      ...wire,
      source: { kinesis: { ...PROGRAMS.kinesis.source.kinesis, accessKey: PROGRAMS.kinesis.credentials } },
    };
    delete (body as Record<string, unknown>).organizationId;
    delete (body as Record<string, unknown>).serviceId;
    expect((await byHand("POST", PIPES, body)).status).toBe(200);
    emu.emulator.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/clickpipes$/, count: 1 } });
    const err = await failure(provider.create({ ...PROGRAMS.kinesis, ...host }));
    expect(String(err)).toContain("[CREATE_AMBIGUOUS]");
    expect(((await byHand("GET", PIPES)).result as unknown[]).length).toBe(2);
  });

  it("deletes and waits until the pipe is gone; a pipe already gone is done", async () => {
    const { id, outs } = await created(PROGRAMS.kafka);
    await provider.delete(id, { ...outs, ...host });
    expect((await byHand("GET", `${PIPES}/${id}`)).status).toBe(404);
    await provider.delete(id, { ...outs, ...host });
  });
});
