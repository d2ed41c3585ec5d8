// The thousand rows' request expectations (bench/thousand.ts): what the product is meant to send on
// a stack of 1,000 alerts and 200 keys in two organizations when nothing changed, so that a red row
// means a regression of the product, not a stale bench.

import { describe, expect, it } from "vitest";
import { expectedRequests } from "../../bench/thousand";
import { LIST_PAGE_MAX } from "../../provider/serviceFacts/alertRules";

describe("the requests an operation on the thousand stack is allowed", () => {
  it("are none for a preview with nothing changed", () => {
    expect(expectedRequests("preview")).toEqual({ keyLists: 0, alertPages: 0, total: 0 });
  });

  it("are none for an up with nothing changed", () => {
    expect(expectedRequests("up")).toEqual({ keyLists: 0, alertPages: 0, total: 0 });
  });

  it("are, for a refresh, one list of keys per organization and the pages 1,000 alerts take", () => {
    const pages = Math.ceil(1000 / LIST_PAGE_MAX);
    expect(expectedRequests("refresh")).toEqual({ keyLists: 2, alertPages: pages, total: 2 + pages });
  });

  it("count one page of alerts for a refresh while a page holds 1,000", () => {
    expect(LIST_PAGE_MAX).toBeGreaterThanOrEqual(1000);
    expect(expectedRequests("refresh").alertPages).toBe(1);
  });
});
