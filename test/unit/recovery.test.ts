// The steps a create takes when its POST's answer is lost, with the POST, the look and the
// adoption played by fakes: the order and the counts are what is specified here. The same steps
// against the emulator's faults are in the resources' recovery tests.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError, AmbiguousCreateError, OutcomeUnknownError } from "../../provider/errors";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { createRecovering, type Candidate } from "../../provider/creation/recovery";

const lostAnswer = (): OutcomeUnknownError =>
  new OutcomeUnknownError({ method: "POST", path: "/api/v2/alerts" }, 'the alert "cpu"', "no answer came: the connection was closed");

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
    expect(notices).toEqual([expect.stringMatching(/POST \/api\/v2\/alerts lost its answer .*found the alert "cpu" it made \(id a1\)/)]);
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

  it("posts again once when neither look finds anything", async () => {
    const { steps, calls } = scripted({ posts: [lost, () => "made a2"], looks: [() => [], () => []] });
    await expect(createRecovering(steps)).resolves.toBe("made a2");
    expect(calls).toEqual({ post: 2, look: 2, adopted: [] });
  });

  it("reports a second lost answer as it is rather than chasing it", async () => {
    const { steps, calls } = scripted({ posts: [lost, lost], looks: [() => [], () => []] });
    await expect(createRecovering(steps)).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(calls).toEqual({ post: 2, look: 2, adopted: [] });
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
    expect((err as Error).message).toMatch(/looking for what it made failed too \(\[API_ERROR\] GET \/api\/v2\/alerts failed with status 500: boom/);
    expect((err as Error).message).toMatch(/may have been created/);
  });
});
