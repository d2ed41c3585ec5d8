// The services' rate limits, which the contract does not show, and the one parser of a limit.

export interface RateLimit {
  readonly requests: number;
  readonly perSeconds: number;
}

/** Per credential. */
export const DEFAULT_RATE_LIMITS = {
  alerting: { requests: 100, perSeconds: 60 },
  cloud: { requests: 10, perSeconds: 10 },
} as const satisfies Record<"alerting" | "cloud", RateLimit>;

/** Whether answers state the service's count (`RateLimit-*`). */
export const COUNTS_IN_ANSWERS = {
  alerting: true,
  cloud: false,
} as const satisfies Record<"alerting" | "cloud", boolean>;

/** A limit written `"requests/seconds"`, or `"off"` in any case; else undefined. */
export function parseRateLimit(text: string): RateLimit | "off" | undefined {
  const raw = text.trim();
  if (raw.toLowerCase() === "off") return "off";
  const m = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(raw);
  if (m === null) return undefined;
  const requests = Number(m[1]);
  const perSeconds = Number(m[2]);
  return Number.isSafeInteger(requests) && requests >= 1 && Number.isFinite(perSeconds) && perSeconds > 0
    ? { requests, perSeconds }
    : undefined;
}

/** The `"requests/seconds"` text of a limit, as parseRateLimit reads it. */
export function rateLimitText(limit: RateLimit): string {
  return `${limit.requests}/${limit.perSeconds}`;
}
