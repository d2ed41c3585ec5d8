// The program folder every bench stack and host runs in (.alertpipe/bench, gitignored): the packed
// package installed in its node_modules as a user's `npm install` would, and beside it a
// do-nothing dynamic provider installed the same way, so that both serialize into state as a
// `require("<package>/…")` and the provider host loads both the same way. The difference between
// the two is then our code and nothing else. The package's native plugin is linked into
// node_modules/.bin, where npm puts a package's bin, for the rows that run the same work through it.

import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { installedPackage, type AlertpipePackage } from "../scripts/exampleStack";
import { installPacked, workDir } from "../scripts/packedPackage";

const REFERENCE_PACKAGE = "alertpipe-bench-reference";

/** Env var the reference reads at create time, so its inputs can be exactly ours. */
export const REFERENCE_SLEEP_ENV = "ALERTPIPE_BENCH_SLEEP_MS";

// Plain CommonJS, as a published provider package would ship. Every method answers at once;
// create first waits REFERENCE_SLEEP_ENV ms when set (the sleep-only reference of the latency run).
const REFERENCE_PROVIDER = `"use strict";
// A dynamic provider that does nothing: the reference the bench compares pulumi-alertpipe against.
let counter = 0;
module.exports = {
  async check(olds, news) {
    return { inputs: news };
  },
  async diff() {
    return {};
  },
  async create(inputs) {
    const sleepMs = Number(process.env.${REFERENCE_SLEEP_ENV} || 0);
    if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
    counter += 1;
    return { id: "reference-" + process.pid + "-" + counter, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(id, olds, news) {
    return { outs: news };
  },
  async delete() {},
};
`;

export interface BenchFolder {
  /** The project's main folder: the provider host's working directory. */
  readonly dir: string;
  /** pulumi-alertpipe as installed there. */
  readonly alertpipe: AlertpipePackage;
  /** The do-nothing provider as installed there (a module's exports, so it serializes as a require). */
  readonly reference: pulumi.dynamic.ResourceProvider;
  /** node_modules/.bin there, holding `pulumi-resource-alertpipe` as npm's install of the package's bin would. */
  readonly pluginDir: string;
}

/** The package's bin as npm links it: the engine finds the native plugin on PATH from there. */
function linkPlugin(dir: string): string {
  const binDir = join(dir, "node_modules", ".bin");
  mkdirSync(binDir, { recursive: true });
  const main = join(dir, "node_modules", "pulumi-alertpipe", "dist", "provider", "native", "main.js");
  chmodSync(main, 0o755);
  const link = join(binDir, "pulumi-resource-alertpipe");
  rmSync(link, { force: true });
  symlinkSync(main, link);
  return binDir;
}

export function prepareBenchFolder(): BenchFolder {
  const dir = workDir("bench");
  installPacked(dir);
  const referenceDir = join(dir, "node_modules", REFERENCE_PACKAGE);
  mkdirSync(referenceDir, { recursive: true });
  writeFileSync(
    join(referenceDir, "package.json"),
    `${JSON.stringify({ name: REFERENCE_PACKAGE, version: "0.0.0", main: "index.js", private: true }, null, 2)}\n`,
  );
  writeFileSync(join(referenceDir, "index.js"), REFERENCE_PROVIDER);
  const load = createRequire(join(dir, "index.js"));
  return {
    dir,
    alertpipe: installedPackage(dir),
    reference: load(REFERENCE_PACKAGE) as pulumi.dynamic.ResourceProvider,
    pluginDir: linkPlugin(dir),
  };
}
