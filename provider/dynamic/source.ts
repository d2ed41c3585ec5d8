import * as pulumi from "@pulumi/pulumi";
import { SOURCE } from "../source/definition";
import type { SourceArgs, SourceOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../source/shim");

export interface Source extends SourceOutputs {}

/**
 * A HyperDX source of one kind; its delete is refused while saved searches or dashboards outside the
 * stack use it, since the service would leave them broken.
 */
export class Source extends ReadByIdResource {
  constructor(name: string, args: SourceArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: SOURCE, shim, type: "Source" }, name, args, opts);
  }
}
