// Which id each tile keeps across an update, and which tiles tileIds names.

import { describe, expect, it } from "vitest";
import { keptTileIds, tileIdsOf } from "../../provider/dashboard/tiles";

const t = (name: string, id?: string) => (id === undefined ? { name } : { name, id });

describe("keptTileIds", () => {
  it("keeps a tile's id while it keeps its name, wherever it moves", () => {
    expect(keptTileIds([t("a", "A"), t("b", "B"), t("c", "C")], [t("c"), t("a"), t("b")])).toEqual(["C", "A", "B"]);
  });

  it("keeps the id of a tile renamed in place, its old name gone from the list", () => {
    expect(keptTileIds([t("a", "A"), t("b", "B")], [t("a"), t("p99")])).toEqual(["A", "B"]);
  });

  it("gives a new tile no id when the old name at its place is still in the list", () => {
    expect(keptTileIds([t("a", "A"), t("b", "B")], [t("a"), t("new"), t("b")])).toEqual(["A", undefined, "B"]);
  });

  it("keeps blank and repeated names' ids by position among the same-named", () => {
    expect(keptTileIds([t("", "E1"), t("x", "X1"), t("", "E2"), t("x", "X2")], [t("x"), t(""), t("x")])).toEqual([
      "X1",
      "E1",
      "X2",
    ]);
  });

  it("gives a tile dropped and another added in place the old id only when both names are new", () => {
    expect(keptTileIds([t("a", "A")], [t("b"), t("a")])).toEqual([undefined, "A"]);
  });
});

describe("tileIdsOf", () => {
  const line = { displayType: "line" };
  it("names alertable tiles of a non-empty unique name only", () => {
    const tiles = [
      { name: "lag", id: "L", config: line },
      { name: "rate", id: "N", config: { displayType: "number" } },
      { name: "bars", id: "B", config: { displayType: "stacked_bar" } },
      { name: "table", id: "T", config: { displayType: "table" } },
      { name: "notes", id: "M", config: { displayType: "markdown" } },
      { name: "", id: "E", config: line },
      { name: "dup", id: "D1", config: line },
      { name: "dup", id: "D2", config: line },
    ];
    expect(tileIdsOf(tiles)).toEqual({ lag: "L", rate: "N", bars: "B" });
  });

  it("gives a tile not made yet the unknown id it is given", () => {
    expect(tileIdsOf([{ name: "new", config: line }], "?")).toEqual({ new: "?" });
  });
});
