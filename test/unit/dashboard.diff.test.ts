// A dashboard's diff names the tiles' members that change, in the form the service stores them: the
// defaults it fills in and the ids the provider keeps are no change, a moved tile only its place.

import { describe, expect, it } from "vitest";
import { behaviour } from "../../provider/dashboard/behaviour";
import { changedPaths } from "../../provider/protocol/diff";

const tile = (name: string, x: number) => ({
  name,
  x,
  y: 0,
  w: 6,
  h: 3,
  config: { displayType: "line", sourceId: "src", select: [{ aggFn: "count" }] },
});
/** A tile as the service answers it: an id, and the defaults it fills in. */
const stored = (name: string, x: number, id: string) => {
  const t = tile(name, x);
  return {
    ...t,
    id,
    config: {
      ...t.config,
      asRatio: false,
      fillNulls: true,
      select: [{ aggFn: "count", valueExpression: "", where: "", whereLanguage: "lucene" }],
    },
  };
};
const OLDS = { name: "Ops", tiles: [stored("Errors", 0, "t1"), stored("Latency", 6, "t2")] };

/** The diff from OLDS to a program of these tiles. */
const diffTo = (...tiles: unknown[]) => behaviour.diff("d1", OLDS as never, { name: "Ops", tiles } as never);

describe("the dashboard's diff", () => {
  it("names only the moved tile's x", async () => {
    const diff = await diffTo(tile("Errors", 12), tile("Latency", 6));
    expect(diff.changes).toBe(true);
    expect(diff.detailedDiff).toEqual({ "tiles[0].x": { kind: "update", replaces: false } });
  });

  it("names a renamed tile's name alone", async () => {
    const diff = await diffTo(tile("Errors", 0), tile("p99", 6));
    expect(Object.keys(diff.detailedDiff)).toEqual(["tiles[1].name"]);
  });

  it("sees no change where the service only filled in defaults and ids", async () => {
    const diff = await diffTo(tile("Errors", 0), tile("Latency", 6));
    expect(diff.changes).toBe(false);
    expect(diff.detailedDiff).toEqual({});
  });
});

describe("changedPaths", () => {
  it("names an added item by its index and a removed member as a delete", () => {
    expect(changedPaths("tiles", [{ a: 1, b: 2 }], [{ a: 1 }, { a: 3 }], false)).toEqual({
      "tiles[0].b": { kind: "delete", replaces: false },
      "tiles[1]": { kind: "add", replaces: false },
    });
  });
});
