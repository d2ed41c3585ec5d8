import * as pulumi from "@pulumi/pulumi";
import { ALERT } from "../alert/definition";
import type { AlertArgs, AlertOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../alert/shim");

export interface Alert extends AlertOutputs {}

/** An alert of the alerting API. Every argument changes in place; nothing forces a replacement. */
export class Alert extends ReadByIdResource {
  constructor(name: string, args: AlertArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: ALERT, shim, type: "Alert" }, name, args, opts);
  }
}
