// What each of the Alert's properties means, in the words a user reads: the native plugin's schema
// (and so every generated SDK and the registry docs) takes them from here. No zod, no I/O: the
// resource class can read this file too.

import type { ARG_NAMES, IMPORT_ID } from "./args";
import type { OUTPUT_ONLY } from "./wire";

type AlertProperty = (typeof ARG_NAMES)[number] | typeof IMPORT_ID | (typeof OUTPUT_ONLY)[number];

export const ALERT_DOCS = {
  resource: "An alert of the alerting API. Every argument changes in place; nothing forces a replacement.",
  properties: {
    threshold: "The numeric threshold (a finite number >= 0).",
    interval: "How often the alert is evaluated.",
    source: 'What the alert watches: a dashboard tile ("tile") or a search ("search").',
    thresholdType: "Whether the alert fires above or below the threshold.",
    channel: "Where the alert notifies; a webhook is the only channel type.",
    dashboardId:
      'Dashboard holding the watched tile; required when source is "tile". The service returns it as `dashboard`.',
    tileId: 'The watched tile; required when source is "tile".',
    name: "The alert's name (1 to 512 characters); leave it out for none.",
    message: "The alert's message (1 to 4096 characters); leave it out for none.",
    importId:
      "The id of an existing alert to take over instead of creating one. The create reads it (failing, with nothing created, when there is " +
      "none) and writes the program's values with one PUT only when they differ; it never creates an alert. Once taken over, changing or " +
      "removing importId changes nothing, and the alert is this stack's: a destroy deletes it unless the resource has `retainOnDelete`.",
    state: 'Current state of the alert, e.g. "inactive".',
    team: "Identifier of the owning team.",
    savedSearch: "The saved search the alert watches, as the service returns it.",
    groupBy: "The grouping of the alert, as the service returns it.",
    silenced: "Whether, or until when, the alert is silenced, as the service returns it.",
    createdAt: "When the alert was made (ISO 8601, set by the service).",
    updatedAt: "When the alert last changed (ISO 8601, set by the service).",
  } satisfies Record<AlertProperty, string>,
  channel: {
    type: 'The channel type: "webhook".',
    webhookId: "Identifier of the webhook to notify (non-empty).",
  },
} as const;
