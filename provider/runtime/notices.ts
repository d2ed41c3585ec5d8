// What the user is told that is not an error: stderr in the dynamic host, which has no logger; the
// native plugin's writer per call, so each line shows under its resource, and the engine's log for
// the whole run where a call runs without one (a read, a diff: see native/server.ts).

import { runtime, type NoticeWriter } from "./runtime";

export type { NoticeWriter } from "./runtime";

/** Says one line to the user. */
export function notify(line: string): void {
  const rt = runtime();
  // Calls run concurrently: only the call's own store tells whose line it is.
  (rt.noticesPerCall.getStore() ?? rt.runNotices ?? rt.notices)(line);
}

/** Runs `call` with its notices, and those of all it awaits, going to `to`. */
export function noticesTo<T>(to: NoticeWriter, call: () => Promise<T>): Promise<T> {
  return runtime().noticesPerCall.run(to, call);
}

/** Sends the notices no call's writer claims to `to`, until the returned function is called. */
export function runNoticesTo(to: NoticeWriter): () => void {
  const rt = runtime();
  rt.runNotices = to;
  return () => {
    if (rt.runNotices === to) rt.runNotices = undefined;
  };
}
