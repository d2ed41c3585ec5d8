// The cache of what the tests build outside the repository (the Pulumi CLI and its Go tools): one
// folder per build, named by what it was built from.

import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** `${XDG_CACHE_HOME:-~/.cache}/pulumi-alertpipe`. */
export function defaultCacheRoot(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-alertpipe");
}

/**
 * Builds into `dir` unless `done` (a path inside it) is there already. The build writes into a
 * scratch folder renamed into place, so an interrupted or concurrent build never leaves half a
 * cache: a concurrent one that finished first wins, and this one's scratch is dropped. Returns
 * whether it built.
 */
export async function buildOnce(
  dir: string,
  done: string,
  build: (scratch: string) => Promise<void>,
): Promise<boolean> {
  if (existsSync(join(dir, done))) return false;
  const scratch = `${dir}.building-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    await build(scratch);
    if (!existsSync(join(scratch, done))) throw new Error(`the build into ${dir} did not make ${done}`);
    if (existsSync(join(dir, done))) {
      rmSync(scratch, { recursive: true, force: true });
    } else {
      rmSync(dir, { recursive: true, force: true });
      renameSync(scratch, dir);
    }
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  return true;
}
