// The PipeSettings class that programs instantiate; its argument and output types are its definition's.

import * as pulumi from "@pulumi/pulumi";
import { PIPE_SETTINGS_RESOURCE } from "../pipeSettings/definition";
import type { PipeSettingsArgs, PipeSettingsOutputs } from "./generated";
import { constructorProps } from "./resource";
import { warnPlainTextInProgram } from "./plainTextConfig";
import shim = require("../pipeSettings/shim");

export interface PipeSettings extends PipeSettingsOutputs {}

/** The settings of one ingestion pipe; only the settings the program sets are managed. */
export class PipeSettings extends pulumi.dynamic.Resource {
  constructor(name: string, args: PipeSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    const made = constructorProps(PIPE_SETTINGS_RESOURCE, args, opts);
    super(shim, name, made.props, made.opts, "alertpipe", "PipeSettings");
    warnPlainTextInProgram();
  }

  /**
   * The live settings of an existing pipe, read and never written by this stack. The id is
   * `organizationId/serviceId/pipeId`; the arguments of a read are not sent anywhere.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): PipeSettings {
    return new PipeSettings(name, {} as PipeSettingsArgs, { ...opts, id });
  }
}
