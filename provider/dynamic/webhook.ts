import * as pulumi from "@pulumi/pulumi";
import { WEBHOOK } from "../webhook/definition";
import type { WebhookArgs, WebhookOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../webhook/shim");

export interface Webhook extends WebhookOutputs {}

/**
 * A webhook of the alerting API: where an alert notifies (`channel: { type: "webhook", webhookId: hook.id }`).
 * headers and queryParams are secret and write-only: kept in the state, sent on every update, never read back.
 */
export class Webhook extends ReadByIdResource {
  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: WEBHOOK, shim, type: "Webhook" }, name, args, opts);
  }
}
