#!/usr/bin/env node
// `pulumi-resource-alertpipe`, the native plugin the engine starts: it serves the provider on a
// loopback port and prints the port, which is how the engine learns where to call. The engine's
// address is the first argument that is not a flag (logging flags may come before it). Nothing but
// the gRPC runtime and the protocol loads here; each resource's behaviour loads on its first call.
// It exits when the engine is gone (lifeline.ts).

import { watchEngine } from "./lifeline";
import { serveProvider } from "./server";

const engineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
const parentPid = process.ppid;

serveProvider(engineAddress === undefined ? {} : { engineAddress }).then(
  ({ port }) => {
    process.stdout.write(`${port}\n`);
    // An engine killed outright cannot end its plugins: this one ends itself (lifeline.ts).
    watchEngine({
      parentPid,
      ...(engineAddress === undefined ? {} : { engineAddress }),
      onGone: (why) => {
        process.stderr.write(`pulumi-resource-alertpipe: exiting: ${why}\n`);
        process.exit(0);
      },
    });
  },
  (err: unknown) => {
    process.stderr.write(
      `pulumi-resource-alertpipe: cannot serve: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
