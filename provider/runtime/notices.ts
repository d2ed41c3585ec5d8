// What the user is told that is not an error: stderr in the dynamic host, which has no logger; the
// native plugin's writer per call, so each line shows under its resource.

import { runtime, type NoticeWriter } from "./runtime";

export type { NoticeWriter } from "./runtime";

/** Says one line to the user. */
export function notify(line: string): void {
  const rt = runtime();
  // Calls run concurrently: only the call's own store tells whose line it is.
  (rt.noticesPerCall.getStore() ?? rt.notices)(line);
}

/** Runs `call` with its notices, and those of all it awaits, going to `to`. */
export function noticesTo<T>(to: NoticeWriter, call: () => Promise<T>): Promise<T> {
  return runtime().noticesPerCall.run(to, call);
}
