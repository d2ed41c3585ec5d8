// How the provider words a quantity for people, in messages and notices.

/** "90 s", "12.5 s", "4 min 10 s": a wait as a person reads it. */
export function formatSeconds(ms: number): string {
  const s = Math.ceil(ms / 100) / 10;
  if (s < 120) return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  const whole = Math.ceil(s);
  return `${Math.floor(whole / 60)} min${whole % 60 === 0 ? "" : ` ${whole % 60} s`}`;
}
