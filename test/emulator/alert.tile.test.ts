// A tile alert cannot be written on a tile that is missing or takes no alert (issue 45, findings 1,
// 2, 11): by tileName against the dashboard's tileIndex in the check (no request), and by tileName or
// a literal tileId against the dashboard the service holds (one GET) in the check and before the
// alert's request, on the emulator's 2026 mode (HyperDX's dashboards).

import { describe, expect, it, onTestFinished } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import * as dashboard from "../../provider/dashboard/provider";
import { behaviour as dashboardBehaviour } from "../../provider/dashboard/behaviour";
import * as webhook from "../../provider/webhook/provider";
import * as alert from "../../provider/alert/provider";
import { TileNotAlertableError } from "../../provider/errors";
import { UNKNOWN } from "../../provider/protocol/properties";
import { emulatorPerTest, setEnv } from "../support/emulatorPerTest";
import { checkFailures, failure } from "../support/failures";

const S = SEEDED_SOURCES[0].id;
const chart = (displayType: string) => ({ displayType, sourceId: S, select: [{ aggFn: "count" }] });
const tile = (name: string, displayType: string, x: number) => ({
  name,
  x,
  y: 0,
  w: 6,
  h: 3,
  config: chart(displayType),
});
const ops = { name: "Ops", tiles: [tile("Errors", "line", 0), tile("Latency", "number", 6), tile("Top", "table", 12)] };
const CHOICES = 'its tiles that take an alert (line, stacked_bar, number): "Errors", "Latency"';

describe("A tile alert's tile", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "tile alert test", mode: "2026" });
  const failuresFor = checkFailures(alert.check);
  const alertOn = async (where: Record<string, unknown>) => {
    const hook = await webhook.create({ name: "hook", service: "generic", url: "https://hooks.example.com/x" });
    return {
      threshold: 5,
      thresholdType: "above",
      interval: "5m",
      source: "tile",
      channel: { type: "webhook", webhookId: hook.id },
      ...where,
    };
  };
  const posts = () => service.requests().filter((r) => r.startsWith("POST /api/v2/alerts"));

  it("gives the dashboard's tileIndex in a create's preview, from the program's tiles", () => {
    const preview = dashboardBehaviour.previewCreate(ops as never);
    expect(preview.tileIndex).toEqual({ dashboard: "Ops", tiles: { Errors: "line", Latency: "number", Top: "table" } });
  });

  it("leaves tileIndex unknown in preview while a tile's name is unknown", () => {
    const tiles = [...ops.tiles, { ...tile("x", "line", 18), name: UNKNOWN }];
    expect(dashboardBehaviour.previewCreate({ ...ops, tiles } as never).tileIndex).toBe(UNKNOWN);
  });

  it("fails the check of a tileName no tile has, against tileIndex, naming the dashboard and its alertable tiles", async () => {
    const index = dashboardBehaviour.previewCreate(ops as never).tileIndex;
    const before = service.requests().length;
    const failures = await failuresFor({
      ...(await alertOn({})),
      dashboardId: UNKNOWN,
      tileName: "Lines",
      tileIndex: index,
    });
    expect(failures).toEqual([
      { property: "tileName", reason: `tileName "Lines": the dashboard "Ops" has no tile named "Lines"; ${CHOICES}` },
    ]);
    expect(service.requests().length).toBe(before + 1); // the webhook's POST alone
  });

  it("fails the check of a tileName of a table tile, against tileIndex, naming its display type", async () => {
    const index = dashboardBehaviour.previewCreate(ops as never).tileIndex;
    const [only, ...others] = await failuresFor({
      ...(await alertOn({})),
      dashboardId: UNKNOWN,
      tileName: "Top",
      tileIndex: index,
    });
    expect(others).toEqual([]);
    expect(only?.property).toBe("tileName");
    expect(only?.reason).toContain('the tile "Top" of the dashboard "Ops" is a table tile, which takes no alert');
    expect(only?.reason).toContain(CHOICES);
  });

  it("passes the check of a tileName of a line tile, and create finds the tile's id", async () => {
    const board = await dashboard.create(ops);
    const args = await alertOn({ dashboardId: board.id, tileName: "Errors", tileIndex: board.outs.tileIndex });
    expect(await failuresFor(args)).toEqual([]);
    const made = await alert.create(args);
    expect(made.outs.tileId).toBe(board.outs.tileIds.Errors);
    expect(made.outs.tileName).toBe("Errors");
    expect(service.emulator.snapshot().alerts[made.id]).toMatchObject({ tileId: board.outs.tileIds.Errors });
  });

  it("shows no change for a tileName alert whose tile keeps its name", async () => {
    const board = await dashboard.create(ops);
    const args = await alertOn({ dashboardId: board.id, tileName: "Errors" });
    const made = await alert.create(args);
    expect((await alert.diff(made.id, made.outs, args)).changes).toBe(false);
  });

  it("fails the check of a literal tileId of a table tile on a dashboard the service holds, naming its type", async () => {
    // The check reads the dashboard only where the config says the service holds dashboards.
    const restore = setEnv({ ALERTPIPE_ALERTING_DIALECT: "2026" });
    onTestFinished(restore);
    const board = await dashboard.create(ops);
    const live = service.emulator.snapshot().dashboards?.[board.id] as { tiles: { id: string; name: string }[] };
    const top = live.tiles.find((t) => t.name === "Top")?.id ?? "";
    const [only] = await failuresFor(await alertOn({ dashboardId: board.id, tileId: top }));
    expect(only?.property).toBe("tileId");
    expect(only?.reason).toContain(`the tile "${top}" ("Top") of the dashboard "Ops" (id ${board.id}) is a table tile`);
  });

  it("asks nothing in the check of a literal tileId when the config does not say the service holds dashboards", async () => {
    const board = await dashboard.create(ops);
    const args = await alertOn({ dashboardId: board.id, tileId: "none" });
    const before = service.emulator.requests.length;
    expect(await failuresFor(args)).toEqual([]);
    // The token's check read (once per process, docs/design/preview.md) alone: no dashboard's GET.
    const sent = service.emulator.requests
      .slice(before)
      .map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`);
    expect(sent).toEqual(["GET /api/v2/alerts?limit=1"]);
  });

  it("refuses at create, before the alert's request, a literal tileId of a table tile", async () => {
    const board = await dashboard.create(ops);
    const live = service.emulator.snapshot().dashboards?.[board.id] as { tiles: { id: string; name: string }[] };
    const top = live.tiles.find((t) => t.name === "Top")?.id ?? "";
    const err = await failure(alert.create(await alertOn({ dashboardId: board.id, tileId: top })));
    expect(err).toBeInstanceOf(TileNotAlertableError);
    expect(String(err)).toMatch(/^TileNotAlertableError: \[TILE_NOT_ALERTABLE\] the tile .* is a table tile/);
    expect(String(err)).toContain(
      CHOICES.replace('"Errors"', `"Errors" (id ${board.outs.tileIds.Errors})`).split(",")[0],
    );
    expect(posts()).toEqual([]);
  });

  it("refuses at create, before the alert's request, a tileName no tile of the held dashboard has", async () => {
    const board = await dashboard.create(ops);
    const err = await failure(alert.create(await alertOn({ dashboardId: board.id, tileName: "Nope" })));
    expect(err).toBeInstanceOf(TileNotAlertableError);
    expect(String(err)).toContain(`the dashboard "Ops" (id ${board.id}) has no tile named "Nope"; ${CHOICES}`);
    expect(posts()).toEqual([]);
  });

  it("refuses a tileId and a tileName together", async () => {
    const failures = await failuresFor(await alertOn({ dashboardId: "d1", tileId: "t1", tileName: "Errors" }));
    expect(failures.map((f) => f.property)).toEqual(["tileName"]);
  });
});
