// How the real engine is found or built (scripts/engine/pulumiCli.ts): pinned to our SDK, and
// failing in words when neither a CLI nor Go is there.

import { chmodSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findOrBuildCli,
  goModuleVersion,
  lockedSdkVersion,
  placeExecutable,
  versionAtLeast,
} from "../../scripts/engine/pulumiCli";

describe("the pulumi CLI the tests run on", () => {
  it("is built from the same pulumi version as the @pulumi/pulumi of the lock file", () => {
    expect(goModuleVersion("pulumi-cli", "github.com/pulumi/pulumi/pkg/v3")).toBe(lockedSdkVersion());
  });

  it("fails with one message naming both ways out when there is neither a CLI nor Go", async () => {
    const empty = mkdtempSync(join(tmpdir(), "alertpipe-nocli-"));
    const attempt = findOrBuildCli(() => {}, {
      path: empty,
      goCandidates: ["go", join(empty, "go")],
      cacheRoot: join(empty, "cache"),
    });
    await expect(attempt).rejects.toThrow(/put pulumi v3\.\d+\.\d+ or newer on PATH, or install Go 1\.25 or newer/);
  });

  it("passes over a CLI on PATH older than our SDK", async () => {
    const dir = mkdtempSync(join(tmpdir(), "alertpipe-oldcli-"));
    writeFileSync(join(dir, "pulumi"), "#!/bin/sh\necho v3.100.0\n");
    chmodSync(join(dir, "pulumi"), 0o755);
    const said: string[] = [];
    // No Go either, so it ends in the message; what matters is that the old CLI was not taken.
    const attempt = findOrBuildCli((line) => said.push(line), {
      path: dir,
      goCandidates: [],
      cacheRoot: join(dir, "cache"),
    });
    await expect(attempt).rejects.toThrow(/neither it nor Go was found/);
    expect(said.join("\n")).toContain("is older than");
  });

  it("compares versions by their numbers, not as text", () => {
    expect(versionAtLeast("v3.248.0", "v3.248.0")).toBe(true);
    expect(versionAtLeast("v3.1000.0", "v3.248.0")).toBe(true);
    expect(versionAtLeast("v3.99.9", "v3.248.0")).toBe(false);
    expect(versionAtLeast("not a version", "v3.248.0")).toBe(false);
  });
});

describe("an executable placed beside the CLI (the dynamic provider's plugin, a language host)", () => {
  function installed(dir: string, name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, 0o755);
    return path;
  }

  it("is left untouched when it is already the installed file, so a worker starting it is never written under", () => {
    const dir = mkdtempSync(join(tmpdir(), "alertpipe-place-"));
    const source = installed(dir, "source", "#!/bin/sh\necho one\n");
    const target = join(dir, "bin-plugin");
    placeExecutable(source, target);
    placeExecutable(source, target);
    // On one file system, the installed file itself: nothing was written.
    expect(statSync(target).ino).toBe(statSync(source).ino);
  });

  it("is replaced whole by a rename after a reinstall, executable, with no scratch file left", () => {
    const dir = mkdtempSync(join(tmpdir(), "alertpipe-place-"));
    const target = join(dir, "bin-plugin");
    placeExecutable(installed(dir, "old", "#!/bin/sh\necho one\n"), target);
    const before = statSync(target).ino;
    placeExecutable(installed(dir, "new", "#!/bin/sh\necho two\n"), target);
    expect(readFileSync(target, "utf8")).toContain("echo two");
    expect(statSync(target).ino).not.toBe(before);
    expect(statSync(target).mode & 0o755).toBe(0o755);
    expect(readdirSync(dir).sort()).toEqual(["bin-plugin", "new", "old"]);
  });
});
