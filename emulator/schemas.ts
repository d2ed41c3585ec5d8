// Every request body the emulator accepts, as zod schemas, plus one way of wording their failures.
// Objects are strict: an unknown member is a 400, so a client that misspells a field (for example
// `dashboard` instead of `dashboardId`) finds out here rather than against the real service.

import { z } from "zod";
import {
  ALERT_SOURCES,
  SERVICE_ALERT_SOURCES,
  MAX_CHANNELS,
  SCHEDULE_OFFSET_MAX,
  SCHEDULE_START_AT,
  THRESHOLD_TYPES,
  channelsProblem,
  intervalMinutes,
  intervalProblem,
  scheduleStartProblem,
  thresholdMaxProblem,
  textProblem,
  thresholdProblem,
  type TextField,
} from "../provider/serviceFacts/alertRules";
import type { CloudDialect } from "../provider/serviceFacts/cloudDialects";
import { isSha256Base64 } from "../provider/serviceFacts/hashData";
import { KEY_ROLES, KEY_STATES } from "../provider/serviceFacts/apiKeys";
import {
  PIPE_SETTINGS,
  SETTING_NAMES,
  allowedValues,
  takesNull,
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

const channel = z.strictObject({
  type: z.literal("webhook", { error: 'Invalid literal value, expected "webhook"' }),
  webhookId: z.string().min(1, { error: "Webhook ID can't be empty" }),
});

/** The 2026 service's words for each channel rule (docs/design/alerting-service-2026.md). */
const CHANNEL_WORDS = {
  neither: 'Provide either "channel" or "channels"',
  empty: "At least one notification channel is required",
  "too many": `An alert supports at most ${MAX_CHANNELS} notification channels`,
  duplicate: "Duplicate notification channels are not allowed",
  "channel differs":
    'When both "channel" and "channels" are provided, "channel" must match the first entry of "channels"',
} as const;

/** The members issue 27 adds, as the 2026 service checks each by itself (types.ts, zod.ts at b52a6fa). */
const fields2026 = {
  thresholdMax: z.number().optional(),
  channels: z.array(z.object(channelMembers)).optional(),
  scheduleOffsetMinutes: z.number().int().min(0).max(SCHEDULE_OFFSET_MAX).optional(),
  scheduleStartAt: z.string().regex(SCHEDULE_START_AT, { error: "Invalid datetime" }).nullable().optional(),
  numConsecutiveWindows: z.number().int().min(1).nullable().optional(),
  note: freeText("note"),
  groupBy: z.string().nullable().optional(),
};

/**
 * The 2026 service's rules between members (validateAlertChannelSelection, validateAlertThresholdMax,
 * validateAlertScheduleOffsetMinutes, scheduleStartAtSchema), each on its path and in its words.
 */
function rules2026(
  body: {
    interval: string;
    threshold: number;
    thresholdType: (typeof THRESHOLD_TYPES)[number];
    thresholdMax?: number | undefined;
    channel?: { type: string; webhookId: string } | undefined;
    channels?: { type: string; webhookId: string }[] | undefined;
    scheduleOffsetMinutes?: number | undefined;
    scheduleStartAt?: string | null | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const channels = channelsProblem(body.channel, body.channels);
  if (channels !== undefined) ctx.addIssue({ code: "custom", path: ["channels"], message: CHANNEL_WORDS[channels] });
  const max = thresholdMaxProblem(body.thresholdType, body.threshold, body.thresholdMax);
  if (max !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["thresholdMax"],
      message:
        max === "required"
          ? "thresholdMax is required for between/not_between threshold types"
          : "thresholdMax must be greater than or equal to threshold",
    });
  const offset = body.scheduleOffsetMinutes;
  const minutes = intervalMinutes(body.interval) ?? Infinity;
  const path = ["scheduleOffsetMinutes"];
  if (offset !== undefined && offset !== 0 && typeof body.scheduleStartAt === "string")
    ctx.addIssue({ code: "custom", path, message: "scheduleOffsetMinutes must be 0 when scheduleStartAt is provided" });
  if (offset !== undefined && offset >= minutes)
    ctx.addIssue({
      code: "custom",
      path,
      message: `scheduleOffsetMinutes must be less than ${minutes} minute${minutes === 1 ? "" : "s"}`,
    });
  if (typeof body.scheduleStartAt === "string") {
    const start = scheduleStartProblem(body.scheduleStartAt, Date.now());
    const at = ["scheduleStartAt"];
    if (start === "ahead")
      ctx.addIssue({ code: "custom", path: at, message: "scheduleStartAt must be within 1 year from now" });
    if (start === "back")
      ctx.addIssue({ code: "custom", path: at, message: "scheduleStartAt must be within 10 years in the past" });
  }
}

export const alertBodySchema = z
  .strictObject({
    threshold: z.number().superRefine(rule(thresholdProblem)),
    interval: z.string().superRefine(rule(intervalProblem)),
    source: z.enum(ALERT_SOURCES),
    thresholdType: z.enum(THRESHOLD_TYPES),
    channel: channel.optional(),
    ...fields2026,
    channels: z.array(channel).optional(),
    savedSearchId: z.string().min(1).optional(),
    dashboardId: id().optional(),
    tileId: id().optional(),
    name: freeText("name"),
    message: freeText("message"),
  })
  .superRefine((body, ctx) => {
    rules2026(body, ctx);
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
 * Issue 27's members (`channels`, `thresholdMax`, `note`, schedules, …) by the same rules as the contract's mode.
 */
export const alertBody2026Schema = z
  .object({
    threshold: z.number(),
    interval: z.string().superRefine(rule(intervalProblem)),
    // Required in effect: the schema's default (`saved_search`) comes after the union of the two
    // branches has seen the raw body, so a body without `source` fails there.
    source: z.enum(SERVICE_ALERT_SOURCES),
    thresholdType: z.enum(THRESHOLD_TYPES),
    channel: z.object(channelMembers).optional(),
    ...fields2026,
    dashboardId: id().optional(),
    tileId: id().optional(),
    savedSearchId: id().optional(),
    name: freeText("name"),
    message: freeText("message"),
  })
  .superRefine((body, ctx) => {
    rules2026(body, ctx);
    const needs = body.source === "tile" ? (["dashboardId", "tileId"] as const) : (["savedSearchId"] as const);
    for (const field of needs) {
      if (body[field] === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `is required when source is "${body.source}"` });
      }
    }
  })
  .transform(({ dashboardId, tileId, savedSearchId, groupBy, ...rest }) =>
    rest.source === "tile" ? { ...rest, dashboardId, tileId } : { ...rest, savedSearchId, groupBy },
  );

export type AlertBody2026 = z.infer<typeof alertBody2026Schema>;

// ---- Area B: pipe settings --------------------------------------------------------------------

/**
 * One setting on the wire, checked by the shared table's kind and range. A value of the wrong kind
 * or out of range gets one message naming what is allowed, as the provider's check words it.
 */
function wireSetting(name: SettingName) {
  const fact: SettingFact = PIPE_SETTINGS[name];
  // kafka_read_committed's published type is a plain boolean (cloud-api-2026.md): no null.
  const schema =
    fact.kind === "boolean"
      ? takesNull(name)
        ? z.boolean().nullable()
        : z.boolean()
      : z.number().int().min(fact.min).max(fact.max).nullable();
  return z.unknown().transform((value, ctx): number | boolean | null | undefined => {
    if (value === undefined) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    ctx.addIssue({ code: "custom", message: `must be ${allowedValues(name)}` });
    return z.NEVER;
  });
}

function settingsBody(dialect: CloudDialect) {
  return z
    .strictObject(
      Object.fromEntries(SETTING_NAMES.map((name) => [wireName(name, dialect), wireSetting(name).optional()])),
    )
    .refine((body) => Object.keys(body).length > 0, { error: "the body must set at least one setting" });
}

/** The contract's body (`db_*`). */
export const pipeSettingsBodySchema = settingsBody("contract");

/** Each dialect's body: ClickHouse Cloud's `ClickPipeSettingsPutRequest` names six settings `clickhouse_*`. */
export const PIPE_SETTINGS_BODIES: Readonly<Record<CloudDialect, typeof pipeSettingsBodySchema>> = {
  contract: pipeSettingsBodySchema,
  clickhouse: settingsBody("clickhouse"),
};

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

const assignedRoleIds = z.array(z.uuid({ error: "must be a role uuid" }));

/** The fields a create and a PATCH both take. */
const keyFields = {
  name: z.string().optional(),
  expireAt: expireAt.optional(),
  roles: roles.optional(),
  assignedRoleIds: assignedRoleIds.optional(),
  state: z.enum(KEY_STATES).optional(),
  ipAccessList: z.array(ipAccessEntry).optional(),
};

export const keyCreateBodySchema = z
  .strictObject({
    ...keyFields,
    hashData: z
      .strictObject({ keyIdHash: sha256Base64, keyIdSuffix: z.string(), keySecretHash: sha256Base64 })
      .optional(),
  })
  // Our words: what the real service answers to neither was not found (cloud-api-2026.md).
  .refine((body) => body.roles !== undefined || body.assignedRoleIds !== undefined, {
    error: "give roles or assignedRoleIds",
  });

export const keyPatchBodySchema = z
  .strictObject(keyFields)
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
