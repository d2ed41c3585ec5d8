import * as pulumi from "@pulumi/pulumi";
import { PIPE_SETTINGS_RESOURCE } from "../pipeSettings/definition";
import type { PipeSettingsArgs, PipeSettingsOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../pipeSettings/shim");

export interface PipeSettings extends PipeSettingsOutputs {}

/**
 * The settings of one ingestion pipe; only the settings the program sets are managed. `get` reads the
 * live settings of an existing pipe, never written by this stack, by the id `organizationId/serviceId/pipeId`.
 */
export class PipeSettings extends ReadByIdResource {
  constructor(name: string, args: PipeSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: PIPE_SETTINGS_RESOURCE, shim, type: "PipeSettings" }, name, args, opts);
  }
}
