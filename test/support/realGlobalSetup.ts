// Before any test file of the real tier: find or build the real alerting service (Node 22, FerretDB,
// HyperDX's API; scripts/realService/build.ts) and start one FerretDB for the run. Each test file
// starts its own API on a fresh database of it (realService.ts). A missing prerequisite (Go, the
// npm registry) fails the run; no test is skipped for it.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProvidedContext } from "vitest";
import { realServiceBuild, type RealServiceBuild } from "../../scripts/realService/build";
import { startFerretdb } from "../../scripts/realService/server";

declare module "vitest" {
  export interface ProvidedContext {
    realService: { build: RealServiceBuild; mongo: string; dir: string };
  }
}

/** What of vitest's TestProject the setup uses. */
interface Project {
  provide<K extends keyof ProvidedContext>(key: K, value: ProvidedContext[K]): void;
}

export default async function setup(project: Project): Promise<() => Promise<void>> {
  const started = Date.now();
  const build = await realServiceBuild((line) => console.log(line));
  const built = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "alertpipe-real-"));
  const ferretdb = await startFerretdb(build, dir);
  const { node, ferretdb: ferret, api } = build.seconds;
  console.log(
    `The real alerting service (HyperDX's API ${build.apiDir}) is ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `found or built in ${((built - started) / 1000).toFixed(1)} s (built now: Node ${node} s, FerretDB ${ferret} s, API ${api} s; 0 = cached), ` +
      `FerretDB at ${ferretdb.url}.`,
  );
  project.provide("realService", { build, mongo: ferretdb.url, dir });
  return async () => {
    await ferretdb.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
