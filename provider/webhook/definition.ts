// The Webhook, each property once. headers, queryParams and an incidentio body are never returned:
// they are kept secret, as the program set them.

import type { CheckRules, ResourceDefinition } from "../protocol/definition";
import type { OutputRule } from "../protocol/outputRules";
import { limited, trimmedName } from "../protocol/commonProperties";
import {
  WEBHOOK_LIMITS,
  WEBHOOK_SERVICES,
  headersProblems,
  webhookServiceProblem,
  queryParamsProblems,
  webhookNameProblem,
  webhookUrlProblem,
  type FieldProblem,
} from "../serviceFacts/webhooks";

const STRING = { kind: "string" } as const;
const STRING_MAP = { kind: "map", values: STRING } as const;
/** As the answer has it; absent when it has none. */
const AS_ANSWERED: OutputRule = { nullMeans: "absent", whenAbsent: [] };
/** Filled in by the service: as it came, else as stored. */
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };
const unset = (v: unknown) => v === undefined || v === null || v === "";

/** Each problem names the property and the key. */
const stringMap =
  (property: string, problems: (map: Record<string, unknown>) => FieldProblem[]) =>
  ({ z }: CheckRules) =>
    z.record(z.string(), z.unknown(), { error: `${property} must be an object of strings` }).superRefine((map, ctx) => {
      for (const p of problems(map)) {
        const where = p.key === undefined ? "" : ` (${property === "headers" ? "header" : "parameter"} "${p.key}")`;
        ctx.addIssue({ code: "custom", message: `${property}${where}: ${p.message}` });
      }
    });

export const WEBHOOK = {
  name: "Webhook",
  description:
    "A webhook of the alerting API: where an alert notifies. headers and queryParams are write-only on the service: kept in the " +
    "state as secrets, sent on every update, and never read back, so a refresh cannot see their drift.",
  notAnObject: "the webhook's arguments must be an object",
  properties: {
    name: trimmedName(
      "The webhook's name (1 to 1024 characters once trimmed); unique among the team's webhooks of its service.",
      (value) => {
        const problem = webhookNameProblem(value);
        return problem === undefined ? undefined : `name: ${problem} once trimmed`;
      },
    ),
    service: {
      type: {
        kind: "enum",
        name: "WebhookService",
        description: "Where a webhook delivers.",
        values: WEBHOOK_SERVICES,
        meanings: {
          slack: "A Slack incoming webhook (its host ends in slack.com).",
          generic: "Any HTTP(S) receiver.",
          incidentio: "An incident.io alert source.",
        },
      },
      description:
        'The receiving service: "slack", "generic" or "incidentio". Changes in place. Webhooks of "slack_api" or "pagerduty_api" ' +
        "(managed ClickStack's, made in its console) are read with getWebhook, never made.",
      role: "both",
      required: true,
      whenAbsent: { nullMeans: "absent", whenAbsent: ["program"] },
      check: ({ z }) =>
        z.unknown().superRefine((value, ctx) => {
          const problem = webhookServiceProblem(value);
          if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
        }),
    },
    url: {
      type: STRING,
      description:
        "Where it delivers: http or https, at most 2048 characters; not localhost nor a private or reserved address; a slack " +
        "webhook's host ends in slack.com. The service returns it in plain text.",
      role: "both",
      required: true,
      whenAbsent: { nullMeans: "absent", whenAbsent: ["program"] },
      check: ({ z }) =>
        z.string({ error: "url is required: an http or https URL" }).superRefine((value, ctx) => {
          // The slack host rule needs the service: behaviour's crossFieldFailures checks it.
          const problem = webhookUrlProblem("generic", value);
          if (problem !== undefined) ctx.addIssue({ code: "custom", message: `url: ${problem}` });
        }),
    },
    description: {
      type: STRING,
      description: "What the webhook is for (at most 2048 characters); leave it out for none.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: (v) => (unset(v) ? "" : v),
      check: limited("description", WEBHOOK_LIMITS.description),
    },
    body: {
      type: STRING,
      description:
        "The request body template (at most 16 KiB); generic and incidentio only. An incidentio webhook's body is write-only, as headers.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: (v) => (unset(v) ? "" : v),
      check: limited("body", WEBHOOK_LIMITS.body),
    },
    headers: {
      type: STRING_MAP,
      description:
        "Headers sent with each delivery (at most 100; names HTTP tokens of 1 to 256 characters, not starting with a digit; values at most " +
        "4096 characters without control characters); generic and incidentio only. Secret and write-only.",
      role: "both",
      secret: true,
      whenAbsent: AS_ANSWERED,
      compared: (v) => (v === undefined || v === null ? {} : v),
      check: stringMap("headers", headersProblems),
    },
    queryParams: {
      type: STRING_MAP,
      description:
        "Query parameters added to the url (at most 100; names 1 to 1024 characters, values at most 4096, no control characters); " +
        "generic and incidentio only. Secret and write-only.",
      role: "both",
      secret: true,
      whenAbsent: AS_ANSWERED,
      compared: (v) => (v === undefined || v === null ? {} : v),
      check: stringMap("queryParams", queryParamsProblems),
    },
    writeOnlyRevision: {
      type: STRING,
      description:
        "Any text, never sent: changing it updates the webhook in place, which sends headers, queryParams and body again (a refresh " +
        "cannot see their drift, since the service never returns them).",
      role: "both",
      wire: false,
      whenAbsent: AS_ANSWERED,
      check: limited("writeOnlyRevision", 1024),
    },
    importId: {
      type: STRING,
      description:
        "The id of an existing webhook to take over instead of creating one. The create finds it in the list (the service has no GET of " +
        "one webhook; failing, with nothing created, when the list does not hold it) and writes the program's whole body with one PUT " +
        "when the readable fields differ or the program sets any write-only field (headers, queryParams, an incidentio body: they " +
        "cannot be read, so they are sent); it never creates a webhook. Once taken over, changing or removing importId changes " +
        "nothing, and a destroy deletes the webhook unless the resource has `retainOnDelete`.",
      role: "input",
      wire: false,
      check: ({ opaquePathId }) => opaquePathId("importId"),
    },
    createdAt: {
      type: STRING,
      description: "When the webhook was made (ISO 8601, set by the service).",
      role: "output",
      stable: true,
      whenAbsent: FROM_STATE,
    },
    updatedAt: {
      type: STRING,
      description: "When the webhook last changed (ISO 8601, set by the service).",
      role: "output",
      whenAbsent: FROM_STATE,
    },
  },
} as const satisfies ResourceDefinition;

/** Never in an answer, or never sent. */
export function isWriteOnly(name: string, values: Readonly<Record<string, unknown>>): boolean {
  return (
    name === "headers" ||
    name === "queryParams" ||
    name === "writeOnlyRevision" ||
    (name === "body" && values.service === "incidentio")
  );
}
