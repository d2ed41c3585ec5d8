// Where the provider tells the user something that is not an error (a create recovered, a long
// wait). The Node dynamic-provider host gives a provider no logger and not the resource's URN, but
// the engine shows every line the host writes to stderr in `pulumi up`'s output (as an info
// diagnostic), so that is where notices go.

export type NoticeWriter = (line: string) => void;

const toStderr: NoticeWriter = (line) => {
  process.stderr.write(`${line}\n`);
};

let writer: NoticeWriter = toStderr;

/** Says one line to the user. */
export function notify(line: string): void {
  writer(line);
}

/** Replaces where notices go (tests); undefined restores stderr. */
export function useNotices(replacement: NoticeWriter | undefined): void {
  writer = replacement ?? toStderr;
}
