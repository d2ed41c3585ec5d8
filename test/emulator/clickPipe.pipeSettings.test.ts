// One pipe, two owners of its settings: a ClickPipe setting some in `settings`, a PipeSettings of the
// same pipe setting others. Each owns what it names (docs/design/clickpipes.md, "PipeSettings and
// ClickPipe.settings"): runs after the first change nothing, a refresh shows no drift, and a setting
// both name is refused in the PipeSettings' check, naming the ClickPipe.

import { describe, expect, it } from "vitest";
import * as clickPipe from "../../provider/clickPipe/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { resetRuntime } from "../../provider/runtime/runtime";
import { emulatorPerTest } from "../support/emulatorPerTest";
import { PIPE_SERVICE, PROGRAMS, shortPipeSteps } from "../support/clickPipes";

const emu = emulatorPerTest({ service: "cloud", helper: "clickPipe", cloudDialect: "clickhouse" });
const host = { __provider: "serialized" };
shortPipeSteps(20);

type Props = Record<string, unknown>;
type Held = Props & { id: string };
interface Stored {
  pipe: Held;
  tuning: Held;
}
const PIPES = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipes`;
const tuning = (pipeId: string) => ({ ...PIPE_SERVICE, pipeId, dbMaxInsertThreads: 4, dbMaxThreads: 8 });

/** One `up` of the program: each resource checked and diffed, created or updated when the diff says so. */
async function up(pipeProgram: Props, state: Partial<Stored>): Promise<Stored> {
  let pipe: Held | undefined = state.pipe;
  const pipeChecked = await clickPipe.check({}, { ...pipeProgram, ...host });
  expect(pipeChecked.failures ?? []).toEqual([]);
  if (pipe === undefined) {
    const made = await clickPipe.create({ ...pipeProgram, ...host });
    pipe = { ...(made.outs as Props), id: made.id };
  } else {
    const d = await clickPipe.diff(pipe.id, { ...pipe, ...host }, { ...pipeProgram, ...host });
    if (d.changes === true) {
      const after = await clickPipe.update(pipe.id, { ...pipe, ...host }, { ...pipeProgram, ...host });
      pipe = { ...(after.outs as Props), id: pipe.id };
    }
  }
  const tuningProgram = { ...tuning(pipe.id), ...host };
  const tuningChecked = await pipeSettings.check({}, tuningProgram);
  expect(tuningChecked.failures ?? []).toEqual([]);
  let tuned: Held | undefined = state.tuning;
  if (tuned === undefined) {
    const made = await pipeSettings.create(tuningProgram);
    tuned = { ...(made.outs as Props), id: made.id };
  } else {
    const d = await pipeSettings.diff(tuned.id, { ...tuned, ...host }, tuningProgram);
    if (d.changes === true) {
      const after = await pipeSettings.update(tuned.id, { ...tuned, ...host }, tuningProgram);
      tuned = { ...(after.outs as Props), id: tuned.id };
    }
  }
  return { pipe, tuning: tuned };
}

/** What a refresh records, and whether the refreshed state differs from the stored one. */
async function refresh(stored: Stored): Promise<Stored> {
  const p = await clickPipe.read(stored.pipe.id, { ...stored.pipe, ...host });
  const t = await pipeSettings.read(stored.tuning.id, { ...stored.tuning, ...host });
  return {
    pipe: { ...(p.props as Props), id: stored.pipe.id },
    tuning: { ...(t.props as Props), id: stored.tuning.id },
  };
}

async function previewChanges(pipeProgram: Props, stored: Stored) {
  const p = await clickPipe.diff(stored.pipe.id, { ...stored.pipe, ...host }, { ...pipeProgram, ...host });
  const t = await pipeSettings.diff(
    stored.tuning.id,
    { ...stored.tuning, ...host },
    { ...tuning(stored.pipe.id), ...host },
  );
  return { pipe: p.changes, tuning: t.changes };
}

const settingsOf = (p: Props) => p.settings;
const liveSettings = async (id: string) => {
  const basic = `Basic ${Buffer.from(`${emu.emulator.keyId}:${emu.emulator.keySecret}`).toString("base64")}`;
  const res = await fetch(`${emu.emulator.url}${PIPES}/${id}`, { headers: { authorization: basic } });
  return ((await res.json()) as { result: Props }).result.settings;
};

describe("a pipe whose settings a ClickPipe and a PipeSettings both manage", () => {
  it("two ups then a preview change nothing, and the pipe holds both sets", async () => {
    const first = await up(PROGRAMS.kafka, {});
    resetRuntime();
    emu.emulator.resetRequestLog();
    const second = await up(PROGRAMS.kafka, first);
    expect(emu.requests().filter((r) => !r.startsWith("GET"))).toEqual([]);
    resetRuntime();
    expect(await previewChanges(PROGRAMS.kafka, second)).toEqual({ pipe: false, tuning: false });
    expect(await liveSettings(first.pipe.id)).toEqual({
      streaming_max_insert_wait_ms: 1000,
      kafka_read_committed: true,
      clickhouse_max_insert_threads: 4,
      clickhouse_max_threads: 8,
    });
  });

  it("a refresh shows no drift on either, and the preview after it changes nothing", async () => {
    const stored = await up(PROGRAMS.kafka, await up(PROGRAMS.kafka, {}));
    resetRuntime();
    const refreshed = await refresh(stored);
    expect(settingsOf(refreshed.pipe)).toEqual(settingsOf(stored.pipe));
    expect(refreshed.tuning).toMatchObject({ dbMaxInsertThreads: 4, dbMaxThreads: 8 });
    expect(await previewChanges(PROGRAMS.kafka, refreshed)).toEqual({ pipe: false, tuning: false });
  });

  it("a ClickPipe that sets no settings records none on refresh: the PipeSettings' values are not its drift", async () => {
    const stored = await up(PROGRAMS.kinesis, await up(PROGRAMS.kinesis, {}));
    expect(stored.pipe.settings).toBeUndefined();
    resetRuntime();
    const refreshed = await refresh(stored);
    expect(refreshed.pipe.settings).toBeUndefined();
    const inputs = (await clickPipe.read(stored.pipe.id, { ...stored.pipe, ...host })).inputs as Props;
    expect(inputs.settings).toBeUndefined();
    expect(await previewChanges(PROGRAMS.kinesis, refreshed)).toEqual({ pipe: false, tuning: false });
  });

  it("a setting both name is refused in the PipeSettings' check, naming the ClickPipe", async () => {
    const stored = await up(PROGRAMS.kafka, {});
    resetRuntime();
    // The next run: the ClickPipe's diff comes first (the PipeSettings waits on its clickPipeId).
    await clickPipe.diff(stored.pipe.id, { ...stored.pipe, ...host }, { ...PROGRAMS.kafka, ...host });
    const both = { ...tuning(stored.pipe.id), streamingMaxInsertWaitMs: 2000, ...host };
    const checked = await pipeSettings.check({}, both);
    expect(checked.failures).toEqual([
      {
        property: "streamingMaxInsertWaitMs",
        reason: expect.stringContaining(`the ClickPipe ${stored.pipe.id} sets it in its settings`),
      },
    ]);
    // The same on a first up: the ClickPipe's create claims its settings before the PipeSettings is checked.
    resetRuntime();
    const made = await clickPipe.create({ ...PROGRAMS.kafka, name: "orders-2", ...host });
    const fresh = await pipeSettings.check({}, { ...tuning(made.id), kafkaReadCommitted: false, ...host });
    expect(fresh.failures?.map((f) => f.property)).toEqual(["kafkaReadCommitted"]);
  });
});
