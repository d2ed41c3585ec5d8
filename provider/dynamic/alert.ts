// The Alert class that programs instantiate; its argument and output types are its definition's.

import * as pulumi from "@pulumi/pulumi";
import { ALERT } from "../alert/definition";
import type { AlertArgs, AlertOutputs } from "./generated";
import { constructorProps } from "./resource";
import { warnPlainTextInProgram } from "./plainTextConfig";
import shim = require("../alert/shim");

export interface Alert extends AlertOutputs {}

/** An alert of the alerting API. Every argument changes in place; nothing forces a replacement. */
export class Alert extends pulumi.dynamic.Resource {
  constructor(name: string, args: AlertArgs, opts?: pulumi.CustomResourceOptions) {
    const made = constructorProps(ALERT, args, opts);
    super(shim, name, made.props, made.opts, "alertpipe", "Alert");
    warnPlainTextInProgram();
  }

  /**
   * An existing alert, read by its id and never created, changed or deleted by this stack. The
   * arguments of a read are not sent anywhere: the id is all the provider needs.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Alert {
    return new Alert(name, {} as AlertArgs, { ...opts, id });
  }
}
