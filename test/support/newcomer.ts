// Test support: commands run as a newcomer types them, taken from the docs. One bash, `-euo
// pipefail`, leading a process group of its own (setsid execs bash, so its pid leads the group), with
// output to a file, not a pipe: a failed step ends the run at once, where something started in the
// background would hold a pipe open, and whatever the commands left running is found by the group.
// HOME and PULUMI_HOME are the run's own folder, never the machine's; npm reads this machine's cache.

import { spawnSync } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";

export interface NewcomerRun {
  status: number | null;
  /** What the commands printed, stdout and stderr together. */
  output: string;
  /** The process group the run led; its members, if any, were left running by the commands. */
  group: number | undefined;
}

/** Runs `script` in `root` (also its HOME), with `path` as PATH. */
export function runAsNewcomer(script: string, root: string, path: string, timeoutMs: number): NewcomerRun {
  const log = join(root, "newcomer.log");
  const out = openSync(log, "w");
  const run = spawnSync("setsid", ["bash", "-euo", "pipefail", "-c", script], {
    cwd: root,
    stdio: ["ignore", out, out],
    timeout: timeoutMs,
    env: {
      PATH: path,
      HOME: root,
      // Pulumi finds its home by the user's account, not HOME: this run's own, never the machine's.
      PULUMI_HOME: join(root, ".pulumi-home"),
      // The npm cache of this machine, so the dependencies come without a download.
      npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    },
  });
  closeSync(out);
  return { status: run.status, output: readFileSync(log, "utf8"), group: run.pid };
}

/** The processes of a process group that have not ended, from /proc (a zombie has ended). */
export function groupMembers(group: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return fields[0] !== "Z" && Number(fields[2]) === group;
      } catch {
        return false; // Gone while we looked.
      }
    })
    .map(Number);
}

/** Stops what a run left behind, by its process group. */
export function stopGroup(group: number | undefined): void {
  if (group === undefined) return;
  try {
    process.kill(-group, "SIGTERM");
  } catch {
    // The group is empty: nothing was left running.
  }
}

export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Waits, up to `ms`, for `done`. */
export async function until(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
}
