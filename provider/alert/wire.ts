// The Alert resource's schemas: what a program may pass (check), what the service answers, and
// the mapping between the two. The wire names equal the argument names, except that the returned
// object calls the dashboard `dashboard` where the request says `dashboardId`.

import { z } from "zod";
import { UNKNOWN, compact, type CheckFailure, type PropertyMap } from "../lifecycle";
import { oneOf, opaqueId } from "../validation";
import { INTERVALS, intervalProblem, textProblem, thresholdProblem, type TextField } from "../facts/alertRules";

export const SOURCES = ["tile", "search"] as const;
export const THRESHOLD_TYPES = ["above", "below"] as const;
export const CHANNEL_TYPES = ["webhook"] as const;

export { INTERVALS };

/** Arguments the program must set; always managed. */
export const REQUIRED_ARGS = ["threshold", "interval", "source", "thresholdType", "channel"] as const;
/** Arguments the program may set; managed only when it does. */
export const OPTIONAL_ARGS = ["dashboardId", "tileId", "name", "message"] as const;
export const ARG_NAMES = [...REQUIRED_ARGS, ...OPTIONAL_ARGS] as const;
export type ArgName = (typeof ARG_NAMES)[number];

/** Properties the service fills in; never set by the program. */
export const OUTPUT_ONLY = ["state", "team", "savedSearch", "groupBy", "silenced", "createdAt", "updatedAt"] as const;

const missingOr = (property: string, what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${property} is required: ${what}` : `${property} must be ${what}`;

// The service's own rules (rules.ts), worded with the property's name.
const text = (property: TextField) =>
  z.string({ error: `${property} must be a string` }).superRefine((value, ctx) => {
    const problem = textProblem(property, value);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: `${property} ${problem}` });
  });

const channelArgs = z.strictObject(
  {
    type: oneOf("channel.type", CHANNEL_TYPES),
    webhookId: opaqueId("channel.webhookId"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? "unknown property; a channel has only type and webhookId"
        : issue.code === "invalid_type"
          ? missingOr("channel", 'an object {type: "webhook", webhookId}')(issue)
          : undefined,
  },
);

export const alertArgsSchema = z.strictObject(
  {
    threshold: z.number({ error: missingOr("threshold", "a finite number >= 0") }).superRefine((value, ctx) => {
      const problem = thresholdProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: `threshold ${problem}` });
    }),
    interval: z.string({ error: missingOr("interval", `one of ${INTERVALS.map((i) => `"${i}"`).join(", ")}`) }).superRefine((value, ctx) => {
      const problem = intervalProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: `interval ${problem}` });
    }),
    source: oneOf("source", SOURCES),
    thresholdType: oneOf("thresholdType", THRESHOLD_TYPES),
    channel: channelArgs,
    dashboardId: opaqueId("dashboardId").optional(),
    tileId: opaqueId("tileId").optional(),
    name: text("name").optional(),
    message: text("message").optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown property; the properties are ${ARG_NAMES.join(", ")}`
        : issue.code === "invalid_type"
          ? "the alert's arguments must be an object"
          : undefined,
  },
);

export type CheckedAlertArgs = z.infer<typeof alertArgsSchema>;

/**
 * Rules between properties, kept out of the zod schema so they run whatever else is wrong. A
 * source that is still unknown in preview demands nothing; it is checked again once known.
 */
export function crossFieldFailures(inputs: PropertyMap): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (inputs.source === "tile") {
    for (const property of ["dashboardId", "tileId"] as const) {
      if (inputs[property] === undefined || inputs[property] === null) {
        failures.push({ property, reason: `${property} is required when source is "tile" (the alert watches a tile on a dashboard)` });
      }
    }
  }
  return failures;
}

// What the service answers, read liberally: the real service leaves out members with no value,
// sends `silenced` as an object once someone silences the alert, answers any `state` string, and
// later versions rename members and add others. Nothing here fails on a member's shape: outputs
// hold each value as it came. Only a create answer without an id is broken (see provider.ts).

/** The alert in an answer's `data`, when there is one: any object, members unchecked. */
export const alertAnswer = z.object({ data: z.record(z.string(), z.unknown()) });

/** The id of the alert in an answer, when it has a usable one. */
export const createdAlert = z.object({ data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }) });

export type WireAlert = Record<string, unknown>;

/** The alert of a 2xx answer, or undefined when its body holds none (an empty body, plain text). */
export function alertIn(body: unknown): WireAlert | undefined {
  const parsed = alertAnswer.safeParse(body);
  return parsed.success ? parsed.data.data : undefined;
}

/** The request body from the program's inputs: the argument names, absent optionals left out. */
export function toWire(inputs: PropertyMap): Record<string, unknown> {
  const channel = inputs.channel as { type?: unknown; webhookId?: unknown } | undefined;
  return compact({
    threshold: inputs.threshold,
    interval: inputs.interval,
    source: inputs.source,
    thresholdType: inputs.thresholdType,
    channel: channel === undefined ? undefined : { type: channel.type, webhookId: channel.webhookId },
    dashboardId: inputs.dashboardId ?? undefined,
    tileId: inputs.tileId ?? undefined,
    name: inputs.name ?? undefined,
    message: inputs.message ?? undefined,
  });
}

/**
 * The returned alert under the resource's property names, each value as it came; null reads as
 * absent. `dashboard` becomes `dashboardId`; the later names (`teamId`, `dashboardId`,
 * `savedSearchId`) are read where the contract's are missing.
 */
export function fromWire(alert: WireAlert): PropertyMap {
  const first = (...names: string[]): unknown => {
    for (const n of names) if (alert[n] !== undefined && alert[n] !== null) return alert[n];
    return undefined;
  };
  return compact({
    threshold: first("threshold"),
    interval: first("interval"),
    source: first("source"),
    thresholdType: first("thresholdType"),
    channel: first("channel"),
    dashboardId: first("dashboard", "dashboardId"),
    tileId: first("tileId"),
    name: first("name"),
    message: first("message"),
    state: first("state"),
    team: first("team", "teamId"),
    savedSearch: first("savedSearch", "savedSearchId"),
    groupBy: first("groupBy"),
    silenced: first("silenced"),
    createdAt: first("createdAt"),
    updatedAt: first("updatedAt"),
  });
}

/** The optional arguments the program sets (recorded in outputs only when it does; null counts). */
/** Free-text arguments, where "", null and absent all mean "none". */
const TEXT_ARGS: readonly string[] = ["name", "message"];

/**
 * A value in the form diff compares: an empty text and none are the same, so a service that
 * answers "" as null (or leaves it out) causes no diff, neither after create nor after refresh.
 */
export function comparable(name: string, value: unknown): unknown {
  return TEXT_ARGS.includes(name) && (value === "" || value === null || value === undefined) ? "" : value;
}

export function managedOptionals(props: PropertyMap): (typeof OPTIONAL_ARGS)[number][] {
  return OPTIONAL_ARGS.filter((n) => n in props && props[n] !== undefined);
}

/** Words naming the alert for an error whose outcome is unknown. */
export function describeAlert(inputs: PropertyMap): string {
  const known = (v: unknown): v is string => typeof v === "string" && v !== "" && v !== UNKNOWN;
  if (known(inputs.name)) return `the alert "${inputs.name}"`;
  if (known(inputs.dashboardId) && known(inputs.tileId)) return `the alert "${inputs.dashboardId}/${inputs.tileId}"`;
  return `the ${String(inputs.source)} alert "${String(inputs.thresholdType)} ${String(inputs.threshold)} every ${String(inputs.interval)}"`;
}

export function alertsPath(id?: string): string {
  return id === undefined ? "/api/v2/alerts" : `/api/v2/alerts/${encodeURIComponent(id)}`;
}
