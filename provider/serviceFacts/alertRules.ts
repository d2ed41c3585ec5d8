// The alerting service's own validation rules, where the contract says "not shown"
// (docs/design/real-services.md). Stated once: the provider's check and the
// emulator both read this module, each in its own schema and wording. It imports nothing (no zod),
// so the emulator can use it without the provider ever importing the emulator.

/** What an alert watches: a tile on a dashboard, or a search. */
export const ALERT_SOURCES = ["tile", "search"] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

/**
 * The sources as the real service spells them (HyperDX's `AlertSource` at b52a6fa,
 * packages/api/src/models/alert.ts): the contract's `search` is `saved_search`, and names the saved
 * search it watches by `savedSearchId`. The emulator's 2026 mode speaks these.
 */
export const SERVICE_ALERT_SOURCES = ["saved_search", "tile"] as const;
export type ServiceAlertSource = (typeof SERVICE_ALERT_SOURCES)[number];

/** Which side of the threshold fires the alert. */
export const THRESHOLD_TYPES = ["above", "below"] as const;
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];

/**
 * The largest page of `GET /api/v2/alerts` (newer versions; older ones ignore limit and offset and answer every alert).
 */
export const ALERT_LIST_PAGE_MAX = 1000;

/** The only intervals the service accepts. */
export const INTERVALS = ["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"] as const;

/** The smallest threshold the service accepts (later versions accept any number; we hold to this). */
const THRESHOLD_MIN = 0;

/** Length bounds of the free texts, in UTF-16 units (see serviceLength); an empty text is refused, not read as "none". */
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

/**
 * A text's length as the service counts it: UTF-16 units, JavaScript's `length` (HyperDX checks
 * `z.string().min(1).max(512)` with zod 3, packages/api/src/utils/zod.ts `alertSchema` at b52a6fa),
 * so a character outside the Basic Multilingual Plane, most emoji among them, counts as 2.
 */
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
