// Where a test run's exchange log lives and what its first line says: the commit and the state of
// the tree it ran on, so `npm run test:openapi` validates what this tree's tests sent, never an old run's.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { repoRoot } from "../../scripts/packedPackage";

export interface RunStamp {
  kind: "run";
  commit: string;
  /** sha256 of `git status --porcelain` and `git diff HEAD`: the uncommitted changes the run saw. */
  tree: string;
  startedAt: string;
  argv: string[];
}

export function exchangeLogFile(): string {
  return join(repoRoot(), ".alertpipe", "exchanges.jsonl");
}

export function currentStamp(argv: string[]): RunStamp {
  // Outside a git checkout the stamp says so, and test:openapi refuses the log rather than npm test failing.
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: repoRoot(), encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      return "(not a git checkout)";
    }
  };
  return {
    kind: "run",
    commit: git("rev-parse", "HEAD").trim(),
    tree: createHash("sha256").update(git("status", "--porcelain")).update(git("diff", "HEAD")).digest("hex"),
    startedAt: new Date().toISOString(),
    argv,
  };
}
