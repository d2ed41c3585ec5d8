// What the user is told that is not an error. The dynamic host gives no logger, so notices go to
// stderr, which `pulumi up` shows; the native plugin names a writer per call, so each line shows
// under its own resource.

import { runtime, type NoticeWriter } from "./runtime";

export type { NoticeWriter } from "./runtime";

/** Says one line to the user. */
export function notify(line: string): void {
  const rt = runtime();
  // Calls run concurrently: only the call's own store tells whose line it is.
  (rt.noticesPerCall.getStore() ?? rt.notices)(line);
}

/** Runs `call` with its notices (and those of everything it awaits) going to `to`. */
export function noticesTo<T>(to: NoticeWriter, call: () => Promise<T>): Promise<T> {
  return runtime().noticesPerCall.run(to, call);
}
