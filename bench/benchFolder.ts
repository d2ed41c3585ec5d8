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
import { LIST_PAGE_MAX } from "../provider/serviceFacts/alertRules";
import { HAND_WRITTEN_CLOUD, HAND_WRITTEN_DYNAMIC } from "./handWrittenCloud";
import {
  FETCH_TOKEN_ENV,
  FETCH_URL_ENV,
  HAND_WRITTEN_CLOUD_PACKAGE,
  REFERENCE_SLEEP_ENV,
  SHELL_PACKAGES,
  type ShellKind,
} from "./shellFacts";

export { REFERENCE_SLEEP_ENV } from "./shellFacts";

const REFERENCE_PACKAGE = "alertpipe-bench-reference";
const FETCHING_PACKAGE = "alertpipe-bench-fetching";
const LISTING_PACKAGE = "alertpipe-bench-listing";

// The refresh rows' reference (issue 47): reads through the lists ours reads, answers each read from
// them, nothing else (bench/listingReference.ts, import-free, so the host loads none of our code).
function listingProvider(): string {
  return `"use strict";
module.exports = require(${JSON.stringify(require.resolve("./listingReference"))}).listingDynamicProvider(${LIST_PAGE_MAX});
`;
}

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

// Plain CommonJS too: the dynamic provider a user without pulumi-alertpipe writes for the same
// alerts. Its create POSTs the alert with fetch and returns the service's answer: no checks, no
// retries, no pacing; every other method is the host's default. The service's address and token
// come from the environment, as a provider that must not hold credentials in state reads them.
const FETCHING_PROVIDER = `"use strict";
// A hand-written dynamic provider: what the bench holds pulumi-alertpipe's Alert to.
module.exports = {
  async create(inputs) {
    // The host hands the serialized provider among the inputs.
    const { __provider, ...alert } = inputs;
    const res = await fetch(process.env.${FETCH_URL_ENV} + "/api/v2/alerts", {
      method: "POST",
      headers: { authorization: "Bearer " + process.env.${FETCH_TOKEN_ENV}, "content-type": "application/json" },
      body: JSON.stringify(alert),
    });
    const body = await res.json();
    if (!res.ok) throw new Error("POST /api/v2/alerts answered " + res.status + ": " + JSON.stringify(body));
    return { id: String(body.data.id), outs: { ...alert, ...body.data } };
  },
};
`;

export interface BenchFolder {
  /** The project's main folder: the provider host's working directory. */
  readonly dir: string;
  /** pulumi-alertpipe as installed there. */
  readonly alertpipe: AlertpipePackage;
  /** The do-nothing provider as installed there (a module's exports, so it serializes as a require). */
  readonly reference: pulumi.dynamic.ResourceProvider;
  /** The list-reading reference of the refresh rows as installed there, the same way. */
  readonly listing: pulumi.dynamic.ResourceProvider;
  /** The hand-written fetching provider as installed there, the same way. */
  readonly fetching: pulumi.dynamic.ResourceProvider;
  /** The hand-written Cloud providers, paced in one window per process (bench/handWrittenCloud.ts). */
  readonly paced: {
    readonly Alert: pulumi.dynamic.ResourceProvider;
    readonly PipeSettings: pulumi.dynamic.ResourceProvider;
  };
  /** node_modules/.bin there, holding `pulumi-resource-alertpipe` as npm's install of the package's bin would. */
  readonly pluginDir: string;
}

/** A package of one CommonJS file in the folder's node_modules, loaded from there. */
function installProviderPackage(dir: string, name: string, source: string): pulumi.dynamic.ResourceProvider {
  const packageDir = join(dir, "node_modules", name);
  mkdirSync(packageDir, { recursive: true });
  writeFileSync(
    join(packageDir, "package.json"),
    `${JSON.stringify({ name, version: "0.0.0", main: "index.js", private: true }, null, 2)}\n`,
  );
  writeFileSync(join(packageDir, "index.js"), source);
  return createRequire(join(dir, "index.js"))(name) as pulumi.dynamic.ResourceProvider;
}

/** The native references (bench/nativeShells.ts), each a script on the same PATH as our plugin. */
function linkShells(binDir: string): void {
  const shells = require.resolve("./nativeShells");
  for (const kind of Object.keys(SHELL_PACKAGES) as ShellKind[]) {
    const file = join(binDir, `pulumi-resource-${SHELL_PACKAGES[kind]}`);
    writeFileSync(
      file,
      `#!/usr/bin/env node\nrequire(${JSON.stringify(shells)}).serveShell(${JSON.stringify(kind)});\n`,
    );
    chmodSync(file, 0o755);
  }
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

/** `installed`: the packed package is already there (a bench child process reusing the parent's folder). */
export function prepareBenchFolder(installed = false): BenchFolder {
  const dir = workDir("bench");
  if (!installed) installPacked(dir);
  const pluginDir = linkPlugin(dir);
  linkShells(pluginDir);
  installProviderPackage(dir, HAND_WRITTEN_CLOUD_PACKAGE, HAND_WRITTEN_CLOUD);
  const paced = (kind: keyof typeof HAND_WRITTEN_DYNAMIC) =>
    installProviderPackage(dir, HAND_WRITTEN_DYNAMIC[kind].name, HAND_WRITTEN_DYNAMIC[kind].source);
  return {
    dir,
    alertpipe: installedPackage(dir),
    reference: installProviderPackage(dir, REFERENCE_PACKAGE, REFERENCE_PROVIDER),
    listing: installProviderPackage(dir, LISTING_PACKAGE, listingProvider()),
    fetching: installProviderPackage(dir, FETCHING_PACKAGE, FETCHING_PROVIDER),
    paced: { Alert: paced("Alert"), PipeSettings: paced("PipeSettings") },
    pluginDir,
  };
}
