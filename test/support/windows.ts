// What pacing tests measure of a set of send or arrival times, and the virtual clock they run on.

import type { ServiceCount, SlidingWindowLimiter } from "../../provider/http/rateLimit";

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

/** A virtual clock: sleeping callers wake in time order, and no real time passes. */
export class VirtualTime {
  t = 0;
  private timers: { at: number; wake: () => void }[] = [];
  readonly now = (): number => this.t;
  readonly sleep = (ms: number): Promise<void> => new Promise((wake) => this.timers.push({ at: this.t + ms, wake }));

  /** Runs until every promise given has settled, moving the clock from timer to timer. */
  async runUntil(done: Promise<unknown>): Promise<void> {
    let finished = false;
    void done.then(() => (finished = true));
    for (let guard = 0; guard < 100_000; guard++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (finished) return;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) continue;
      this.t = Math.max(this.t, next.at);
      next.wake();
    }
    throw new Error("virtual time ran away");
  }
}

/**
 * Starts `count` acquires at once on a limiter over virtual time, each send written and answered
 * the moment it is let through (with the service's count `answer` gives, if any); returns each
 * grant time, by caller.
 */
export async function grants(
  limiter: SlidingWindowLimiter,
  clock: VirtualTime,
  count: number,
  answer: () => ServiceCount | undefined = () => undefined,
): Promise<number[]> {
  const at: number[] = [];
  const all = Promise.all(
    Array.from({ length: count }, (_, i) =>
      limiter.acquire().then((ticket) => {
        at[i] = clock.now();
        limiter.written(ticket);
        limiter.settle(ticket, true, answer());
      }),
    ),
  );
  await clock.runUntil(all);
  return at;
}
