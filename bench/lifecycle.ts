// Scenarios 3 and 4: what each provider method sends to the service, and what a resource weighs
// in state.

import type { EmulatorProcess } from "./emulatorProcess";
import type { HostDriver, Props } from "./hostDriver";
import { KINDS, type BenchProgram, type Kind } from "./program";
import type { ScenarioResult } from "./report";
import { plan } from "./resources";
import { NO_LIMITS, NO_PACING, stackConfig, withHost } from "./setup";

/** The value the engine sends for an input not known yet during preview. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

// 3 and 4 ----------------------------------------------------------------------------------------

type Op = "check" | "diff" | "create" | "update" | "read" | "delete";
const OPS: readonly Op[] = ["check", "diff", "create", "update", "read", "delete"];
const EXPECTED_REQUESTS: Record<Op, number> = { check: 0, diff: 0, create: 1, update: 1, read: 1, delete: 1 };

/** A change the program could make to an existing resource, and a preview input left unknown. */
const CHANGE: Record<Kind, { changed: Props; unknown: Props }> = {
  PipeSettings: { changed: { dbMaxThreads: 16 }, unknown: { dbMaxThreads: UNKNOWN } },
  Alert: { changed: { threshold: 42 }, unknown: { threshold: UNKNOWN } },
  ApiKey: { changed: { name: "bench key renamed" }, unknown: { name: UNKNOWN } },
};

interface Lifecycle {
  counts: Record<Op, number>;
  requests: Record<Op, string[]>;
  providerBytes: number;
  outputsBytes: number;
  inputsBytes: number;
  diffSawChange: boolean;
}

async function lifecycle(host: HostDriver, emulator: EmulatorProcess, program: BenchProgram, kind: Kind): Promise<Lifecycle> {
  const counts = Object.fromEntries(OPS.map((op) => [op, 0])) as Record<Op, number>;
  const seen = Object.fromEntries(OPS.map((op) => [op, [] as string[]])) as Record<Op, string[]>;
  const counted = async <T>(op: Op, work: () => Promise<T>): Promise<T> => {
    const before = (await emulator.requests()).length;
    const result = await work();
    const sent = (await emulator.requests()).slice(before);
    counts[op] += sent.length;
    seen[op].push(...sent.map((r) => `${r.method} ${r.status}`));
    return result;
  };
  const r = plan(program, kind, 0, "lifecycle");
  // Preview: check with known inputs and with one still unknown.
  await counted("check", () => host.check(r.urn, {}, r.news));
  await counted("check", () => host.check(r.urn, {}, { ...r.news, ...CHANGE[kind].unknown }));
  const inputs = await counted("check", () => host.check(r.urn, {}, r.news));
  const { id, outputs } = await counted("create", () => host.create(r.urn, inputs));
  const news2 = await counted("check", () => host.check(r.urn, inputs, { ...r.news, ...CHANGE[kind].changed }));
  const diff = await counted("diff", () => host.diff(r.urn, id, outputs, news2));
  const outputs2 = await counted("update", () => host.update(r.urn, id, outputs, news2));
  const read = await counted("read", () => host.read(r.urn, id, outputs2, news2));
  await counted("delete", () => host.delete(r.urn, id, read.outputs));
  const provider = outputs.__provider;
  return {
    counts,
    requests: seen,
    providerBytes: typeof provider === "string" ? Buffer.byteLength(provider) : 0,
    outputsBytes: Buffer.byteLength(JSON.stringify(outputs)),
    inputsBytes: Buffer.byteLength(JSON.stringify(inputs)),
    diffSawChange: diff.changes,
  };
}

/** Runs each kind's whole life once; gives the rows of requests-per-op and state-weight. */
export async function requestsAndState(program: BenchProgram): Promise<[ScenarioResult, ScenarioResult]> {
  const runs = await withHost(program, { rateLimits: NO_LIMITS }, async (host, emulator) => {
    await host.configure(stackConfig(emulator, NO_PACING));
    const out: Partial<Record<Kind, Lifecycle>> = {};
    for (const kind of KINDS) out[kind] = await lifecycle(host, emulator, program, kind);
    return out as Record<Kind, Lifecycle>;
  });

  let worst = 0;
  for (const kind of KINDS) for (const op of OPS) worst = Math.max(worst, Math.abs(runs[kind].counts[op] - EXPECTED_REQUESTS[op]));
  const diffMissed = KINDS.filter((k) => !runs[k].diffSawChange);
  const requestsPerOp: ScenarioResult = {
    name: "requests-per-op",
    measured: worst,
    ideal: 0,
    unit: "requests off target",
    ratio: null,
    target: "check, diff 0; create, update, read, delete 1",
    pass: worst === 0 && diffMissed.length === 0,
    extra: {
      expected: EXPECTED_REQUESTS,
      counts: Object.fromEntries(KINDS.map((k) => [k, runs[k].counts])),
      requests: Object.fromEntries(KINDS.map((k) => [k, runs[k].requests])),
      checkCalls: "4 per kind: preview (known), preview (one input unknown), before create, before update",
      pipeSettingsResetOnDelete: true,
      diffMissedChange: diffMissed,
    },
  };

  const largest = Math.max(...KINDS.map((k) => runs[k].providerBytes));
  const stateWeight: ScenarioResult = {
    name: "state-weight",
    measured: largest,
    ideal: 0,
    unit: "bytes",
    ratio: null,
    target: "largest __provider <= 2048 bytes",
    pass: largest <= 2048,
    extra: {
      measuredIs: "largest __provider as stored in outputs after create",
      doNothingInlineProviderBytes: Buffer.byteLength(program.providers.Noop),
      providerBytes: Object.fromEntries(KINDS.map((k) => [k, runs[k].providerBytes])),
      outputsBytes: Object.fromEntries(KINDS.map((k) => [k, runs[k].outputsBytes])),
      inputsBytes: Object.fromEntries(KINDS.map((k) => [k, runs[k].inputsBytes])),
    },
  };
  return [requestsPerOp, stateWeight];
}
