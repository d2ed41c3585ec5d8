// The SDK stamps a captured stack on four promises of every declared output, only for its
// promise-leak report; with every output declared that is most of a constructor's time.

/** The report prints those stacks. */
const leakReportAsked = (): boolean => (process.env.PULUMI_DEBUG_PROMISE_LEAKS ?? "") !== "";

/** The function whose caller a recaptured stack starts at. */
type Frame = Parameters<typeof Error.captureStackTrace>[1];

/** Stops stack capture until `restoreStackCapture`; the limit to restore. */
export function pauseStackCapture(): number {
  const limit = Error.stackTraceLimit;
  if (!leakReportAsked()) Error.stackTraceLimit = 0;
  return limit;
}

/**
 * Restores the limit. An error thrown meanwhile has no stack: it gets one from `at` (the
 * constructor that paused), which still shows the program's line that made the resource.
 */
export function restoreStackCapture(limit: number, thrown?: unknown, at?: Frame): void {
  const paused = Error.stackTraceLimit === 0 && limit !== 0;
  Error.stackTraceLimit = limit;
  if (paused && thrown instanceof Error) Error.captureStackTrace(thrown, at);
}
