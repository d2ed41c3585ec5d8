// The alerting service's own validation rules, where the contract says "not shown"
// (docs/design/real-services.md). Stated once: the provider's check and the
// emulator both read this module, each in its own schema and wording. It imports nothing (no zod),
// so the emulator can use it without the provider ever importing the emulator.

/** What an alert watches: a tile on a dashboard, or a search. */
export const ALERT_SOURCES = ["tile", "search"] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

/** Which side of the threshold fires the alert. */
export const THRESHOLD_TYPES = ["above", "below"] as const;
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];

/**
 * The largest page of `GET /api/v2/alerts` (newer versions; older ones ignore limit and offset and answer every alert).
 */
export const ALERT_LIST_PAGE_MAX = 1000;

/** The largest page of every paged list of the v2 API (alerts, webhooks, saved searches: one pagination.ts). */
export const LIST_PAGE_MAX = ALERT_LIST_PAGE_MAX;

/** Where the alerts are. */
export const ALERTS_PATH = "/api/v2/alerts";

/** The only intervals the service accepts. */
export const INTERVALS = ["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"] as const;

/** The smallest threshold the service accepts (later versions accept any number; we hold to this). */
const THRESHOLD_MIN = 0;

/** Length bounds of the free texts, in characters; an empty text is refused, not read as "none". */
const TEXT_LIMITS = { name: { min: 1, max: 512 }, message: { min: 1, max: 4096 } } as const;
export type TextField = keyof typeof TEXT_LIMITS;

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/** What is wrong with an interval, as "must …", or undefined when the service accepts it. */
export function intervalProblem(value: string): string | undefined {
  return (INTERVALS as readonly string[]).includes(value) ? undefined : `must be one of ${quoted(INTERVALS)}`;
}

/** What is wrong with a finite threshold, as "must …", or undefined. */
export function thresholdProblem(value: number): string | undefined {
  return value >= THRESHOLD_MIN ? undefined : `must be a number >= ${THRESHOLD_MIN}`;
}

/** Characters as a reader counts them (code points), not UTF-16 units. */
function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** What is wrong with a name or message, as "must …", or undefined. */
export function textProblem(field: TextField, value: string): string | undefined {
  const { min, max } = TEXT_LIMITS[field];
  const length = characters(value);
  if (length < min) return `must not be empty (the service refuses an empty ${field}): leave it out for no ${field}`;
  if (length > max) return `must be at most ${max} characters (it has ${length})`;
  return undefined;
}
