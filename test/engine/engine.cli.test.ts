// How the real engine is found or built (scripts/engine/pulumiCli.ts): pinned to our SDK, and
// failing in words when neither a CLI nor Go is there.

import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findOrBuildCli, goModuleVersion, lockedSdkVersion, versionAtLeast } from "../../scripts/engine/pulumiCli";

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
