// The request bodies a program of 0.1.0's properties sends, held byte for byte to a recording made
// before the 2026 properties (issue 27): a program that sets none of them sends exactly these. Each
// request's method, path (ids as placeholders) and body text, through the dynamic door's methods
// against the emulator. `RECORD_BODIES=1` writes the recording instead; never rewrite it to make
// this pass, since a changed body is a change for every user's existing program.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, type Dispatcher } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { FAST_RETRIES, emulatorPerTest, envFor, setEnv } from "../support/emulatorPerTest";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { ORG_ID, PIPE_IDS, tileAlert } from "../support/fixtures";
import { hashDataFor } from "../support/hashData";

const RECORDING = join(__dirname, "recorded", "requestBodies.json");

interface Sent {
  readonly request: string;
  readonly body: string | null;
}

const sent: Sent[] = [];

/** Ids the service makes vary by run: a path names them by kind. */
function pathShown(path: string): string {
  return path
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "{uuid}")
    .replace(/\/[0-9a-f]{24}(?=$|[/?])/g, "/{alertId}");
}

/** An agent that notes every request it sends, as the provider made it. */
function recordingAgent(): Dispatcher {
  return new Agent().compose((dispatch) => (opts, handler) => {
    const body = typeof opts.body === "string" ? opts.body : opts.body == null ? null : "(not text)";
    if (opts.method !== "GET") sent.push({ request: `${opts.method} ${pathShown(opts.path)}`, body });
    return dispatch(opts, handler);
  });
}

// One emulator serves both areas: the alerting one is set up per test, the cloud one pointed at it too.
const emu = emulatorPerTest({ service: "alerting", helper: "requestBodies", dispatcher: recordingAgent });
let restoreCloud = (): void => {};
beforeEach(() => {
  restoreCloud = setEnv(envFor("cloud", emu.emulator));
});
afterEach(() => restoreCloud());

const host = { __provider: "serialized" };

/** A later `pulumi` run: what this run claimed is forgotten (a delete with resetOnDelete then unsets). */
function nextRun(): void {
  resetRuntime();
  useRuntime({ dispatcher: recordingAgent(), retryPolicy: FAST_RETRIES });
}

/** Every write of a program: create, the updates, delete; what each sent, in order. */
const PROGRAMS: Record<string, () => Promise<void>> = {
  async "alert: a tile alert, changed, a text removed, deleted"() {
    const args = { ...tileAlert, message: "CPU above 90%", ...host };
    const made = await alert.create(args);
    const olds = { ...made.outs, ...host };
    const next = { ...args, threshold: 95, thresholdType: "below", interval: "15m" };
    const after = await alert.update(made.id, olds, next);
    const { message: _m, name: _n, ...bare } = next;
    await alert.update(made.id, { ...after.outs, ...host }, bare);
    await alert.delete(made.id, { ...after.outs, ...host });
  },
  async "alert: a search alert with only what is required"() {
    const args = { threshold: 0, interval: "1m", source: "search", thresholdType: "above", ...host };
    const made = await alert.create({ ...args, channel: { type: "webhook", webhookId: "hook-2" } });
    await alert.update(
      made.id,
      { ...made.outs, ...host },
      { ...args, channel: { type: "webhook", webhookId: "hook-3" }, name: "Errors", message: "Errors seen" },
    );
  },
  async "alert: taken over by importId"() {
    const existing = await alert.create({ ...tileAlert, threshold: 10, ...host });
    await alert.create({ ...tileAlert, importId: existing.id, ...host });
  },
  async "key: every argument, changed, deleted"() {
    const args = {
      organizationId: ORG_ID,
      name: "deployer",
      roles: ["developer", "query_endpoints"],
      expireAt: "2099-01-31T09:00:00+09:00",
      state: "enabled",
      ipAccessList: [{ source: "127.0.0.1/32", description: "this machine" }],
      hashData: hashDataFor("KEYIDRECORDEDBODIES1", "recorded-bodies-secret"),
      ...host,
    };
    const made = await apiKey.create(args);
    const next = { ...args, name: "deployer-2", roles: ["admin"], state: "disabled", expireAt: "" };
    const after = await apiKey.update(made.id, { ...made.outs, ...host }, next);
    const { ipAccessList: _ip, expireAt: _e, ...bare } = next;
    const last = await apiKey.update(made.id, { ...after.outs, ...host }, bare);
    await apiKey.delete(made.id, { ...last.outs, ...host });
  },
  async "key: only what is required, the service makes the pair"() {
    await apiKey.create({ organizationId: ORG_ID, roles: ["admin"], ...host });
  },
  async "key: taken over by importId"() {
    const existing = await apiKey.create({ organizationId: ORG_ID, name: "old", roles: ["admin"], ...host });
    await apiKey.create({ organizationId: ORG_ID, name: "new", roles: ["developer"], importId: existing.id, ...host });
  },
  async "pipe settings: set, changed, one added, reset on delete"() {
    const args = { ...PIPE_IDS, dbMaxThreads: 8, objectStorageUseClusterFunction: true, resetOnDelete: true, ...host };
    const made = await pipeSettings.create(args);
    const next = { ...args, dbMaxThreads: 16, streamingMaxInsertWaitMs: 500, dbParallelViewProcessing: null };
    const after = await pipeSettings.update(made.id, { ...made.outs, ...host }, next);
    nextRun();
    await pipeSettings.delete(made.id, { ...after.outs, ...host });
  },
};

describe("the bodies a program of 0.1.0's properties sends", () => {
  const recorded: Record<string, Sent[]> = process.env.RECORD_BODIES === "1" ? {} : readRecording();

  for (const [name, run] of Object.entries(PROGRAMS)) {
    it(`${name}: byte for byte as recorded`, async () => {
      sent.length = 0;
      await run();
      if (process.env.RECORD_BODIES === "1") {
        recorded[name] = [...sent];
        writeFileSync(RECORDING, `${JSON.stringify(recorded, null, 2)}\n`);
      }
      expect(sent).toEqual(recorded[name]);
    });
  }
});

function readRecording(): Record<string, Sent[]> {
  return JSON.parse(readFileSync(RECORDING, "utf8")) as Record<string, Sent[]>;
}
