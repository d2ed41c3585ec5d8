// The services' rate limits as we were given them (the contract does not show them), and the one
// reading of the `"requests/seconds"` text that sets a limit. The provider paces its requests by
// them (provider/runtime/connection.ts) and the emulator enforces them (emulator/limits.ts, emulator/cli.ts).

export interface RateLimit {
  readonly requests: number;
  readonly perSeconds: number;
}

/** Per credential: area A (alerting) 100 requests per minute, area B (cloud) 10 per 10 seconds. */
export const DEFAULT_RATE_LIMITS = {
  alerting: { requests: 100, perSeconds: 60 },
  cloud: { requests: 10, perSeconds: 10 },
} as const satisfies Record<"alerting" | "cloud", RateLimit>;

/**
 * Whether the service states its own count of a credential's requests in every answer (the
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers, seconds until its window
 * resets). Area A's does: HyperDX's external API counts 100 a minute per key with express-rate-limit,
 * `standardHeaders: true` (packages/api/src/routers/external-api/v2/index.ts at b52a6fa). Area B's
 * do not, as far as we know the cloud API: it is paced by our own count alone.
 */
export const COUNTS_IN_ANSWERS = {
  alerting: true,
  cloud: false,
} as const satisfies Record<"alerting" | "cloud", boolean>;

/**
 * A limit written as `"requests/seconds"` (a whole number of requests >= 1, seconds > 0, fractions
 * and spaces around the slash allowed), or `"off"` in any case; undefined when it is neither.
 */
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
