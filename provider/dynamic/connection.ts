import * as pulumi from "@pulumi/pulumi";
import { CONNECTION } from "../connection/definition";
import type { ConnectionArgs, ConnectionOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../connection/shim");

export interface Connection extends ConnectionOutputs {}

/** A ClickHouse connection of a self-hosted HyperDX; its password is a secret, write-only on the service. */
export class Connection extends ReadByIdResource {
  constructor(name: string, args: ConnectionArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: CONNECTION, shim, type: "Connection" }, name, args, opts);
  }
}
