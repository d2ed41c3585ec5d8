// The README's own commands, as a newcomer types them on a fresh clone: the clone command of its
// "Install" block, then the demo line of its "Quick start" block, read from the Markdown and run as
// written in one bash in an empty folder, with the real CLI on PATH and a HOME and PULUMI_HOME of
// its own. The one substitution: the repository's address, unreachable here, becomes this
// repository's path, so the clone is of its committed HEAD (uncommitted edits are not in it). The
// block's other line, `npm ci && npm test`, is this very suite.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulumiCli } from "../../scripts/engine/pulumiCli";
import { repoRoot } from "../../scripts/packedPackage";
import { groupMembers, portFree, runAsNewcomer, stopGroup } from "../support/newcomer";
import { readmeCommands } from "../support/readmeBlocks";

/** The canonical repository, as package.json names it (its homepage, without the anchor). */
const REPOSITORY = (
  JSON.parse(readFileSync(join(repoRoot(), "package.json"), "utf8")) as { homepage: string }
).homepage.replace(/#.*$/, "");

let path = "";
let root = "";

beforeAll(async () => {
  // The CLI a user has; the demo would otherwise build one (minutes) into the cache under HOME.
  const cli = await pulumiCli();
  path = [dirname(cli.path), dirname(process.execPath), process.env.PATH ?? ""].join(delimiter);
}, 900_000);

afterAll(() => {
  if (root !== "") rmSync(root, { recursive: true, force: true });
});

describe("the README's quick start, on a fresh clone", () => {
  it("clones, runs `npm ci && npm run demo` through up and destroy, and leaves its emulator stopped", async () => {
    // The install line's clone and cd; its `npm run release` makes the release, another test's matter.
    const install = readmeCommands("Install").find((line) => line.startsWith("git clone "));
    expect(install, "README's Install block has no `git clone` line").toBeDefined();
    const clone = (install ?? "").split(" && ").slice(0, 2);
    expect(clone[0]).toBe(`git clone ${REPOSITORY}`);
    const demo = readmeCommands("Quick start").find((line) => line.includes("npm run demo"));
    expect(demo, "README's Quick start block has no `npm run demo` line").toBeDefined();

    root = mkdtempSync(join(tmpdir(), "alertpipe-quick-start-"));
    // A path ending in the repository's name, so the clone's folder is named as from GitHub.
    const origin = join(root, "origin", "pulumi-alertpipe");
    mkdirSync(dirname(origin));
    symlinkSync(repoRoot(), origin, "dir");
    const work = join(root, "home");
    mkdirSync(work);
    const script = [...clone, demo].join("\n").replace(REPOSITORY, origin) + "\n";
    const { status, output, group } = runAsNewcomer(script, work, path, 900_000);
    if (status !== 0) stopGroup(group);
    expect(status, output).toBe(0);
    expect(output).toMatch(/=== pulumi up\n[\s\S]*?Resources:\s+\+ \d+ created/);
    expect(output).toMatch(/=== pulumi destroy\n[\s\S]*?Resources:\s+- \d+ deleted/);
    expect(output).toContain("Nothing left behind on the emulator.");
    // The emulator stopped: its port free again, and nothing of the run still going.
    const port = Number(/Emulator of both APIs listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(await portFree(port)).toBe(true);
    expect(groupMembers(group ?? 0)).toEqual([]);
    // A clone's npm ci and the demo's up and destroy: the script's own bound, not the tier's 120 s.
  }, 900_000);
});
