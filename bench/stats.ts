// The few statistics the scenarios share.

import type { RecordedRequest } from "../emulator";

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Alternated runs against a reference: the ratio of the medians, and the median of each run's own
 * ratio (ours to the reference taken in the same run), which a load drifting over the runs moves less.
 */
export function pairedRatios(
  ours: readonly number[],
  reference: readonly number[],
): { ofMedians: number | null; perRun: number[]; medianOfPairs: number } {
  const ideal = median(reference);
  const perRun = ours.map((ms, i) => ms / (reference[i] ?? NaN));
  return { ofMedians: ideal === 0 ? null : median(ours) / ideal, perRun, medianOfPairs: median(perRun) };
}

export function statusCounts(requests: readonly RecordedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) counts[String(r.status)] = (counts[String(r.status)] ?? 0) + 1;
  return counts;
}

/** The most requests that arrived within any span of `windowMs`. */
export function maxInAnyWindow(requests: readonly RecordedRequest[], windowMs: number): number {
  const at = requests.map((r) => r.at).sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while ((at[i] as number) - (at[j] as number) >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/**
 * The pages a list of `count` items takes when the service states its total (`meta`, as the
 * emulator does): one at least, an empty collection's included, and no empty page after a full one.
 */
export function listPages(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}
