#!/usr/bin/env node
// `pulumi-resource-alertpipe`: prints its loopback port, which is how the engine learns where to
// call. Logging flags may precede the engine's address. Only gRPC and the protocol load here, for a
// short start; each behaviour loads on its first call.

import { watchEngine } from "./lifeline";
import { serveProvider } from "./server";

const engineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
const parentPid = process.ppid;

serveProvider(engineAddress === undefined ? {} : { engineAddress }).then(
  ({ port }) => {
    process.stdout.write(`${port}\n`);
    // An engine killed outright cannot end its plugins.
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
