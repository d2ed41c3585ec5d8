// Where the provider tells the user something that is not an error (a create recovered, a long
// wait). The Node dynamic-provider host gives a provider no logger and not the resource's URN, but
// the engine shows every line the host writes to stderr in `pulumi up`'s output (as an info
// diagnostic), so that is where notices go by default. The native plugin knows the URN of each
// call and the engine's log service: it names a writer per call (noticesTo), so each line shows
// under its resource, even while calls for other resources run at the same time.

import { AsyncLocalStorage } from "node:async_hooks";

export type NoticeWriter = (line: string) => void;

const toStderr: NoticeWriter = (line) => {
  process.stderr.write(`${line}\n`);
};

let writer: NoticeWriter = toStderr;

// Calls run concurrently in one process: a module variable could not tell whose line it is.
const perCall = new AsyncLocalStorage<NoticeWriter>();

/** Says one line to the user. */
export function notify(line: string): void {
  (perCall.getStore() ?? writer)(line);
}

/** Runs `call` with its notices (and those of everything it awaits) going to `to`. */
export function noticesTo<T>(to: NoticeWriter, call: () => Promise<T>): Promise<T> {
  return perCall.run(to, call);
}

/** Replaces where notices go (tests); undefined restores stderr. */
export function useNotices(replacement: NoticeWriter | undefined): void {
  writer = replacement ?? toStderr;
}
