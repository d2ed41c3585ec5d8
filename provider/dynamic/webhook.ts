// The Webhook class that programs instantiate; its argument and output types are its definition's.

import * as pulumi from "@pulumi/pulumi";
import { WEBHOOK } from "../webhook/definition";
import type { WebhookArgs, WebhookOutputs } from "./generated";
import { constructorProps } from "./resource";
import shim = require("../webhook/shim");

export interface Webhook extends WebhookOutputs {}

/**
 * A webhook of the alerting API: where an alert notifies (`channel: { type: "webhook", webhookId: hook.id }`).
 * headers and queryParams are secret and write-only: kept in the state, sent on every update, never read back.
 */
export class Webhook extends pulumi.dynamic.Resource {
  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    const made = constructorProps(WEBHOOK, args, opts);
    super(shim, name, made.props, made.opts, "alertpipe", "Webhook");
  }

  /** An existing webhook, read by its id (through the list) and never created, changed or deleted by this stack. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Webhook {
    return new Webhook(name, {} as WebhookArgs, { ...opts, id });
  }
}
