// The PipeSettings resource class that programs instantiate.

import * as pulumi from "@pulumi/pulumi";
import { SETTING_NAMES, type SettingName, type SettingValue } from "../serviceFacts/pipeSettings";
import { unsetOutputs } from "./unsetOutputs";
import { warnPlainTextInProgram } from "./plainTextConfig";
import shim = require("../pipeSettings/shim");

type SettingInputs = { [N in SettingName]?: pulumi.Input<SettingValue<N>> };

export interface PipeSettingsArgs extends SettingInputs {
  /** Organization that owns the service (uuid). Changing it replaces the resource. */
  organizationId: pulumi.Input<string>;
  /** Service that owns the pipe (uuid). Changing it replaces the resource. */
  serviceId: pulumi.Input<string>;
  /** Pipe whose settings are managed (uuid). Changing it replaces the resource. */
  pipeId: pulumi.Input<string>;
  /** On destroy, send null (unset) for every managed setting. Default false: settings stay as they are live. */
  resetOnDelete?: pulumi.Input<boolean>;
}

type SettingOutputs = { readonly [N in SettingName]: pulumi.Output<SettingValue<N>> };

/** The settings of one ingestion pipe; only the settings the program sets are managed. */
export interface PipeSettings extends SettingOutputs {}

export class PipeSettings extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly serviceId: pulumi.Output<string>;
  declare readonly pipeId: pulumi.Output<string>;
  declare readonly resetOnDelete: pulumi.Output<boolean | undefined>;
  /** camelCase names of the settings this program sets; drift, update and delete act on these alone. */
  declare readonly managedSettings: pulumi.Output<SettingName[]>;

  constructor(name: string, args: PipeSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    const ref = unsetOutputs(["organizationId", "serviceId", "pipeId"]);
    super(
      shim,
      name,
      { ...ref, ...unsetOutputs(SETTING_NAMES), ...args, ...unsetOutputs(["managedSettings"]) },
      opts,
      "alertpipe",
      "PipeSettings",
    );
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
