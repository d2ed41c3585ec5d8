// The latency-bound apply's statistics (bench/stats.ts): each run's ratio is taken against the
// reference of the same run, and the row holds both the ratio of the medians and their median.

import { describe, expect, it } from "vitest";
import { listPages, pairedRatios } from "../../bench/stats";

describe("paired ratios of alternated runs", () => {
  it("take each run against the reference of the same run", () => {
    expect(pairedRatios([300, 220], [200, 200]).perRun).toEqual([1.5, 1.1]);
  });

  it("give the ratio of the medians and the median of the runs' own ratios apart", () => {
    // Runs' own ratios 4, 0.5 and 1; the medians 300 and 200 ms.
    const r = pairedRatios([400, 100, 300], [100, 200, 300]);
    expect(r.medianOfPairs).toBe(1);
    expect(r.ofMedians).toBe(1.5);
  });

  it("say no ratio of medians against a reference of 0 ms", () => {
    expect(pairedRatios([10], [0]).ofMedians).toBeNull();
  });
});

describe("list pages of a collection whose service states its total", () => {
  it("take one page for an empty collection", () => {
    expect(listPages(0, 1000)).toBe(1);
  });

  it("take one page for a collection that fills it exactly", () => {
    expect(listPages(1000, 1000)).toBe(1);
  });

  it("take a page more for each started page", () => {
    expect(listPages(1001, 1000)).toBe(2);
  });
});
