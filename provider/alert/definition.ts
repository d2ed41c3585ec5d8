// The Alert, each property once: what the check, the schema, the class's types, the docs and the
// wire mapping read. Wire names are the properties' own, but for what the answer renames.

import type { OutputRule } from "../protocol/outputRules";
import type { CheckRules, ResourceDefinition } from "../protocol/definition";
import {
  ALERT_SOURCES,
  INTERVALS,
  THRESHOLD_TYPES,
  intervalProblem,
  textProblem,
  thresholdProblem,
  type TextField,
} from "../serviceFacts/alertRules";

const missingOr = (property: string, rule: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${property} is required: ${rule}` : `${property} must be ${rule}`;

/** The service's own rule for a text (serviceFacts/alertRules.ts), worded with the property's name. */
const text =
  (property: TextField) =>
  ({ z }: CheckRules) =>
    z.string({ error: `${property} must be a string` }).superRefine((value, ctx) => {
      const problem = textProblem(property, value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: `${property} ${problem}` });
    });

/** An argument the answer nulls or leaves out: the program's value, so a refresh compares like with like. */
const FROM_PROGRAM: OutputRule = { nullMeans: "absent", whenAbsent: ["program"] };
/** An optional argument: as a required one, but null in a read (no program), so it stays managed. */
const FROM_PROGRAM_ELSE_NULL: OutputRule = { nullMeans: "absent", whenAbsent: ["program", { value: null }] };
/** What the service fills in: as it came; the stored value only when there is no alert at all. */
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };

const STRING = { kind: "string" } as const;
const SERVICE_STRING = { type: STRING, role: "output", whenAbsent: FROM_STATE } as const;

export const ALERT = {
  name: "Alert",
  description: "An alert of the alerting API. Every argument changes in place; nothing forces a replacement.",
  importIdForm: ["alertId"],
  notAnObject: "the alert's arguments must be an object",
  properties: {
    threshold: {
      type: { kind: "number" },
      description: "The numeric threshold (a finite number >= 0).",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: ({ z }) =>
        z.number({ error: missingOr("threshold", "a finite number >= 0") }).superRefine((value, ctx) => {
          const problem = thresholdProblem(value);
          if (problem !== undefined) ctx.addIssue({ code: "custom", message: `threshold ${problem}` });
        }),
    },
    interval: {
      type: {
        kind: "enum",
        name: "AlertInterval",
        description: "How often an alert is evaluated: the only intervals the service accepts.",
        values: INTERVALS,
      },
      description: "How often the alert is evaluated.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: ({ z }) =>
        z
          .string({ error: missingOr("interval", `one of ${INTERVALS.map((i) => `"${i}"`).join(", ")}`) })
          .superRefine((value, ctx) => {
            const problem = intervalProblem(value);
            if (problem !== undefined) ctx.addIssue({ code: "custom", message: `interval ${problem}` });
          }),
    },
    source: {
      type: {
        kind: "enum",
        name: "AlertSource",
        description: "What an alert watches.",
        values: ALERT_SOURCES,
        meanings: { tile: "A tile on a dashboard.", search: "A search." },
      },
      description: 'What the alert watches: a dashboard tile ("tile") or a search ("search").',
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
    },
    thresholdType: {
      type: {
        kind: "enum",
        name: "AlertThresholdType",
        description: "Which side of the threshold fires the alert.",
        values: THRESHOLD_TYPES,
      },
      description: "Whether the alert fires above or below the threshold.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
    },
    channel: {
      type: {
        kind: "object",
        name: "AlertChannel",
        description: "Where the alert notifies; a webhook is the only channel type.",
        fields: {
          type: {
            type: { kind: "enum", name: "AlertChannelType", description: "A channel's type.", values: ["webhook"] },
            description: 'The channel type: "webhook".',
          },
          webhookId: { type: STRING, description: "Identifier of the webhook to notify (non-empty)." },
        },
      },
      description: "Where the alert notifies; a webhook is the only channel type.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: ({ oneOf, opaqueId, strictObject }) =>
        strictObject(
          { type: oneOf("channel.type", ["webhook"]), webhookId: opaqueId("channel.webhookId") },
          {
            unknownProperty: "a channel has only type and webhookId",
            notAnObject: missingOr("channel", 'an object {type: "webhook", webhookId}'),
          },
        ),
    },
    dashboardId: {
      type: STRING,
      description:
        'Dashboard holding the watched tile; required when source is "tile". The service returns it as `dashboard`.',
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      answer: ["dashboard", "dashboardId"],
      check: ({ opaqueId }) => opaqueId("dashboardId"),
    },
    tileId: {
      type: STRING,
      description: 'The watched tile; required when source is "tile".',
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      check: ({ opaqueId }) => opaqueId("tileId"),
    },
    name: {
      type: STRING,
      description: "The alert's name (1 to 512 characters); leave it out for none.",
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      compared: (v) => (v === "" || v === null || v === undefined ? "" : v),
      check: text("name"),
    },
    message: {
      type: STRING,
      description: "The alert's message (1 to 4096 characters); leave it out for none.",
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      compared: (v) => (v === "" || v === null || v === undefined ? "" : v),
      check: text("message"),
    },
    importId: {
      type: STRING,
      description:
        "The id of an existing alert to take over instead of creating one. The create reads it (failing, with nothing created, when there is " +
        "none) and writes the program's values with one PUT only when they differ; it never creates an alert. Once taken over, changing or " +
        "removing importId changes nothing, and the alert is this stack's: a destroy deletes it unless the resource has `retainOnDelete`.",
      role: "input",
      wire: false,
      // The real service publishes no format for its ids (the emulator's are 24 hex digits).
      check: ({ opaquePathId }) => opaquePathId("importId"),
    },
    state: { ...SERVICE_STRING, description: 'Current state of the alert, e.g. "inactive".' },
    team: {
      ...SERVICE_STRING,
      description: "Identifier of the owning team.",
      answer: ["team", "teamId"],
      stable: true,
    },
    savedSearch: {
      ...SERVICE_STRING,
      description: "The saved search the alert watches, as the service returns it.",
      answer: ["savedSearch", "savedSearchId"],
    },
    groupBy: { ...SERVICE_STRING, description: "The grouping of the alert, as the service returns it." },
    silenced: {
      type: {
        kind: "any",
        ts: "AlertSilence | boolean",
        declares: [
          "/**",
          " * Who silenced the alert, when and until when, as the real service answers `silenced` once someone",
          " * silences it (docs/design/real-services.md): ISO 8601 times, `until` null for no end. Kept as it came.",
          " */",
          "export interface AlertSilence {",
          "  readonly by?: string;",
          "  readonly at?: string;",
          "  readonly until?: string | null;",
          "}",
        ].join("\n"),
      },
      description: "Whether, or until when, the alert is silenced, as the service returns it.",
      role: "output",
      whenAbsent: FROM_STATE,
    },
    createdAt: {
      ...SERVICE_STRING,
      description: "When the alert was made (ISO 8601, set by the service).",
      stable: true,
    },
    updatedAt: { ...SERVICE_STRING, description: "When the alert last changed (ISO 8601, set by the service)." },
  },
} as const satisfies ResourceDefinition;
