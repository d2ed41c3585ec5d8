import * as pulumi from "@pulumi/pulumi";
import { DASHBOARD, TILE_IDS_OUTPUT } from "../dashboard/definition";
import { TileNotAlertableError } from "../errors";
import { tileNameProblem, type TileFacts } from "../serviceFacts/observability";
import type { DashboardArgs, DashboardOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../dashboard/shim");

export interface Dashboard extends DashboardOutputs {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The tiles' names and display types when the program gives them as plain values; else undefined. */
function plainTiles(tiles: unknown): TileFacts[] | undefined {
  if (!Array.isArray(tiles)) return undefined;
  const facts: TileFacts[] = [];
  for (const t of tiles as unknown[]) {
    if (!isObj(t) || !isObj(t.config) || typeof t.name !== "string" || typeof t.config.displayType !== "string")
      return undefined;
    facts.push({ name: t.name, displayType: t.config.displayType });
  }
  return facts;
}

/**
 * A HyperDX dashboard and its tiles. `tileIds` maps each alertable tile (line, stacked bar, number) of
 * a unique name to its id, for tile alerts; a tile keeps its id while it keeps its name or place.
 * `tile("Error rate")` is that id, the name checked against the program's tiles first.
 */
export class Dashboard extends ReadByIdResource {
  /** What the program declares, for `tile`: undefined for a dashboard read by id. */
  readonly #declared: { readonly name: unknown; readonly tiles: unknown };
  readonly #resourceName: string;

  constructor(name: string, args: DashboardArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: DASHBOARD, shim, type: "Dashboard" }, name, args, opts);
    this.#declared = { name: args.name, tiles: args.tiles };
    this.#resourceName = name;
  }

  /**
   * The id of the tile named `name`, for an Alert's `tileId`. The name is checked against the tiles
   * the program declares, with no request: when their names and display types are plain values, a
   * name that is no tile of a unique name, or a tile that takes no alert (only line, stacked_bar and
   * number do), throws TILE_NOT_ALERTABLE here, so `pulumi preview` fails. When they are Outputs, the
   * check waits for them, and fails the alert's registration, before its request, once they are known.
   * A dashboard read by id (`Dashboard.get`) is checked against the tiles read from the service.
   */
  tile(name: string): pulumi.Output<string> {
    const said = (dashboardName: unknown) =>
      typeof dashboardName === "string" ? `the dashboard "${dashboardName}"` : `the dashboard ${this.#resourceName}`;
    const check = (dashboardName: unknown, tiles: unknown): string => {
      const problem = tileNameProblem(said(dashboardName), plainTiles(tiles) ?? [], name);
      if (problem !== undefined) throw new TileNotAlertableError(problem);
      return name;
    };
    const declaredTiles = this.#declared.tiles;
    const plain = plainTiles(declaredTiles);
    if (plain !== undefined) check(this.#declared.name, declaredTiles);
    const checked: pulumi.Output<string> =
      declaredTiles === undefined
        ? pulumi.all([this.name, this.tiles]).apply(([n, tiles]) => check(n, tiles))
        : pulumi
            .all([pulumi.output(this.#declared.name), pulumi.output(declaredTiles)])
            .apply(([n, tiles]) => check(n, tiles));
    return pulumi.all([checked, this[TILE_IDS_OUTPUT]]).apply(([tile, ids]) => {
      const id = ids?.[tile];
      if (id === undefined)
        throw new TileNotAlertableError(
          `${said(this.#declared.name)} holds no tile named "${tile}" that takes an alert`,
        );
      return id;
    });
  }
}
