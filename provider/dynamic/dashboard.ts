import * as pulumi from "@pulumi/pulumi";
import { DASHBOARD } from "../dashboard/definition";
import type { DashboardArgs, DashboardOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../dashboard/shim");

export interface Dashboard extends DashboardOutputs {}

/**
 * A HyperDX dashboard and its tiles. `tileIds` maps each alertable tile (line, stacked bar, number) of
 * a unique name to its id, for tile alerts; a tile keeps its id while it keeps its name or place.
 */
export class Dashboard extends ReadByIdResource {
  constructor(name: string, args: DashboardArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: DASHBOARD, shim, type: "Dashboard" }, name, args, opts);
  }
}
