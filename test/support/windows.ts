// What pacing tests measure of a set of send or arrival times.

/** The largest number of times in any half-open span [t, t + w). */
export function busiestWindow(times: readonly number[], w: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= w) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
