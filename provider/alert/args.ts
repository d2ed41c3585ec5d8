// The Alert resource's arguments: what a program may pass (check's schema and the rules between
// properties), which of them are managed, and how their values compare.

import type * as pulumi from "@pulumi/pulumi";
import { z } from "../protocol/zod";
import {
  ALERT_SOURCES,
  INTERVALS,
  THRESHOLD_TYPES,
  intervalProblem,
  textProblem,
  thresholdProblem,
  type TextField,
} from "../serviceFacts/alertRules";
import { UNKNOWN, type PropertyMap } from "../protocol/properties";
import { oneOf, opaqueId, opaquePathId, strictObject } from "../protocol/validation";

export const CHANNEL_TYPES = ["webhook"] as const;

/** Arguments the program must set; always managed. */
export const REQUIRED_ARGS = ["threshold", "interval", "source", "thresholdType", "channel"] as const;
/** Arguments the program may set; managed only when it does. */
export const OPTIONAL_ARGS = ["dashboardId", "tileId", "name", "message"] as const;
export const ARG_NAMES = [...REQUIRED_ARGS, ...OPTIONAL_ARGS] as const;
/**
 * The id of an existing alert to take over at create instead of making one. Not an argument of
 * the alert: never sent, never compared, never recorded. Nothing replaces an alert but
 * `pulumi up --replace`, whose create takes the same alert over again and whose delete then leaves
 * it alone (provider/creation/importing.ts).
 */
export const IMPORT_ID = "importId";

const missingOr = (property: string, rule: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${property} is required: ${rule}` : `${property} must be ${rule}`;

// The service's own rules (facts/alertRules.ts), worded with the property's name.
const text = (property: TextField) =>
  z.string({ error: `${property} must be a string` }).superRefine((value, ctx) => {
    const problem = textProblem(property, value);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: `${property} ${problem}` });
  });

const channelArgs = strictObject(
  {
    type: oneOf("channel.type", CHANNEL_TYPES),
    webhookId: opaqueId("channel.webhookId"),
  },
  {
    unknownProperty: "a channel has only type and webhookId",
    notAnObject: missingOr("channel", 'an object {type: "webhook", webhookId}'),
  },
);

export const alertArgsSchema = strictObject(
  {
    threshold: z.number({ error: missingOr("threshold", "a finite number >= 0") }).superRefine((value, ctx) => {
      const problem = thresholdProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: `threshold ${problem}` });
    }),
    interval: z
      .string({ error: missingOr("interval", `one of ${INTERVALS.map((i) => `"${i}"`).join(", ")}`) })
      .superRefine((value, ctx) => {
        const problem = intervalProblem(value);
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: `interval ${problem}` });
      }),
    source: oneOf("source", ALERT_SOURCES),
    thresholdType: oneOf("thresholdType", THRESHOLD_TYPES),
    channel: channelArgs,
    dashboardId: opaqueId("dashboardId").optional(),
    tileId: opaqueId("tileId").optional(),
    name: text("name").optional(),
    message: text("message").optional(),
    // The real service does not publish a format for its ids (the emulator's are 24 hex digits).
    [IMPORT_ID]: opaquePathId(IMPORT_ID).optional(),
  },
  {
    unknownProperty: `the properties are ${[...ARG_NAMES, IMPORT_ID].join(", ")}`,
    notAnObject: "the alert's arguments must be an object",
  },
);

/**
 * Rules between properties, kept out of the zod schema so they run whatever else is wrong. A
 * source that is still unknown in preview demands nothing; it is checked again once known.
 */
export function crossFieldFailures(inputs: PropertyMap): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  if (inputs.source === "tile") {
    for (const property of ["dashboardId", "tileId"] as const) {
      if (inputs[property] === undefined || inputs[property] === null) {
        failures.push({
          property,
          reason: `${property} is required when source is "tile" (the alert watches a tile on a dashboard)`,
        });
      }
    }
  }
  return failures;
}

/** Free-text arguments, where "", null and absent all mean "none". */
const TEXT_ARGS: readonly string[] = ["name", "message"];

/**
 * A value in the form diff compares: an empty text and none are the same, so a service that
 * answers "" as null (or leaves it out) causes no diff, neither after create nor after refresh.
 */
export function comparedForm(name: string, value: unknown): unknown {
  return TEXT_ARGS.includes(name) && (value === "" || value === null || value === undefined) ? "" : value;
}

/** Words naming the alert for an error whose outcome is unknown. */
export function describeAlert(inputs: PropertyMap): string {
  const known = (v: unknown): v is string => typeof v === "string" && v !== "" && v !== UNKNOWN;
  if (known(inputs.name)) return `the alert "${inputs.name}"`;
  if (known(inputs.dashboardId) && known(inputs.tileId)) return `the alert "${inputs.dashboardId}/${inputs.tileId}"`;
  return `the ${String(inputs.source)} alert "${String(inputs.thresholdType)} ${String(inputs.threshold)} every ${String(inputs.interval)}"`;
}
