// The thousand rows' request expectations (bench/thousand.ts): what the product is meant to send on
// a stack of 1,000 alerts and 200 keys in two organizations when nothing changed, so that a red row
// means a regression of the product, not a stale bench.

import { describe, expect, it } from "vitest";
import {
  expectedRequests,
  memoryReferencePeak,
  operationsOf,
  REFRESH_RUNS,
  timedRounds,
  REFRESH_TARGET,
  rowReference,
  sentAsExpected,
  THOUSAND_TARGET,
} from "../../bench/thousand";
import { LIST_PAGE_MAX } from "../../provider/serviceFacts/alertRules";

describe("the requests an operation on the thousand stack is allowed", () => {
  it("are one read per credential for a preview with nothing changed: the key's organizations, one alert", () => {
    expect(expectedRequests("preview")).toEqual({ keyLists: 0, alertPages: 1, organizationLists: 1, total: 2 });
  });

  it("are one read per credential for an up with nothing changed, its own provider process", () => {
    expect(expectedRequests("up")).toEqual({ keyLists: 0, alertPages: 1, organizationLists: 1, total: 2 });
  });

  it("are, for a refresh, one list of keys per organization and the pages 1,000 alerts take", () => {
    const pages = Math.ceil(1000 / LIST_PAGE_MAX);
    expect(expectedRequests("refresh")).toEqual({
      keyLists: 2,
      alertPages: pages,
      organizationLists: 0,
      total: 2 + pages,
    });
  });

  it("count one page of alerts for a refresh while a page holds 1,000", () => {
    expect(LIST_PAGE_MAX).toBeGreaterThanOrEqual(1000);
    expect(expectedRequests("refresh").alertPages).toBe(1);
  });
});

describe("what each thousand row holds ours to (issue 47)", () => {
  it("holds refresh to the list-reading reference at 1.10, which must send the same requests", () => {
    expect(REFRESH_TARGET).toBe(1.1);
    expect(rowReference("refresh")).toEqual({ who: "listing", target: 1.1, referenceSends: "the same" });
  });

  it("holds preview and up to the do-nothing provider at 1.15, which sends nothing", () => {
    for (const op of ["preview", "up"] as const)
      expect(rowReference(op)).toEqual({ who: "reference", target: THOUSAND_TARGET, referenceSends: "none" });
    expect(THOUSAND_TARGET).toBe(1.15);
  });

  it("holds the peak RSS to the do-nothing provider's in preview and up and the list-reading one's in refresh", () => {
    const reference = { preview: [80], up: [81], refresh: [111] };
    expect(memoryReferencePeak({ reference, listing: [134] })).toBe(134);
    expect(memoryReferencePeak({ reference, listing: [70] })).toBe(81);
  });

  it("times the list-reading reference on refresh alone, ours and the floor on every operation", () => {
    expect(operationsOf("listing")).toEqual(["refresh"]);
    expect(operationsOf("ours")).toEqual(["preview", "up", "refresh"]);
    expect(operationsOf("reference")).toEqual(["preview", "up", "refresh"]);
  });

  it("counts a refresh's requests as expected only with its lists, nothing more, no 429", () => {
    const ok = { ...expectedRequests("refresh"), http429: 0 };
    expect(sentAsExpected("refresh", ok)).toBe(true);
    expect(sentAsExpected("refresh", { ...ok, http429: 1 })).toBe(false);
    expect(sentAsExpected("refresh", { ...ok, total: ok.total + 1 })).toBe(false);
    expect(sentAsExpected("refresh", { ...ok, keyLists: 1, total: ok.total - 1 })).toBe(false);
    expect(sentAsExpected("up", { ...expectedRequests("up"), http429: 0 })).toBe(true);
    expect(sentAsExpected("up", { keyLists: 0, alertPages: 0, organizationLists: 0, total: 0, http429: 0 })).toBe(
      false,
    );
  });
});

describe("the thousand's timed rounds", () => {
  it("time each operation in rounds of its own, every refresh after every preview and up", () => {
    const ops = timedRounds(3).map((r) => r.op);
    expect(ops).toEqual(
      [...ops].sort((a, b) => ["preview", "up", "refresh"].indexOf(a) - ["preview", "up", "refresh"].indexOf(b)),
    );
    expect(ops.filter((op) => op === "preview")).toHaveLength(3);
  });

  it("give the refresh rows REFRESH_RUNS rounds when recording, and one when checking the rows", () => {
    expect(
      timedRounds(3)
        .filter((r) => r.op === "refresh")
        .map((r) => r.run),
    ).toEqual(Array.from({ length: REFRESH_RUNS }, (_, i) => i));
    expect(timedRounds(1).filter((r) => r.op === "refresh")).toHaveLength(1);
  });
});
