// Where a paged list ends (provider/reading/pagedList.ts): at the total the 2026 service gives in
// `meta`, else, as the seed contract's answers carry none, at a short page.

import { describe, expect, it } from "vitest";
import { listPaged } from "../../provider/reading/pagedList";
import { connectionFor } from "../../provider/runtime/connection";
import { answerOnce, mockApiPerTest } from "../support/mockApi";

const mock = mockApiPerTest();
const PATH = "/api/v2/alerts";
const PAGE = 4;

/** Objects with ids `from`…`from + count - 1`, as a page holds them. */
const objects = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: `id-${from + i}` }));

/** Answers the GET of the page at `offset` (asked with limit PAGE) with `data` and, when given, the meta. */
function page(offset: number, data: unknown[], total?: number, limit = PAGE): void {
  answerOnce(
    mock.api.alerting,
    mock.seen,
    { method: "GET", path: `${PATH}?limit=${PAGE}&offset=${offset}` },
    200,
    total === undefined ? { data } : { data, meta: { total, limit, offset } },
  );
}

const listed = async () => [...(await listPaged(connectionFor("alerting"), PATH, PAGE)).keys()];
const offsetsAsked = () => mock.seen.map((s) => new URL(s.path, "http://x").searchParams.get("offset"));

describe("a paged list with meta.total", () => {
  it("ends at a full last page, asking no empty page after it", async () => {
    page(0, objects(0, PAGE), 2 * PAGE);
    page(PAGE, objects(PAGE, PAGE), 2 * PAGE);
    expect(await listed()).toHaveLength(2 * PAGE);
    expect(offsetsAsked()).toEqual(["0", String(PAGE)]);
  });

  it("reads on past a page short of rows the service could not render, at the page's own offsets", async () => {
    // The real service counts a dropped row in total and in the page's reach, not in data.
    page(0, objects(0, PAGE - 1), 2 * PAGE);
    page(PAGE, [], 2 * PAGE);
    expect(await listed()).toHaveLength(PAGE - 1);
    expect(offsetsAsked()).toEqual(["0", String(PAGE)]);
  });

  it("steps by the service's own limit when it caps a page below what was asked", async () => {
    page(0, objects(0, 3), 7, 3);
    page(3, objects(3, 3), 7, 3);
    page(6, objects(6, 1), 7, 3);
    expect(await listed()).toEqual(objects(0, 7).map((o) => o.id));
    expect(offsetsAsked()).toEqual(["0", "3", "6"]);
  });
});

describe("a paged list without meta (the seed contract's answers)", () => {
  it("ends at a short page", async () => {
    page(0, objects(0, PAGE));
    page(PAGE, objects(PAGE, 1));
    expect(await listed()).toHaveLength(PAGE + 1);
    expect(offsetsAsked()).toEqual(["0", String(PAGE)]);
  });

  it("asks one more page after a full one, which only the empty answer ends", async () => {
    page(0, objects(0, PAGE));
    page(PAGE, []);
    expect(await listed()).toHaveLength(PAGE);
    expect(offsetsAsked()).toEqual(["0", String(PAGE)]);
  });
});
