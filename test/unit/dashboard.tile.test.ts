// `dashboard.tile("name")` on the dynamic class (issue 45, finding 4 and item 1): the tile's id as an
// Output<string>, the name checked against the program's tiles with no request, thrown when the
// program is run (so `pulumi preview` fails) whenever names and display types are plain values.

import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import type * as DashboardModule from "../../provider/dynamic/dashboard";
import { providerModule } from "../support/dynamicClasses";

const { Dashboard } = providerModule("./provider/dynamic/dashboard") as typeof DashboardModule;

const chart = (displayType: "line" | "table" | "number") => ({
  displayType,
  sourceId: "s1",
  select: [{ aggFn: "count" as const }],
});
const tile = (name: string, displayType: "line" | "table" | "number") => ({
  name,
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  config: chart(displayType),
});
const args = { name: "Ops", tiles: [tile("Error rate", "line"), tile("Top", "table"), tile("Count", "number")] };
const CHOICES = 'its tiles that take an alert (line, stacked_bar, number): "Error rate", "Count"';

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      // No provider runs: the ids are the mock's, the check the class's own.
      newResource: (a) => ({
        id: `${a.name}-id`,
        state: { ...a.inputs, tileIds: { "Error rate": "t-err", Count: "t-count" } },
      }),
      call: () => ({}),
    },
    "dashboard-tile-test",
    "dev",
    false,
  );
});

const valueOf = <T>(out: pulumi.Output<T>) => new Promise<T>((done) => out.apply((v) => done(v)));

describe("Dashboard.tile", () => {
  it("answers the id of a tile that takes an alert", async () => {
    const dash = new Dashboard("ops", args);
    expect(await valueOf(dash.tile("Error rate"))).toBe("t-err");
  });

  it("throws TILE_NOT_ALERTABLE at once for a name that is no tile, naming the dashboard and its alertable tiles", () => {
    const dash = new Dashboard("ops-missing", args);
    expect(() => dash.tile("Lines")).toThrow(
      `[TILE_NOT_ALERTABLE] the dashboard "Ops" has no tile named "Lines"; ${CHOICES}. Nothing was sent for the alert.`,
    );
  });

  it("throws TILE_NOT_ALERTABLE at once for a table tile, naming its display type", () => {
    const dash = new Dashboard("ops-table", args);
    expect(() => dash.tile("Top")).toThrow(
      /\[TILE_NOT_ALERTABLE\] the tile "Top" of the dashboard "Ops" is a table tile/,
    );
  });
});
