// The Alert resource's schemas: what a program may pass (check), what the service answers, and
// the mapping between the two. The wire names equal the argument names, except that the returned
// object calls the dashboard `dashboard` where the request says `dashboardId`.

import { z } from "zod";
import { UNKNOWN, compact, type CheckFailure, type PropertyMap } from "../lifecycle";
import { oneOf, opaqueId } from "../validation";

export const SOURCES = ["tile", "search"] as const;
export const THRESHOLD_TYPES = ["above", "below"] as const;
export const CHANNEL_TYPES = ["webhook"] as const;

/** A positive whole number and one unit letter: seconds, minutes, hours or days. */
export const INTERVAL = /^[1-9][0-9]*[smhd]$/;

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

const text = (property: string) => z.string({ error: `${property} must be a string` });

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

export const alertArgs = z.strictObject(
  {
    threshold: z.number({ error: missingOr("threshold", "a finite number") }),
    interval: z
      .string({ error: missingOr("interval", 'a string such as "5m" (a positive whole number and one unit letter s, m, h or d)') })
      .regex(INTERVAL, { error: 'interval must be a positive whole number followed by one unit letter s, m, h or d, such as "30s", "5m", "1h" or "1d"' }),
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

export type AlertArgsShape = z.infer<typeof alertArgs>;

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

// What the service answers. Required members are those the spec lists for every alert; members
// that describe optional things may be absent or null.
const nullableText = z.string().nullish();

export const wireAlert = z.object({
  id: z.string().min(1),
  threshold: z.number(),
  interval: z.string(),
  thresholdType: z.enum(THRESHOLD_TYPES),
  source: z.enum(SOURCES),
  channel: z.object({ type: z.string(), webhookId: z.string() }),
  name: nullableText,
  message: nullableText,
  state: nullableText,
  team: nullableText,
  tileId: nullableText,
  dashboard: nullableText,
  savedSearch: nullableText,
  groupBy: nullableText,
  silenced: z.boolean().nullish(),
  createdAt: nullableText,
  updatedAt: nullableText,
});

export type WireAlert = z.infer<typeof wireAlert>;

/** Body of POST /api/v2/alerts and GET/PUT /api/v2/alerts/{id}. */
export const alertEnvelope = z.object({ data: wireAlert });

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

/** The returned alert under the resource's property names (`dashboard` becomes `dashboardId`); null reads as absent. */
export function fromWire(alert: WireAlert): PropertyMap {
  const orUndefined = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
  return {
    threshold: alert.threshold,
    interval: alert.interval,
    source: alert.source,
    thresholdType: alert.thresholdType,
    channel: { type: alert.channel.type, webhookId: alert.channel.webhookId },
    dashboardId: orUndefined(alert.dashboard),
    tileId: orUndefined(alert.tileId),
    name: orUndefined(alert.name),
    message: orUndefined(alert.message),
    state: orUndefined(alert.state),
    team: orUndefined(alert.team),
    savedSearch: orUndefined(alert.savedSearch),
    groupBy: orUndefined(alert.groupBy),
    silenced: orUndefined(alert.silenced),
    createdAt: orUndefined(alert.createdAt),
    updatedAt: orUndefined(alert.updatedAt),
  };
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
