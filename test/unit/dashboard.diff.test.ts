// A dashboard's diff names the tiles' members that change, in the form the service stores them: the
// defaults it fills in and the ids the provider keeps are no change, a moved tile only its place.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { behaviour } from "../../provider/dashboard/behaviour";
import { changedPaths, deepEqual } from "../../provider/protocol/diff";

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

/** The rule as first written: the members of either side, each alike; absent and null alike. */
function alikeByUnion(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => alikeByUnion(x, b[i]));
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(a) || !isObject(b)) return false;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => alikeByUnion(a[k], b[k]));
}

describe("deepEqual", () => {
  it("counts a member absent on one side and null on the other as alike", () => {
    expect(deepEqual({ a: 1, b: null }, { a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: null })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: 0 })).toBe(false);
  });

  it("agrees with comparing the union of both sides' members, for any values", () => {
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, undefined, 0, 1, "x", true),
        fc.array(tie("any"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "b", "c"), tie("any"), { maxKeys: 3 }),
      ),
    })).any;
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(deepEqual(a, b)).toBe(alikeByUnion(a, b));
      }),
    );
  });
});
