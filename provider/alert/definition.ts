// The Alert, each property once: what the check, the schema, the class's types, the docs and the
// wire mapping read. Wire names are the properties' own, but for what the answer renames.

import type { OutputRule } from "../protocol/outputRules";
import type { CheckRules, ResourceDefinition } from "../protocol/definition";
import {
  ALERT_SOURCES,
  ALERT_STATES,
  CHANNEL_SEVERITIES,
  CHANNEL_TYPES,
  channelTypeProblem,
  EXECUTION_ERROR_TYPES,
  INTERVALS,
  MAX_CHANNELS,
  SCHEDULE_OFFSET_MAX,
  SCHEDULE_START_AT,
  THRESHOLD_TYPES,
  intervalProblem,
  textProblem,
  thresholdProblem,
  type TextField,
} from "../serviceFacts/alertRules";

const missingOr = (property: string, rule: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${property} is required: ${rule}` : `${property} must be ${rule}`;

/** The service's own rule, worded with the property's name. */
const text =
  (property: TextField) =>
  ({ z }: CheckRules) =>
    z.string({ error: `${property} must be a string` }).superRefine((value, ctx) => {
      const problem = textProblem(property, value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: `${property} ${problem}` });
    });

/** Left out of an answer: the program's value, so a refresh compares like with like. */
const FROM_PROGRAM: OutputRule = { nullMeans: "absent", whenAbsent: ["program"] };
/** An optional argument: as a required one, but null in a read (no program), so it stays managed. */
const FROM_PROGRAM_ELSE_NULL: OutputRule = { nullMeans: "absent", whenAbsent: ["program", { value: null }] };
/** What the service fills in: as it came; the stored value only when there is no alert at all. */
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };

const STRING = { kind: "string" } as const;
const SERVICE_STRING = { type: STRING, role: "output", whenAbsent: FROM_STATE } as const;
/** What the service evaluates and reports: as the last answer says; absent when it says nothing. */
const AS_ANSWERED: OutputRule = { nullMeans: "absent", whenAbsent: [] };

const CHANNEL = {
  kind: "object",
  name: "AlertChannel",
  description:
    "Where the alert notifies: a webhook (Slack, PagerDuty, incident.io or any URL). For email on managed ClickStack, " +
    "set the alert's emailRecipients instead of a channel.",
  fields: {
    type: {
      type: { kind: "enum", name: "AlertChannelType", description: "A channel's type.", values: CHANNEL_TYPES },
      description:
        'The channel type: "webhook". Slack and PagerDuty are webhooks of that service; email is the alert\'s emailRecipients.',
    },
    webhookId: { type: STRING, description: "Identifier of the webhook to notify (non-empty)." },
    webhookService: {
      type: STRING,
      optional: true,
      description:
        'Managed ClickStack only: the webhook\'s service, e.g. "slack_api" for a webhook made in its console.',
    },
    slackChannelId: {
      type: STRING,
      optional: true,
      description: "Managed ClickStack only: the Slack channel a slack_api webhook posts to (e.g. C01ABCDEF23).",
    },
    severity: {
      type: {
        kind: "enum",
        name: "AlertChannelSeverity",
        description: "The severity a pagerduty_api webhook is sent with.",
        values: CHANNEL_SEVERITIES,
      },
      optional: true,
      description:
        'Managed ClickStack only: the severity for a pagerduty_api webhook: "critical", "error", "warning" or "info".',
    },
  },
} as const;

/** A channel's check, its failures named at `at` (e.g. "channels[]"). */
const channelCheck = ({ oneOf, opaqueId, strictObject, z }: CheckRules, at: string) =>
  strictObject(
    {
      type: z.enum(CHANNEL_TYPES, { error: (issue) => channelTypeProblem(at, issue.input) }),
      webhookId: opaqueId(`${at}.webhookId`),
      webhookService: opaqueId(`${at}.webhookService`).optional(),
      slackChannelId: opaqueId(`${at}.slackChannelId`).optional(),
      severity: oneOf(`${at}.severity`, CHANNEL_SEVERITIES).optional(),
    },
    {
      unknownProperty:
        "a channel has type and webhookId, and on managed ClickStack webhookService, slackChannelId and severity",
      notAnObject: missingOr(at, 'an object {type: "webhook", webhookId}'),
    },
  );

/** A whole number from `min` (to `max`), named. */
const integer =
  (property: string, min: number, max?: number) =>
  ({ z }: CheckRules) => {
    const rule = max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    const n = z.number({ error: `${property} must be ${rule}` }).int({ error: `${property} must be ${rule}` });
    const low = n.min(min, { error: `${property} must be ${rule}` });
    return max === undefined ? low : low.max(max, { error: `${property} must be ${rule}` });
  };

/** Compared as instants: the service answers a time with milliseconds whatever form was sent. */
const asInstant = (v: unknown) => {
  if (v === undefined || v === null || v === "") return null;
  const at = typeof v === "string" ? Date.parse(v) : NaN;
  return Number.isNaN(at) ? v : at;
};

export const ALERT = {
  name: "Alert",
  description: "An alert of the alerting API. Every argument changes in place; nothing forces a replacement.",
  notAnObject: "the alert's arguments must be an object",
  properties: {
    threshold: {
      type: { kind: "number" },
      description:
        "The numeric threshold: any finite number (services before 2026 refuse one below 0). The lower bound of a range type.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: ({ z }) =>
        z.number({ error: missingOr("threshold", "a finite number") }).superRefine((value, ctx) => {
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
      description:
        'What the alert watches: a dashboard tile ("tile") or a search ("search"; sent as "saved_search" to a service that ' +
        "spells it so, such as HyperDX's: `alertpipe:alertingDialect`).",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
    },
    thresholdType: {
      type: {
        kind: "enum",
        name: "AlertThresholdType",
        description: "How the value is compared with the threshold (and thresholdMax) to fire the alert.",
        values: THRESHOLD_TYPES,
        meanings: {
          above: "Fires when the value is at or above the threshold.",
          below: "Fires when the value is below the threshold.",
          above_exclusive: "Fires when the value is above the threshold.",
          below_or_equal: "Fires when the value is at or below the threshold.",
          equal: "Fires when the value equals the threshold.",
          not_equal: "Fires when the value differs from the threshold.",
          between: "Fires when the value is from threshold to thresholdMax, both included.",
          not_between: "Fires when the value is below threshold or above thresholdMax.",
        },
      },
      description:
        'How the value is compared with the threshold: "above" (>=), "below" (<), "above_exclusive", "below_or_equal", "equal", ' +
        '"not_equal", or the range types "between" and "not_between", which need thresholdMax.',
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
    },
    thresholdMax: {
      type: { kind: "number" },
      description:
        'The upper bound of a range type ("between", "not_between"): required for those, at least threshold; refused for the other types.',
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      check: ({ z }) =>
        z.number({ error: "thresholdMax must be a finite number" }).superRefine((value, ctx) => {
          const problem = thresholdProblem(value);
          if (problem !== undefined) ctx.addIssue({ code: "custom", message: `thresholdMax ${problem}` });
        }),
    },
    channel: {
      type: CHANNEL,
      description:
        "Where the alert notifies, one channel. Set it, `channels`, or both with `channel` equal to `channels[0]`; alone it means " +
        "the alert has exactly this channel.",
      role: "both",
      required: "output",
      whenAbsent: FROM_PROGRAM,
      check: (rules) => channelCheck(rules, "channel"),
    },
    channels: {
      type: { kind: "array", items: CHANNEL },
      description: `Where the alert notifies: 1 to ${MAX_CHANNELS} channels, no two alike. Answered by services since 2026.`,
      role: "both",
      whenAbsent: FROM_PROGRAM,
      check: (rules) =>
        rules.z
          .array(channelCheck(rules, "channels[]"), {
            error: `channels must be a list of 1 to ${MAX_CHANNELS} channels`,
          })
          .min(1, { error: "channels needs at least one channel (leave it out to set channel alone)" })
          .max(MAX_CHANNELS, { error: `channels holds at most ${MAX_CHANNELS} channels` }),
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
    note: {
      type: STRING,
      description: "Notes for whoever answers the alert, in markdown (1 to 4096 characters); leave it out for none.",
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      check: text("note"),
    },
    numConsecutiveWindows: {
      type: { kind: "integer" },
      description: "How many windows in a row the condition must hold before the alert fires (an integer >= 1).",
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      check: integer("numConsecutiveWindows", 1),
    },
    scheduleOffsetMinutes: {
      type: { kind: "integer" },
      description:
        `Minutes after the interval's start at which the alert is evaluated: an integer from 0 to ${SCHEDULE_OFFSET_MAX}, less than the ` +
        "interval's minutes, and 0 when scheduleStartAt is set.",
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      check: integer("scheduleOffsetMinutes", 0, SCHEDULE_OFFSET_MAX),
    },
    scheduleStartAt: {
      type: STRING,
      description:
        'When the alert\'s windows start: an ISO 8601 UTC date-time ending in Z (e.g. "2026-02-08T10:00:00Z"), within one year ahead ' +
        "and ten years back when it is set or changed.",
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      compared: asInstant,
      check: ({ z }) =>
        z
          .string({ error: "scheduleStartAt must be an ISO 8601 UTC date-time ending in Z" })
          .regex(SCHEDULE_START_AT, {
            error: 'scheduleStartAt must be an ISO 8601 UTC date-time ending in Z, such as "2026-02-08T10:00:00Z"',
          })
          .refine((v) => !Number.isNaN(Date.parse(v)), { error: "scheduleStartAt must be a real date and time" }),
    },
    groupBy: {
      type: STRING,
      description:
        'What a search alert groups its value by (search alerts only; the service drops it on a "tile" alert).',
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      check: ({ opaqueId }) => opaqueId("groupBy"),
    },
    savedSearchId: {
      type: STRING,
      description: "The saved search a search alert watches (search alerts only; required by services since 2026).",
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      answer: ["savedSearchId", "savedSearch"],
      check: ({ opaqueId }) => opaqueId("savedSearchId"),
    },
    emailRecipients: {
      type: { kind: "array", items: STRING },
      description:
        "Managed ClickStack only: the email addresses the alert notifies, instead of a webhook (sent as its one channel " +
        '{type: "email", emailRecipients}); leave channel and channels out. An email alert on a saved search: ' +
        '`{source: "search", savedSearchId, threshold: 10, thresholdType: "above", interval: "5m", ' +
        'emailRecipients: ["oncall@example.com"]}`.',
      role: "both",
      whenAbsent: FROM_PROGRAM_ELSE_NULL,
      check: ({ z }) =>
        z
          .array(z.string({ error: "emailRecipients must be a list of email addresses" }).min(3), {
            error: "emailRecipients must be a list of email addresses",
          })
          .min(1, { error: "emailRecipients needs at least one address" }),
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
    state: {
      ...SERVICE_STRING,
      description: `Current state of the alert as the service evaluates it: one of ${ALERT_STATES.join(", ")} (older services also "inactive"); a string, so a new value breaks nothing.`,
    },
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
    executionErrors: {
      type: {
        kind: "array",
        items: {
          kind: "object",
          name: "AlertExecutionError",
          description: "An error the last evaluation of an alert recorded.",
          fields: {
            timestamp: { type: STRING, description: "When it happened (ISO 8601)." },
            type: { type: STRING, description: `What failed: ${EXECUTION_ERROR_TYPES.join(", ")}.` },
            message: { type: STRING, description: "The service's words." },
          },
        },
      },
      description:
        "Errors the last evaluation recorded, as the service returns them; absent when none. Never a cause of a diff.",
      role: "output",
      whenAbsent: AS_ANSWERED,
    },
    createdAt: {
      ...SERVICE_STRING,
      description: "When the alert was made (ISO 8601, set by the service).",
      stable: true,
    },
    updatedAt: { ...SERVICE_STRING, description: "When the alert last changed (ISO 8601, set by the service)." },
  },
} as const satisfies ResourceDefinition;

/** The inputs that hold another resource's id ("[]": each element): an export writes them as references. */
export const ALERT_REFERENCES = [
  { path: ["channel", "webhookId"], to: "Webhook" },
  { path: ["channels", "[]", "webhookId"], to: "Webhook" },
  { path: ["savedSearchId"], to: "SavedSearch" },
  { path: ["dashboardId"], to: "Dashboard" },
  // A tile's id: a value of the dashboard's (at dashboardId) map by tile name.
  { path: ["tileId"], to: "Dashboard", keyed: { ownerAt: ["dashboardId"] } },
] as const;
