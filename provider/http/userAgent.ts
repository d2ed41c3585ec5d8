// Compiled file and source sit at different depths: walk up to our package.json.

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

/** Set by the plugin bundler, having no package.json; elsewhere undeclared, hence `typeof`. */
declare const __ALERTPIPE_VERSION__: string | undefined;

/** The package's version, in the User-Agent and the native plugin's. */
export const PACKAGE_VERSION = typeof __ALERTPIPE_VERSION__ === "string" ? __ALERTPIPE_VERSION__ : ownVersion();

export const USER_AGENT = `pulumi-alertpipe/${PACKAGE_VERSION} (node ${process.version})`;
