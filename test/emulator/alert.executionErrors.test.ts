// An alert's executionErrors, which the 2026 service answers after an evaluation fails: read-only,
// never a cause of a diff. Against the emulator's 2026 mode, whose test hook records them as an
// evaluation would: a refresh (read) records them, and the preview after it (diff) has nothing to do.

import { beforeEach, describe, expect, it } from "vitest";
import type { ExecutionError, RunningEmulator } from "../../emulator";
import * as alert from "../../provider/alert/provider";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { emulatorPerTest, FAST_RETRIES } from "../support/emulatorPerTest";
import { makeReferents } from "./service/helpers";

const host = { __provider: "serialized" };
const base = { name: "errors", source: "search", threshold: 3, thresholdType: "above", interval: "5m" };
/** The program's alert, on a webhook and saved search made first (the 2026 mode checks each exists). */
let program: Record<string, unknown> = {};
const programOn = async (emulator: RunningEmulator) => {
  const refs = await makeReferents(emulator);
  return { ...base, channel: { type: "webhook", webhookId: refs.hooks[0] }, savedSearchId: refs.savedSearchId };
};
const failed: ExecutionError[] = [
  { timestamp: "2026-11-24T10:00:00.000Z", type: "QUERY_TIMEOUT", message: "query took longer than 30s" },
];

describe("Alert executionErrors, against the emulator's 2026 mode", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "executionErrors test", mode: "2026" });
  beforeEach(async () => {
    program = await programOn(service.emulator);
  });

  /** An alert of the program, made, whose evaluation then recorded `failed`; answers its id and outputs. */
  async function failing() {
    const made = await alert.create({ ...program, ...host });
    expect(service.emulator.recordExecutionErrors(made.id, failed)).toBe(true);
    return made;
  }

  it("is recorded by a refresh as the service answers it", async () => {
    const made = await failing();
    const read = await alert.read(made.id, { ...made.outs, ...host });
    expect(read.props?.executionErrors).toEqual(failed);
  });

  it("is never an input a refresh proposes to put back", async () => {
    const made = await failing();
    const read = await alert.read(made.id, { ...made.outs, ...host });
    expect(read.inputs).not.toHaveProperty("executionErrors");
  });

  it("leaves the preview after the refresh with nothing to do", async () => {
    const made = await failing();
    const read = await alert.read(made.id, { ...made.outs, ...host });
    expect(await alert.diff(made.id, { ...read.props, ...host }, { ...program, ...host })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("goes when the service answers none, without a diff either", async () => {
    const made = await failing();
    const first = await alert.read(made.id, { ...made.outs, ...host });
    service.emulator.recordExecutionErrors(made.id, undefined);
    // The next refresh is a new process, which lists afresh.
    resetRuntime();
    useRuntime({ retryPolicy: FAST_RETRIES });
    const second = await alert.read(made.id, { ...first.props, ...host });
    expect(second.props).not.toHaveProperty("executionErrors");
    expect((await alert.diff(made.id, { ...second.props, ...host }, { ...program, ...host })).changes).toBe(false);
  });
});

describe("Alert executionErrors, against the emulator's contract mode", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "executionErrors contract test" });
  beforeEach(async () => {
    program = await programOn(service.emulator);
  });

  it("is never answered: the contract has no such member", async () => {
    const made = await alert.create({ ...program, ...host });
    service.emulator.recordExecutionErrors(made.id, failed);
    const read = await alert.read(made.id, { ...made.outs, ...host });
    expect(read.props).not.toHaveProperty("executionErrors");
  });
});
