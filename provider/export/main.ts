#!/usr/bin/env node
// The `alertpipe` command. Exits once flushed: the keep-alive pool would hold it open.

import { runCli } from "./cli";

const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);

runCli(process.argv.slice(2), { out: write(process.stdout), err: write(process.stderr) }).then(
  (code) => process.stdout.write("", () => process.exit(code)),
  (err: unknown) => {
    process.stderr.write(`alertpipe: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
