import * as pulumi from "@pulumi/pulumi";
import { CLICK_PIPE_CDC_INFRASTRUCTURE } from "../clickPipeCdcInfrastructure/definition";
import type { ClickPipeCdcInfrastructureArgs, ClickPipeCdcInfrastructureOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../clickPipeCdcInfrastructure/shim");

export interface ClickPipeCdcInfrastructure extends ClickPipeCdcInfrastructureOutputs {}

/**
 * The CDC capacity the database ClickPipes of one ClickHouse Cloud service share. A destroy leaves it
 * as it is (the API has no delete). `get` reads it by the id `organizationId/serviceId`.
 */
export class ClickPipeCdcInfrastructure extends ReadByIdResource {
  constructor(name: string, args: ClickPipeCdcInfrastructureArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: CLICK_PIPE_CDC_INFRASTRUCTURE, shim, type: "ClickPipeCdcInfrastructure" }, name, args, opts);
  }
}
