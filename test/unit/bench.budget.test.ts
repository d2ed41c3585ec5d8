// The one-budget row (bench/budget.ts): its floor, and its reference's pacing, the window a user
// writes by hand (bench/handWrittenCloud.ts): at most 10 calls in any 10 s counted from their
// answers, the first 10 at once, one window for both kinds of call in a process.

import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { budgetFloorMs } from "../../bench/budget";
import { HAND_WRITTEN_CLOUD, type HandWrittenCloud } from "../../bench/handWrittenCloud";

describe("the floor of an apply under a fixed-window limit", () => {
  it("is a window for each window after the first, and one request's time", () => {
    expect(budgetFloorMs(40, { requests: 10, perSeconds: 10 }, 120)).toBe(30_120);
  });

  it("counts a started window as a whole one", () => {
    expect(budgetFloorMs(41, { requests: 10, perSeconds: 10 }, 0)).toBe(40_000);
  });
});

/** The hand-written module as the bench folder installs it: a file of its own, required fresh. */
function handWritten(): HandWrittenCloud {
  const file = join(mkdtempSync(join(tmpdir(), "alertpipe-bench-cloud-")), "index.js");
  writeFileSync(file, HAND_WRITTEN_CLOUD);
  return createRequire(file)(file) as HandWrittenCloud;
}

describe("the hand-written reference's pacing", () => {
  const sent: number[] = [];
  const answered: number[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    sent.length = 0;
    answered.length = 0;
    // The service: each call answered 50 ms after it is sent.
    vi.stubGlobal("fetch", async (_url: string, init: { method: string }) => {
      sent.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 50));
      answered.push(Date.now());
      const result = init.method === "POST" ? { id: `a${sent.length}` } : {};
      return { ok: true, status: 200, json: async () => ({ result }) };
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  async function callsOfBothKinds(count: number): Promise<void> {
    const cloud = handWritten();
    const pipe = (i: number) => ({ organizationId: "o", serviceId: "s", pipeId: `p${i}`, dbMaxThreads: 8 });
    const calls = Array.from({ length: count }, (_, i) =>
      i % 2 === 0 ? cloud.createAlert({ name: `a${i}` }) : cloud.createPipeSettings(pipe(i)),
    );
    await vi.advanceTimersByTimeAsync(60_000);
    await Promise.all(calls);
  }

  it("sends the first 10 calls at once", async () => {
    await callsOfBothKinds(25);
    expect(sent.slice(0, 10).every((t) => t === sent[0])).toBe(true);
  });

  it("sends no call within 10 s of the answer 10 calls before it, whatever its kind", async () => {
    await callsOfBothKinds(25);
    expect(sent).toHaveLength(25);
    for (let i = 10; i < sent.length; i++) expect(sent[i]! - answered[i - 10]!).toBeGreaterThanOrEqual(10_000);
  });
});
