// What an update sends back of what the service holds (provider/protocol/keptFields.ts): members the
// definition does not name, at any depth of a named object, under the program's own body; and
// outputs holding the named members alone.

import { describe, expect, it } from "vitest";
import { namedOnly, withKept } from "../../provider/protocol/keptFields";
import type { ResourceDefinition } from "../../provider/protocol/definition";

const STRING = { kind: "string" } as const;
const CHART = {
  kind: "object",
  name: "Chart",
  description: "A chart.",
  fields: { type: { type: STRING, description: "Its type." }, title: { type: STRING, description: "Its title." } },
} as const;
const TILE = {
  kind: "object",
  name: "Tile",
  description: "A tile.",
  fields: { id: { type: STRING, description: "Its id." }, chart: { type: CHART, description: "Its chart." } },
} as const;
const ITEM = {
  kind: "object",
  name: "Item",
  description: "An item without an id.",
  fields: { value: { type: STRING, description: "Its value." } },
} as const;
const DEF: ResourceDefinition = {
  name: "Thing",
  description: "A thing.",
  properties: {
    name: { type: STRING, description: "Its name.", role: "both" },
    note: { type: STRING, description: "A note.", role: "both", wire: "remark" },
    tiles: { type: { kind: "array", items: TILE }, description: "Tiles.", role: "both" },
    items: { type: { kind: "array", items: ITEM }, description: "Items.", role: "both" },
  },
};

describe("withKept", () => {
  it("sends back a top-level field the definition does not name, the program's values winning", () => {
    const held = { id: "x1", name: "old", views: [{ table: "mv" }] };
    expect(withKept(DEF, { name: "new" }, held)).toEqual({ name: "new", views: [{ table: "mv" }] });
  });

  it("leaves out a named field the program left out, by its wire name too", () => {
    expect(withKept(DEF, { name: "n" }, { name: "n", remark: "held", note: "held" })).toEqual({ name: "n" });
  });

  it("keeps a tile's unnamed members, matched by id wherever the tile moved", () => {
    const held = {
      tiles: [
        { id: "a", chart: { type: "number", colorRules: ["red"] } },
        { id: "b", chart: { type: "table", onClick: { to: "x" } } },
      ],
    };
    const body = {
      tiles: [{ id: "b", chart: { type: "table" } }, { id: "a", chart: { type: "number" } }, { chart: {} }],
    };
    expect(withKept(DEF, body, held).tiles).toEqual([
      { id: "b", chart: { type: "table", onClick: { to: "x" } } },
      { id: "a", chart: { type: "number", colorRules: ["red"] } },
      { chart: {} },
    ]);
  });

  it("keeps nothing of an object its predicate says is no longer the same", () => {
    const held = { tiles: [{ id: "a", chart: { type: "number", colorRules: ["red"] } }] };
    const body = { tiles: [{ id: "a", chart: { type: "line" } }] };
    const same = { Chart: (ours: Record<string, unknown>, h: Record<string, unknown>) => ours.type === h.type };
    expect(withKept(DEF, body, held, same).tiles).toEqual([{ id: "a", chart: { type: "line" } }]);
  });

  it("matches items without ids by place, only while the lists are as long", () => {
    const held = {
      items: [
        { value: "1", format: "f1" },
        { value: "2", format: "f2" },
      ],
    };
    expect(withKept(DEF, { items: [{ value: "1" }, { value: "3" }] }, held).items).toEqual([
      { value: "1", format: "f1" },
      { value: "3", format: "f2" },
    ]);
    expect(withKept(DEF, { items: [{ value: "2" }] }, held).items).toEqual([{ value: "2" }]);
  });

  it("sends back no held null and none of the service's own members", () => {
    expect(withKept(DEF, { name: "n" }, { _id: "x", __v: 3, filterSettings: null, name: "n" })).toEqual({ name: "n" });
  });
});

describe("namedOnly", () => {
  it("drops the members a named object's type does not name, at any depth", () => {
    const outputs = { name: "n", tiles: [{ id: "a", chart: { type: "number", colorRules: ["red"] } }] };
    expect(namedOnly(DEF, outputs)).toEqual({ name: "n", tiles: [{ id: "a", chart: { type: "number" } }] });
  });
});
