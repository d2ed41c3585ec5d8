// The steps a create takes when its POST's answer is lost, with the POST, the look and the
// adoption played by fakes: the order and the counts are what is specified here. The same steps
// against the emulator's faults are in the resources' recovery tests.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, AmbiguousCreateError, OutcomeUnknownError } from "../../provider/errors";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { createRecovering, type Candidate } from "../../provider/creation/recovery";
import { DEFAULT_RETRY_POLICY } from "../../provider/http/retry";

const lostAnswer = (): OutcomeUnknownError =>
  new OutcomeUnknownError(
    { method: "POST", path: "/api/v2/alerts" },
    'the alert "cpu"',
    "no answer came: the connection was closed",
  );

interface Script {
  posts: (() => string)[];
  looks: (() => Candidate[])[];
}

/** Steps that follow a script and count what was called. */
function scripted(script: Script) {
  const calls = { post: 0, look: 0, adopted: [] as string[] };
  const steps = {
    description: 'the alert "cpu"',
    post: async () => {
      const next = script.posts[calls.post++];
      if (next === undefined) throw new Error("posted more often than the script allows");
      return next();
    },
    look: async () => {
      const next = script.looks[calls.look++];
      if (next === undefined) throw new Error("looked more often than the script allows");
      return next();
    },
    adopt: async (found: Candidate) => {
      calls.adopted.push(found.id);
      return `adopted ${found.id}`;
    },
  };
  return { steps, calls };
}

const lost = (): string => {
  throw lostAnswer();
};
const notices: string[] = [];

beforeEach(() => {
  notices.length = 0;
  useRuntime({ notices: (line) => notices.push(line), timings: { secondLookMs: 5 } });
});

afterEach(() => {
  resetRuntime();
});

describe("createRecovering", () => {
  it("returns what the POST made without looking when the answer arrives", async () => {
    const { steps, calls } = scripted({ posts: [() => "made a1"], looks: [] });
    await expect(createRecovering(steps)).resolves.toBe("made a1");
    expect(calls.look).toBe(0);
  });

  it("rethrows a refusal without looking, since nothing was made", async () => {
    const refused = new ApiError({ method: "POST", path: "/api/v2/alerts" }, 400, "interval: bad", undefined);
    const { steps, calls } = scripted({
      posts: [
        () => {
          throw refused;
        },
      ],
      looks: [],
    });
    await expect(createRecovering(steps)).rejects.toBe(refused);
    expect(calls.look).toBe(0);
  });

  it("adopts the one match of a lost answer and posts nothing more", async () => {
    const { steps, calls } = scripted({ posts: [lost], looks: [() => [{ id: "a1" }]] });
    await expect(createRecovering(steps)).resolves.toBe("adopted a1");
    expect(calls).toEqual({ post: 1, look: 1, adopted: ["a1"] });
  });

  it("tells the user which object it recovered", async () => {
    const { steps } = scripted({ posts: [lost], looks: [() => [{ id: "a1" }]] });
    await createRecovering(steps);
    expect(notices).toEqual([
      expect.stringMatching(/POST \/api\/v2\/alerts lost its answer .*found the alert "cpu" it made \(id a1\)/),
    ]);
  });

  it("fails naming every candidate when several match, adopting none", async () => {
    const { steps, calls } = scripted({ posts: [lost], looks: [() => [{ id: "a1" }, { id: "a2" }]] });
    const err = await createRecovering(steps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect((err as AmbiguousCreateError).candidates).toEqual(["a1", "a2"]);
    expect((err as Error).message).toMatch(/a1, a2/);
    expect(calls.adopted).toEqual([]);
  });

  it("looks a second time before concluding nothing was made", async () => {
    const { steps, calls } = scripted({ posts: [lost], looks: [() => [], () => [{ id: "late" }]] });
    await expect(createRecovering(steps)).resolves.toBe("adopted late");
    expect(calls.post).toBe(1);
    expect(calls.look).toBe(2);
  });

  it("posts again when neither look finds anything", async () => {
    const { steps, calls } = scripted({ posts: [lost, () => "made a2"], looks: [() => [], () => []] });
    await expect(createRecovering(steps)).resolves.toBe("made a2");
    expect(calls).toEqual({ post: 2, look: 2, adopted: [] });
  });

  it("chases a second lost answer: looks again after the re-send and adopts what it made", async () => {
    const { steps, calls } = scripted({ posts: [lost, lost], looks: [() => [], () => [], () => [{ id: "a2" }]] });
    await expect(createRecovering(steps)).resolves.toBe("adopted a2");
    expect(calls).toEqual({ post: 2, look: 3, adopted: ["a2"] });
  });

  it("chases three lost answers in a row to the one object the third made", async () => {
    const { steps, calls } = scripted({
      posts: [lost, lost, lost],
      looks: [() => [], () => [], () => [], () => [], () => [{ id: "a3" }]],
    });
    await expect(createRecovering(steps)).resolves.toBe("adopted a3");
    expect(calls).toEqual({ post: 3, look: 5, adopted: ["a3"] });
  });

  it("looks after each POST from that POST's own send time", async () => {
    let clock = 1_000;
    const now = vi.spyOn(Date, "now").mockImplementation(() => (clock += 1_000));
    try {
      const postedAt: number[] = [];
      const { steps } = scripted({
        posts: [() => (postedAt.push(clock), lost()), () => (postedAt.push(clock), lost())],
        looks: [() => [], () => [], () => [{ id: "a2" }]],
      });
      const lookedFrom: number[] = [];
      await createRecovering({ ...steps, look: (sentAt: number) => (lookedFrom.push(sentAt), steps.look()) });
      expect(lookedFrom).toEqual([postedAt[0], postedAt[0], postedAt[1]]);
      expect(postedAt[1]).toBeGreaterThan(postedAt[0] ?? Infinity);
    } finally {
      now.mockRestore();
    }
  });

  it("still fails naming every candidate when a re-sent POST's look finds several", async () => {
    const { steps, calls } = scripted({
      posts: [lost, lost],
      looks: [() => [], () => [], () => [{ id: "a1" }, { id: "a2" }]],
    });
    const err = await createRecovering(steps).catch((e: unknown) => e);
    expect((err as AmbiguousCreateError).candidates).toEqual(["a1", "a2"]);
    expect(calls.adopted).toEqual([]);
  });

  it("stops sending again once the retry budget's attempts are spent, reporting the last lost answer after its looks", async () => {
    useRuntime({ retryPolicy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 2 } });
    const { steps, calls } = scripted({ posts: [lost, lost], looks: [() => [], () => [], () => [], () => []] });
    const err = await createRecovering(steps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(
      /sent 2 times, each answer lost, the retry budget is spent, and no object it made could be found/,
    );
    expect(calls).toEqual({ post: 2, look: 4, adopted: [] });
  });

  it("discards an unusable match and chases each re-send's lost answer, ending with the POST that was answered", async () => {
    const { steps, calls } = scripted({
      posts: [lost, lost, () => "made k3"],
      looks: [() => [{ id: "k1" }], () => [{ id: "k2" }]],
    });
    const discarded: string[] = [];
    const { adopt: _adopt, ...base } = steps;
    const discarding = {
      ...base,
      discard: async (found: Candidate) => void discarded.push(found.id),
      discarding: "but nobody can use it",
      remaking: "making it again",
    };
    await expect(createRecovering(discarding)).resolves.toBe("made k3");
    expect(discarded).toEqual(["k1", "k2"]);
    expect(calls).toEqual({ post: 3, look: 2, adopted: [] });
  });

  it("says the object may exist, and why the look failed, when listing fails", async () => {
    const { steps } = scripted({
      posts: [lost],
      looks: [
        () => {
          throw new ApiError({ method: "GET", path: "/api/v2/alerts" }, 500, "boom", "req-9");
        },
      ],
    });
    const err = await createRecovering(steps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(
      /looking for what it made failed too \(\[API_ERROR\] GET \/api\/v2\/alerts failed with status 500: boom/,
    );
    expect((err as Error).message).toMatch(/may have been created/);
  });
});
