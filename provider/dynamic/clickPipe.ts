import * as pulumi from "@pulumi/pulumi";
import { CLICK_PIPE } from "../clickPipe/definition";
import type { ClickPipeArgs, ClickPipeOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../clickPipe/shim");

export interface ClickPipe extends ClickPipeOutputs {}

/**
 * A ClickPipe of a ClickHouse Cloud service: source, destination, field mappings, settings, scaling and
 * `stopped`. `credentials` are secret and write-only. `get` reads one by `organizationId/serviceId/clickPipeId`.
 */
export class ClickPipe extends ReadByIdResource {
  constructor(name: string, args: ClickPipeArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: CLICK_PIPE, shim, type: "ClickPipe" }, name, args, opts);
  }
}
