// The provider against the real service's answers (issue 36): the lifecycle recorded from HyperDX's
// own API server (test/recorded/hyperdx-b52a6fa/lifecycle-<door>.json) run again through the real
// engine and the same door, against a server that answers from that recording alone. A request the
// recording does not hold (method, path, body) fails the run: it is a change in what the provider sends.

import { beforeAll, describe, expect, it } from "vitest";
import { recording } from "../support/hyperdxRecordings";
import {
  DOORS,
  RUNS,
  alertingConfig,
  lifecycleScenario,
  openDoor,
  type LifecycleDoor,
  type ProgramRefs,
} from "../support/hyperdxLifecycle";
import { OBSERVABILITY_RUNS, OBSERVABILITY_SCENARIO, observabilityDoor } from "../support/observabilityLifecycle";
import { replayServer, replayedRun, unasked, type ReplayServer } from "../support/replayServer";

/** What each run changes, as the recording's run did. */
const EXPECTED: Record<(typeof RUNS)[number]["label"], string[]> = {
  up: ["create errors", "create hook", "create onSearch", "create onTile"],
  "up again": [],
  refresh: ["refresh-update onSearch"],
  "up after refresh": ["update onSearch"],
  destroy: ["delete errors", "delete hook", "delete onSearch", "delete onTile"],
};

describe.each(DOORS.map((door) => [door] as const))("the recorded lifecycle through the %s door, replayed", (door) => {
  const rec = recording(lifecycleScenario(door));
  let replay: ReplayServer;
  let stack: LifecycleDoor;

  beforeAll(async () => {
    replay = await replayServer(rec);
    stack = await openDoor(door, alertingConfig(replay.url, "replayed-key"), rec.ids as unknown as ProgramRefs);
  }, 300_000);

  it.each(RUNS.map((run) => [run.label, run] as const))("%s sends only recorded requests", async (label, run) => {
    const done = await replayedRun(replay, () => stack.run(run.kind));
    expect(run.kind === "refresh" ? done.filter((c) => c.startsWith("refresh-")) : done).toEqual(EXPECTED[label]);
  });

  it("asked for every recorded request", () => {
    expect(unasked(replay)).toEqual([]);
  });
});

describe("the recorded observability lifecycle through the dynamic door, replayed", () => {
  const rec = recording(OBSERVABILITY_SCENARIO);
  let replay: ReplayServer;
  let stack: Awaited<ReturnType<typeof observabilityDoor>>;

  beforeAll(async () => {
    replay = await replayServer(rec);
    stack = await observabilityDoor(alertingConfig(replay.url, "replayed-key"));
  }, 300_000);

  it.each(OBSERVABILITY_RUNS.map((run) => [run.label, run] as const))(
    "%s sends only recorded requests",
    async (_label, run) => {
      stack.phase(run.phase);
      expect(await replayedRun(replay, () => stack.run(run.kind))).toEqual(run.changes);
    },
  );

  it("asked for every recorded request", () => {
    expect(unasked(replay)).toEqual([]);
  });
});
