// Test support: the faults after commit under which a create's answer is lost though the service
// made the object, as the recovery tests of each resource play them against the emulator.

import type { AfterCommitFault, FaultPlan, RunningEmulator } from "../../emulator";
import { useRuntime } from "../../provider/runtime/runtime";
import { FAST_RETRIES } from "./emulatorPerTest";

export interface LostAnswer {
  readonly name: string;
  readonly plan: FaultPlan;
  /** How long the client's attempt may take, where the fault needs the client to give up first. */
  readonly attemptTimeoutMs?: number;
}

/** The faults after which the outcome of the requests `create` matches is unknown though the object was made. */
export function lostAnswers(create: AfterCommitFault): LostAnswer[] {
  return [
    { name: "the connection cut after commit", plan: { cutAfterCommit: create } },
    { name: "a 500 after commit", plan: { failAfterCommit: create } },
    // The answer is held far longer than the attempt may take, so the client gives up first.
    { name: "a timeout after commit", plan: { delayAfterCommit: { ...create, ms: 10_000 } }, attemptTimeoutMs: 300 },
  ];
}

/** Sets the fault on the emulator, and the client's attempt timeout where the fault needs one. */
export function armLostAnswer(emu: RunningEmulator, fault: LostAnswer): void {
  if (fault.attemptTimeoutMs !== undefined)
    useRuntime({ retryPolicy: { ...FAST_RETRIES, attemptTimeoutMs: fault.attemptTimeoutMs } });
  emu.setFaults(fault.plan);
}
