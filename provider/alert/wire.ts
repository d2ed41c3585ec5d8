// The Alert resource's wire: what the service answers, how each answered member becomes an output,
// and the request body. The wire names equal the argument names, except that the returned object
// calls the dashboard `dashboard` where the request says `dashboardId`.

import { z } from "../protocol/zod";
import { compact, type PropertyMap } from "../protocol/properties";
import type { OutputRule, OutputRules } from "../protocol/outputRules";
import { apiPath } from "../http/paths";
import { OPTIONAL_ARGS, REQUIRED_ARGS } from "./args";

/** Properties the service fills in; never set by the program. */
export const OUTPUT_ONLY = ["state", "team", "savedSearch", "groupBy", "silenced", "createdAt", "updatedAt"] as const;

// What the service answers, read liberally: the real service leaves out members with no value,
// sends `silenced` as an object once someone silences the alert, answers any `state` string, and
// later versions rename members and add others. Nothing here fails on a member's shape: outputs
// hold each value as it came. Only a create answer without an id is broken (see provider.ts).

/** The alert in an answer's `data`, when there is one: any object, members unchecked. */
const alertAnswer = z.object({ data: z.record(z.string(), z.unknown()) });

/** The id of the alert in an answer, when it has a usable one. */
export const createdAlert = z.object({
  data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
});

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

type OutputName = (typeof REQUIRED_ARGS)[number] | (typeof OPTIONAL_ARGS)[number] | (typeof OUTPUT_ONLY)[number];

/** An argument the answer nulls or leaves out: the program's value, so a later refresh compares like with like. */
const FROM_PROGRAM: OutputRule = { nullMeans: "absent", whenAbsent: ["program"] };
/** An optional argument the program manages: as a required one, but null in a read (no program), so it stays managed. */
const FROM_PROGRAM_ELSE_NULL: OutputRule = { nullMeans: "absent", whenAbsent: ["program", { value: null }] };
/** What the service fills in: as it came, left out when the alert leaves it out; the state's value only when there is no alert at all. */
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };

/** Each output's rule when the answer says null or leaves it out (read by outputsFrom). */
export const OUTPUTS: OutputRules<OutputName> = {
  threshold: FROM_PROGRAM,
  interval: FROM_PROGRAM,
  source: FROM_PROGRAM,
  thresholdType: FROM_PROGRAM,
  channel: FROM_PROGRAM,
  dashboardId: FROM_PROGRAM_ELSE_NULL,
  tileId: FROM_PROGRAM_ELSE_NULL,
  name: FROM_PROGRAM_ELSE_NULL,
  message: FROM_PROGRAM_ELSE_NULL,
  state: FROM_STATE,
  team: FROM_STATE,
  savedSearch: FROM_STATE,
  groupBy: FROM_STATE,
  silenced: FROM_STATE,
  createdAt: FROM_STATE,
  updatedAt: FROM_STATE,
};

/** The alerts' path, or one alert's: its id is opaque (the service publishes no form), so only the path rules apply. */
export function alertsPath(id?: string): string {
  const one = id === undefined ? [] : ["/", { name: "id", value: id, form: "opaque" } as const];
  return apiPath("alert", "/api/v2/alerts", ...one);
}
