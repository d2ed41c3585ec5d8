// The tile a "tile" alert watches, checked before the alert is sent: by name against the dashboard's
// tileIndex (preview, no request), and by name or id against the dashboard the service holds (one GET,
// never served by a run's listing, so it sees what this run wrote to the dashboard before).

import { TileNotAlertableError } from "../errors";
import { send } from "../http/client";
import { unlessGone } from "../http/gone";
import { memberPath } from "../http/paths";
import type { AreaConnection } from "../runtime/connection";
import { UNKNOWN, containsUnknown } from "../protocol/properties";
import { DASHBOARDS_PATH, tileIdProblem, tileNameProblem, type TileFacts } from "../serviceFacts/observability";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const known = (v: unknown): v is string => typeof v === "string" && v !== "" && v !== UNKNOWN;

/** What of an alert's arguments names its tile. */
export interface TileChoice {
  readonly dashboardId?: unknown;
  readonly tileId?: unknown;
  readonly tileName?: unknown;
  readonly tileIndex?: unknown;
}

/** The problem with `tileName` against a known `tileIndex`, or undefined (also while either is unknown). */
export function tileIndexProblem(choice: TileChoice): string | undefined {
  const index = choice.tileIndex;
  if (!known(choice.tileName) || !isObj(index) || containsUnknown(index)) return undefined;
  const tiles = isObj(index.tiles) ? index.tiles : {};
  const facts: TileFacts[] = Object.entries(tiles).map(([name, displayType]) => ({ name, displayType }));
  return tileNameProblem(`the dashboard "${String(index.dashboard)}"`, facts, choice.tileName);
}

/** The dashboard's tiles as the service holds them; undefined when there is no such dashboard. */
async function heldDashboard(
  conn: AreaConnection,
  id: string,
): Promise<{ name: string; tiles: TileFacts[] } | undefined> {
  const res = await unlessGone(() => send(conn, { method: "GET", path: memberPath("dashboard", DASHBOARDS_PATH, id) }));
  const data = res !== undefined && isObj(res.body) && isObj(res.body.data) ? res.body.data : undefined;
  if (data === undefined) return undefined;
  const tiles = Array.isArray(data.tiles) ? data.tiles.filter(isObj) : [];
  return {
    name: typeof data.name === "string" ? data.name : id,
    tiles: tiles.map((t) => ({
      name: t.name,
      id: t.id,
      displayType: isObj(t.config) ? t.config.displayType : undefined,
    })),
  };
}

/**
 * What the dashboard the service holds says of the choice: the tile's id, or the problem (worded
 * with the dashboard's name and id). Undefined problem and id: nothing to check (no known id).
 */
export async function tileOnService(
  conn: AreaConnection,
  choice: TileChoice,
): Promise<{ readonly tileId?: string; readonly problem?: string }> {
  const id = choice.dashboardId;
  if (!known(id) || !(known(choice.tileName) || known(choice.tileId))) return {};
  const held = await heldDashboard(conn, id);
  if (held === undefined) return { problem: `dashboardId "${id}" names no dashboard the service holds` };
  const said = `the dashboard "${held.name}" (id ${id})`;
  if (known(choice.tileName)) {
    const problem = tileNameProblem(said, held.tiles, choice.tileName);
    if (problem !== undefined) return { problem };
    const tile = held.tiles.find((t) => t.name === choice.tileName);
    return known(tile?.id) ? { tileId: tile.id } : { problem: `the tile "${choice.tileName}" of ${said} has no id` };
  }
  const problem = tileIdProblem(said, held.tiles, String(choice.tileId));
  return problem === undefined ? { tileId: String(choice.tileId) } : { problem };
}

/** The tile's id, checked on the service before the alert is sent; throws TILE_NOT_ALERTABLE. */
export async function watchedTileId(conn: AreaConnection, choice: TileChoice): Promise<string | undefined> {
  const found = await tileOnService(conn, choice);
  if (found.problem !== undefined) throw new TileNotAlertableError(found.problem);
  return found.tileId;
}
