// The Alert resource class that programs instantiate.

import * as pulumi from "@pulumi/pulumi";
import { unsetOutputs } from "./unsetOutputs";
import { warnPlainTextInProgram } from "./plainTextConfig";
import shim = require("../alert/shim");

import type { AlertSource, INTERVALS, ThresholdType as AlertThresholdType } from "../serviceFacts/alertRules";

export type { AlertSource, AlertThresholdType };

/** The intervals the service accepts, from the list check holds values to (serviceFacts/alertRules.ts). */
export type AlertInterval = (typeof INTERVALS)[number];

/**
 * Who silenced the alert, when and until when, as the real service answers `silenced` once someone
 * silences it in its UI (../shared/spec/real-services.md): by whom, and ISO 8601 times, `until` null
 * for no end. The provider keeps the object as it came and checks none of its members.
 */
export interface AlertSilence {
  readonly by?: string;
  readonly at?: string;
  readonly until?: string | null;
}

/** Where the alert notifies; a webhook is the only channel type. */
export interface AlertChannelArgs {
  type: pulumi.Input<"webhook">;
  /** Identifier of the webhook to notify (non-empty). */
  webhookId: pulumi.Input<string>;
}

export interface AlertChannel {
  type: string;
  webhookId: string;
}

export interface AlertArgs {
  /** The numeric threshold (a finite number). */
  threshold: pulumi.Input<number>;
  /** How often the alert is evaluated: one of "1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d". */
  interval: pulumi.Input<AlertInterval>;
  /** What the alert watches: a dashboard tile or a search. */
  source: pulumi.Input<AlertSource>;
  /** Whether the alert fires above or below the threshold. */
  thresholdType: pulumi.Input<AlertThresholdType>;
  channel: pulumi.Input<AlertChannelArgs>;
  /** Dashboard holding the watched tile; required when source is "tile". */
  dashboardId?: pulumi.Input<string>;
  /** The watched tile; required when source is "tile". */
  tileId?: pulumi.Input<string>;
  name?: pulumi.Input<string>;
  message?: pulumi.Input<string>;
  /**
   * The id of an existing alert to take over instead of creating one (non-empty). The create reads
   * it (failing, with nothing created, when there is none) and writes the program's values with
   * one PUT only when they differ; it never creates an alert. Once taken over, changing or removing
   * importId changes nothing, and the alert is this stack's: a destroy deletes it unless the
   * resource has `retainOnDelete`.
   */
  importId?: pulumi.Input<string>;
}

/** An alert of the alerting API. Every argument changes in place; nothing forces a replacement. */
export class Alert extends pulumi.dynamic.Resource {
  declare readonly threshold: pulumi.Output<number>;
  declare readonly interval: pulumi.Output<AlertInterval>;
  declare readonly source: pulumi.Output<AlertSource>;
  declare readonly thresholdType: pulumi.Output<AlertThresholdType>;
  declare readonly channel: pulumi.Output<AlertChannel>;
  /** The dashboard, as the service returns it (its `dashboard` field); recorded only when the program sets it. */
  declare readonly dashboardId: pulumi.Output<string | undefined>;
  declare readonly tileId: pulumi.Output<string | undefined>;
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly message: pulumi.Output<string | undefined>;
  /** Current state of the alert, e.g. "inactive". */
  declare readonly state: pulumi.Output<string | undefined>;
  /** Identifier of the owning team. */
  declare readonly team: pulumi.Output<string | undefined>;
  declare readonly savedSearch: pulumi.Output<string | undefined>;
  declare readonly groupBy: pulumi.Output<string | undefined>;
  /**
   * Absent until someone silences the alert, then the service's object (AlertSilence). The contract
   * says a boolean, so a service that answers one is kept as it came too.
   */
  declare readonly silenced: pulumi.Output<AlertSilence | boolean | undefined>;
  /** ISO 8601 timestamps set by the service. */
  declare readonly createdAt: pulumi.Output<string | undefined>;
  declare readonly updatedAt: pulumi.Output<string | undefined>;

  constructor(name: string, args: AlertArgs, opts?: pulumi.CustomResourceOptions) {
    // The required ones too, for a read by id (get), which passes no arguments.
    const required = unsetOutputs(["threshold", "interval", "source", "thresholdType", "channel"]);
    const optional = unsetOutputs(["dashboardId", "tileId", "name", "message"]);
    const outputOnly = unsetOutputs(["state", "team", "savedSearch", "groupBy", "silenced", "createdAt", "updatedAt"]);
    super(shim, name, { ...required, ...optional, ...args, ...outputOnly }, opts, "alertpipe", "Alert");
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
