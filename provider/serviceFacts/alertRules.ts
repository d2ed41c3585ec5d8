// Alert rules the contract leaves out (docs/design/real-services.md).

/** What an alert watches: a tile on a dashboard, or a search. */
export const ALERT_SOURCES = ["tile", "search"] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

/** The sources as the 2026 service spells them. */
export const SERVICE_ALERT_SOURCES = ["saved_search", "tile"] as const;
export type ServiceAlertSource = (typeof SERVICE_ALERT_SOURCES)[number];

/** Which spelling of `source` a service speaks; programs always say `search`. */
export const ALERTING_DIALECTS = ["contract", "2026"] as const;
export type AlertingDialect = (typeof ALERTING_DIALECTS)[number];

/** The external API's root, which only the 2026 service answers. */
export const API_ROOT_PATH = "/api/v2";

/** A program's source as `dialect` spells it on the wire. */
export function sourceOnWire(source: unknown, dialect: AlertingDialect): unknown {
  return dialect === "2026" && source === "search" ? "saved_search" : source;
}

/** An answer's source as a program spells it, so a refresh shows no diff. */
export function sourceFromWire(source: unknown): unknown {
  return source === "saved_search" ? "search" : source;
}

/** `above` fires at value >= threshold, `below` at value < threshold. */
export const THRESHOLD_TYPES = [
  "above",
  "below",
  "above_exclusive",
  "below_or_equal",
  "equal",
  "not_equal",
  "between",
  "not_between",
] as const;
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];

/** The largest page of `GET /api/v2/alerts`; older services ignore paging. */
export const ALERT_LIST_PAGE_MAX = 1000;

/** The largest page of every paged list of the v2 API. */
export const LIST_PAGE_MAX = ALERT_LIST_PAGE_MAX;

/** Where the alerts are. */
export const ALERTS_PATH = "/api/v2/alerts";

/** The only intervals the service accepts. */
export const INTERVALS = ["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"] as const;

/** Length bounds; an empty text is refused, not read as "none". */
const TEXT_LIMITS = {
  name: { min: 1, max: 512 },
  message: { min: 1, max: 4096 },
  note: { min: 1, max: 4096 },
} as const;
export type TextField = keyof typeof TEXT_LIMITS;

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/** What is wrong with an interval, as "must …", or undefined. */
export function intervalProblem(value: string): string | undefined {
  return (INTERVALS as readonly string[]).includes(value) ? undefined : `must be one of ${quoted(INTERVALS)}`;
}

/** What is wrong with a threshold; older services' refusal below 0 is theirs to say. */
export function thresholdProblem(value: number): string | undefined {
  return Number.isFinite(value) ? undefined : "must be a finite number";
}

/** A text's length as the service counts it, in UTF-16 units: an emoji is 2. */
function serviceLength(text: string): number {
  return text.length;
}

/** What is wrong with a name or message, as "must …", or undefined. */
export function textProblem(field: TextField, value: string): string | undefined {
  const { min, max } = TEXT_LIMITS[field];
  const length = serviceLength(value);
  if (length < min) return `must not be empty (the service refuses an empty ${field}): leave it out for no ${field}`;
  if (length > max) {
    const astral = length !== [...value].length ? "; the service counts UTF-16 units, 2 for most emoji" : "";
    return `must be at most ${max} characters (it has ${length}${astral})`;
  }
  return undefined;
}

// ---- The 2026 fields (docs/design/alerting-service-2026.md)

/** The threshold types that compare with a range, and so need thresholdMax. */
export const RANGE_THRESHOLD_TYPES: readonly string[] = ["between", "not_between"];

/** What is wrong between thresholdType, threshold and thresholdMax. */
export function thresholdMaxProblem(
  thresholdType: string,
  threshold: number,
  thresholdMax: number | undefined,
): "required" | "below threshold" | undefined {
  if (!RANGE_THRESHOLD_TYPES.includes(thresholdType)) return undefined;
  if (thresholdMax === undefined) return "required";
  return thresholdMax < threshold ? "below threshold" : undefined;
}

/** The most channels an alert notifies. */
export const MAX_CHANNELS = 10;

/** The severities a pagerduty_api webhook's channel may carry (managed ClickStack's `severity`). */
export const CHANNEL_SEVERITIES = ["critical", "error", "warning", "info"] as const;

/** The channel types an alert's `channel` takes: services notify email, Slack or PagerDuty through these. */
export const CHANNEL_TYPES = ["webhook"] as const;

/**
 * Why a channel's `type` is refused, pointing where the service's own notifiers are: email is the
 * alert's `emailRecipients` on managed ClickStack, Slack and PagerDuty are webhooks of that service.
 */
export function channelTypeProblem(at: string, type: unknown): string | undefined {
  if ((CHANNEL_TYPES as readonly unknown[]).includes(type)) return undefined;
  const must = `${at}.type must be "webhook"`;
  const named = typeof type === "string" ? type.toLowerCase() : "";
  if (named === "email")
    return `${must}: to send email, set the alert's emailRecipients (managed ClickStack) instead of channel and channels`;
  if (named === "slack" || named === "slack_api")
    return (
      `${must}: to notify Slack, give the webhookId of a Webhook with service "slack", or on managed ClickStack ` +
      `of one made in its console, with webhookService "slack_api" and slackChannelId`
    );
  if (named === "pagerduty" || named === "pagerduty_api")
    return (
      `${must}: to notify PagerDuty, give the webhookId of a webhook made in the managed ClickStack console ` +
      `(getWebhook finds it), with webhookService "pagerduty_api" and severity`
    );
  return `${at}.type must be one of ${CHANNEL_TYPES.map((v) => `"${v}"`).join(", ")}`;
}

/** A webhook channel's members only managed ClickStack takes (the Cloud document's `ClickStackAlertChannelWebhook`). */
export const MANAGED_CHANNEL_MEMBERS = ["webhookService", "slackChannelId", "severity"] as const;

type ChannelLike = { readonly type?: unknown; readonly webhookId?: unknown } & {
  readonly [K in (typeof MANAGED_CHANNEL_MEMBERS)[number]]?: unknown;
};

/** A channel's identity for "no two alike" and for a diff: its members, in a fixed order; unset is null. */
export const channelKey = (one: ChannelLike): string =>
  JSON.stringify([one.type, one.webhookId, ...MANAGED_CHANNEL_MEMBERS.map((m) => one[m] ?? null)]);

/** What is wrong between `channel` and `channels`. */
export function channelsProblem(
  single: { readonly type?: unknown; readonly webhookId?: unknown } | undefined,
  list: readonly { readonly type?: unknown; readonly webhookId?: unknown }[] | undefined,
): "neither" | "empty" | "too many" | "duplicate" | "channel differs" | undefined {
  if (list === undefined) return single === undefined ? "neither" : undefined;
  if (list.length === 0) return "empty";
  if (list.length > MAX_CHANNELS) return "too many";
  if (new Set(list.map(channelKey)).size !== list.length) return "duplicate";
  const first = list[0];
  if (single !== undefined && first !== undefined && channelKey(single) !== channelKey(first)) return "channel differs";
  return undefined;
}

/**
 * An alert's body for a service with one `channel` and no `channels` (managed ClickStack's schema):
 * its one channel as `channel`; the check refuses more than one.
 */
export function withOneChannel(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { channels, emailRecipients, ...rest } = body;
  if (Array.isArray(emailRecipients)) return { ...rest, channel: { type: "email", emailRecipients } };
  if (channels === undefined || rest.channel !== undefined || !Array.isArray(channels)) return rest;
  return { ...rest, channel: channels[0] };
}

/** An answer's email channel (managed ClickStack) as the program's `emailRecipients`, with no `channel`. */
export function emailChannelFromWire(alert: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const channel = alert.channel as { type?: unknown; emailRecipients?: unknown } | null | undefined;
  if (typeof channel !== "object" || channel === null || channel.type !== "email") return alert;
  const { channel: _email, ...rest } = alert;
  return { ...rest, emailRecipients: channel.emailRecipients };
}

/** An alert as a list answers it: its members, read by name. */
export type AlertAnswer = Readonly<Record<string, unknown>>;

/** Whether an alert's answer notifies the webhook `id` in any channel. */
export function notifiesWebhook(alert: AlertAnswer, id: string): boolean {
  const named = (c: unknown) => typeof c === "object" && c !== null && (c as { webhookId?: unknown }).webhookId === id;
  return named(alert.channel) || (Array.isArray(alert.channels) && alert.channels.some(named));
}

/** Whether an alert's answer watches the saved search `id`, in either dialect. */
export function watchesSearch(alert: AlertAnswer, id: string): boolean {
  return alert.savedSearch === id || alert.savedSearchId === id;
}

/** The largest schedule offset, in minutes (one day less a minute). */
export const SCHEDULE_OFFSET_MAX = 1439;

/** An interval's length in minutes: a schedule offset must be shorter. */
export function intervalMinutes(interval: string): number | undefined {
  const m = /^(\d+)([mhd])$/.exec(interval);
  if (m === null) return undefined;
  return Number(m[1]) * { m: 1, h: 60, d: 1440 }[m[2] as "m" | "h" | "d"];
}

/** How far a schedule's start may be ahead and back, in days. */
export const SCHEDULE_START_WINDOW_DAYS = { ahead: 365, back: 3650 } as const;

/** An ISO 8601 UTC date-time as the service takes it. */
export const SCHEDULE_START_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

/** Where a schedule start falls outside its window at `now` (ms). */
export function scheduleStartProblem(startAt: string, now: number): "ahead" | "back" | "invalid" | undefined {
  const at = Date.parse(startAt);
  if (!SCHEDULE_START_AT.test(startAt) || Number.isNaN(at)) return "invalid";
  const day = 86_400_000;
  if (at > now + SCHEDULE_START_WINDOW_DAYS.ahead * day) return "ahead";
  if (at < now - SCHEDULE_START_WINDOW_DAYS.back * day) return "back";
  return undefined;
}

/** A string, not an enum: a new state breaks nothing. */
export const ALERT_STATES = ["ALERT", "OK", "INSUFFICIENT_DATA", "DISABLED", "PENDING"] as const;

/** What kind of error an evaluation recorded. */
export const EXECUTION_ERROR_TYPES = [
  "QUERY_ERROR",
  "QUERY_TIMEOUT",
  "WEBHOOK_ERROR",
  "INVALID_ALERT",
  "UNKNOWN",
] as const;

/** Whether an alert's answer sits on the dashboard `id` (on the tile `tileId` when given), in either dialect. */
export function sitsOnDashboard(alert: AlertAnswer, id: string, tileId?: string): boolean {
  const on = alert.dashboardId === id || alert.dashboard === id;
  return on && (tileId === undefined || alert.tileId === tileId);
}

/** The run-claims key of the alerts this run deletes: a dashboard's delete does not count them. */
export const ALERTS_DELETED_THIS_RUN = "alerts deleted this run";
