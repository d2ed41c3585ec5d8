// Where the provider tells the user something that is not an error (a create recovered, a long
// wait). The Node dynamic-provider host gives a provider no logger and not the resource's URN, but
// the engine shows every line the host writes to stderr in `pulumi up`'s output (as an info
// diagnostic), so that is where notices go by default. The native plugin knows the URN of each
// call and the engine's log service: it names a writer per call (noticesTo), so each line shows
// under its resource, even while calls for other resources run at the same time. Both the default
// writer and the per-call store are the runtime's (runtime.ts), so a test sets them there.

import { runtime, type NoticeWriter } from "./runtime";

export type { NoticeWriter } from "./runtime";

/** Says one line to the user. */
export function notify(line: string): void {
  const rt = runtime();
  // Calls run concurrently in one process: only the call's own store can tell whose line it is.
  (rt.noticesPerCall.getStore() ?? rt.notices)(line);
}

/** Runs `call` with its notices (and those of everything it awaits) going to `to`. */
export function noticesTo<T>(to: NoticeWriter, call: () => Promise<T>): Promise<T> {
  return runtime().noticesPerCall.run(to, call);
}
