#!/usr/bin/env node
// `alertpipe`, the package's command (`alertpipe export`, cli.ts); in the plugin archive beside the
// plugin. Exits once its output is flushed: the HTTP layer's keep-alive pool would hold it open.

import { runCli } from "./cli";

const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);

runCli(process.argv.slice(2), { out: write(process.stdout), err: write(process.stderr) }).then(
  (code) => process.stdout.write("", () => process.exit(code)),
  (err: unknown) => {
    process.stderr.write(`alertpipe: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
