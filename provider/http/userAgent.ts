// The User-Agent names the package and its version, read from our own package.json. The compiled
// file and its TypeScript source sit at different depths, so walk up to find it.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

function ownVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-alertpipe" && pkg.version) return pkg.version;
    }
    if (dirname(dir) === dir) return "unknown";
  }
}

/**
 * Set by the bundler of the plugin archive (scripts/pluginArchive.ts), whose one JavaScript file has
 * no package.json above it; undeclared, hence `typeof`, everywhere else.
 */
declare const __ALERTPIPE_VERSION__: string | undefined;

/** The package's version: the User-Agent's, and the one the native plugin reports to the engine. */
export const PACKAGE_VERSION = typeof __ALERTPIPE_VERSION__ === "string" ? __ALERTPIPE_VERSION__ : ownVersion();

export const USER_AGENT = `pulumi-alertpipe/${PACKAGE_VERSION} (node ${process.version})`;
