// Every request body the emulator accepts, as zod schemas, plus one way of wording their failures.
// Objects are strict: an unknown member is a 400, so a client that misspells a field (for example
// `dashboard` instead of `dashboardId`) finds out here rather than against the real service.

import { z } from "zod";
import {
  ALERT_SOURCES,
  SERVICE_ALERT_SOURCES,
  THRESHOLD_TYPES,
  intervalProblem,
  textProblem,
  thresholdProblem,
  type TextField,
} from "../provider/serviceFacts/alertRules";
import { isSha256Base64 } from "../provider/serviceFacts/hashData";
import { KEY_ROLES, KEY_STATES } from "../provider/serviceFacts/apiKeys";
import {
  PIPE_SETTINGS,
  SETTING_NAMES,
  allowedValues,
  wireName,
  type SettingFact,
  type SettingName,
} from "../provider/serviceFacts/pipeSettings";

// ---- Area A: alerts ---------------------------------------------------------------------------

/** A check of the service's own rules (provider/serviceFacts/alertRules.ts, shared with the provider's check). */
function rule<T>(problem: (value: T) => string | undefined) {
  return (value: T, ctx: z.RefinementCtx): void => {
    const message = problem(value);
    if (message !== undefined) ctx.addIssue({ code: "custom", message });
  };
}

/** A name or message: the service's length rule; null (or leaving it out) means none. */
const freeText = (field: TextField) =>
  z
    .string()
    .superRefine(rule((v: string) => textProblem(field, v)))
    .nullable()
    .optional();

// Identifiers must be non-empty when present: an empty id cannot name a dashboard, tile or search.
const id = () => z.string().min(1, { error: "must not be empty" });
const channelMembers = {
  type: z.literal("webhook", { error: 'the only channel type is "webhook"' }),
  webhookId: id(),
};

export const alertBodySchema = z
  .strictObject({
    threshold: z.number().superRefine(rule(thresholdProblem)),
    interval: z.string().superRefine(rule(intervalProblem)),
    source: z.enum(ALERT_SOURCES),
    thresholdType: z.enum(THRESHOLD_TYPES),
    channel: z.strictObject(channelMembers),
    dashboardId: id().optional(),
    tileId: id().optional(),
    name: freeText("name"),
    message: freeText("message"),
  })
  .superRefine((body, ctx) => {
    // A tile alert watches one tile on one dashboard, so it needs both ids.
    if (body.source !== "tile") return;
    for (const field of ["dashboardId", "tileId"] as const) {
      if (body[field] === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: 'is required when source is "tile"' });
      }
    }
  });

export type AlertBody = z.infer<typeof alertBodySchema>;

/**
 * The 2026 mode's body, as HyperDX's external API checks it at b52a6fa (packages/api/src/utils/zod.ts
 * `alertSchema`): unknown members are dropped, not refused; `threshold` is any number; `source` is
 * `saved_search` or `tile`; a saved-search alert names its saved search. The ids of
 * the other kind of source are dropped, as the real service's union keeps only its branch's members.
 * Newer members (`channels`, `thresholdMax`, `note`, schedules) are issue 27's, not modelled yet.
 */
export const alertBody2026Schema = z
  .object({
    threshold: z.number(),
    interval: z.string().superRefine(rule(intervalProblem)),
    // Required in effect: the schema's default (`saved_search`) comes after the union of the two
    // branches has seen the raw body, so a body without `source` fails there.
    source: z.enum(SERVICE_ALERT_SOURCES),
    thresholdType: z.enum(THRESHOLD_TYPES),
    channel: z.object(channelMembers),
    dashboardId: id().optional(),
    tileId: id().optional(),
    savedSearchId: id().optional(),
    name: freeText("name"),
    message: freeText("message"),
  })
  .superRefine((body, ctx) => {
    const needs = body.source === "tile" ? (["dashboardId", "tileId"] as const) : (["savedSearchId"] as const);
    for (const field of needs) {
      if (body[field] === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `is required when source is "${body.source}"` });
      }
    }
  })
  .transform(({ dashboardId, tileId, savedSearchId, ...rest }) =>
    rest.source === "tile" ? { ...rest, dashboardId, tileId } : { ...rest, savedSearchId },
  );

export type AlertBody2026 = z.infer<typeof alertBody2026Schema>;

// ---- Area B: pipe settings --------------------------------------------------------------------

/**
 * One setting on the wire, checked by the shared table's kind and range. A value of the wrong kind
 * or out of range gets one message naming what is allowed, as the provider's check words it.
 */
function wireSetting(name: SettingName) {
  const fact: SettingFact = PIPE_SETTINGS[name];
  const schema =
    fact.kind === "boolean" ? z.boolean().nullable() : z.number().int().min(fact.min).max(fact.max).nullable();
  return z.unknown().transform((value, ctx): number | boolean | null | undefined => {
    if (value === undefined) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    ctx.addIssue({ code: "custom", message: `must be ${allowedValues(name)}` });
    return z.NEVER;
  });
}

export const pipeSettingsBodySchema = z
  .strictObject(Object.fromEntries(SETTING_NAMES.map((name) => [wireName(name), wireSetting(name).optional()])))
  .refine((body) => Object.keys(body).length > 0, { error: "the body must set at least one setting" });

// ---- Area B: API keys -------------------------------------------------------------------------

const role = z.enum(KEY_ROLES);

const roles = z
  .array(role)
  .min(1, { error: "must hold at least 1 role" })
  .refine((list) => new Set(list).size === list.length, { error: "must not repeat a role" });

/** ISO 8601 date-time with Z or an offset; null or "" mean "never expires" and come out as null. */
const expireAt = z
  .union([
    z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time with Z or an offset, null or empty" }),
    z.literal(""),
    z.null(),
  ])
  .transform((value) => (value === null || value === "" ? null : new Date(value).toISOString()));

const ipAccessEntry = z.strictObject({
  source: z.union([z.ipv4(), z.cidrv4()], {
    error: "must be an IPv4 address or an IPv4 CIDR range (for example 10.0.0.0/8)",
  }),
  description: z.string(),
});

/**
 * A hashData hash: the standard base64 (padded, 44 characters) of a raw SHA-256 digest, as the real
 * service demands; its own words for anything else.
 */
const sha256Base64 = z.string().refine(isSha256Base64, {
  error: "Not a sha256sum",
});

export const keyCreateBodySchema = z.strictObject({
  name: z.string().optional(),
  expireAt: expireAt.optional(),
  roles,
  state: z.enum(KEY_STATES).optional(),
  ipAccessList: z.array(ipAccessEntry).optional(),
  hashData: z
    .strictObject({ keyIdHash: sha256Base64, keyIdSuffix: z.string(), keySecretHash: sha256Base64 })
    .optional(),
});

export const keyPatchBodySchema = z
  .strictObject({
    name: z.string().optional(),
    expireAt: expireAt.optional(),
    roles: roles.optional(),
    state: z.enum(KEY_STATES).optional(),
    ipAccessList: z.array(ipAccessEntry).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { error: "the body must change at least one field" });

// ---- Wording ----------------------------------------------------------------------------------

/** One line naming each problem by its field path, e.g. `interval: must be ...; channel.type: ...`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export function parseWith<T>(schema: z.ZodType<T>, body: unknown): Parsed<T> {
  const result = schema.safeParse(body);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: describeIssues(result.error) };
}
