// Fields set by hand kept through updates, against HyperDX's own server's answers (issue 44,
// docs/design/fields-kept.md): the kept-fields lifecycle recorded from that server
// (test/recorded/hyperdx-b52a6fa/lifecycle-kept-<door>.json) run again through the real engine and each
// door, against a server that answers from that recording alone. Each update's read before its
// PUT is recorded like any other request.

import { beforeAll, describe, expect, it } from "vitest";
import { recording } from "../support/hyperdxRecordings";
import { DOORS, alertingConfig } from "../support/hyperdxLifecycle";
import { KEPT_RUNS, keptByHand, keptDoor, keptIn, keptScenario } from "../support/keptLifecycle";
import { replayServer, replayedRun, unasked, type ReplayServer } from "../support/replayServer";

type Obj = Record<string, unknown>;

describe.each(DOORS.map((door) => [door] as const))(
  "the recorded kept-fields lifecycle through the %s door, replayed",
  (door) => {
    const rec = recording(keptScenario(door));
    const ids = rec.ids as Record<"logs" | "metrics" | "ops", string>;
    const member = {
      logs: `/api/v2/sources/${ids.logs}`,
      metrics: `/api/v2/sources/${ids.metrics}`,
      ops: `/api/v2/dashboards/${ids.ops}`,
    };
    let replay: ReplayServer;
    let stack: Awaited<ReturnType<typeof keptDoor>>;

    beforeAll(async () => {
      replay = await replayServer(rec);
      stack = await keptDoor(door, alertingConfig(replay.url, "replayed-key"));
    }, 300_000);

    it.each(KEPT_RUNS.map((run) => [run.label, run] as const))(
      "%s sends only recorded requests",
      async (_label, run) => {
        stack.phase(run.phase);
        const done = await replayedRun(replay, () => stack.run(run.kind));
        // A refresh that found a difference would say refresh-update.
        expect(run.kind === "refresh" ? done.filter((c) => c.startsWith("refresh-")) : done).toEqual(run.changes);
      },
    );

    it.each(["logs", "metrics", "ops"] as const)(
      "sent what was set by hand on %s back in its update's PUT, after reading it",
      (kind) => {
        const sent = replay.answered.filter((r) => r.path === member[kind]);
        expect(sent.map((r) => r.method)).toEqual(["GET", "PUT", "DELETE"]);
        expect(keptIn(kind, (sent[1]?.body ?? {}) as Obj)).toEqual(keptByHand(kind, ids.logs));
      },
    );

    it("asked for every recorded request", () => {
      expect(unasked(replay)).toEqual([]);
    });
  },
);
