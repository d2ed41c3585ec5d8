// One version, from one place: package.json's `version` is the package's, the plugin's (PACKAGE_VERSION),
// the schema's, and each generated SDK's (the plugin version it asks the engine for). And one repository:
// package.json's links and the Go module path come from REPOSITORY. `npm run sdk` after a version bump
// keeps the committed sdk/ in step; this test fails until it has run.

import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_VERSION } from "../../provider/http/userAgent";
import { REPOSITORY } from "../../provider/native/schema";
import { lockedSdkVersion } from "../../scripts/engine/pulumiCli";

const root = resolve(__dirname, "..", "..");
const read = (path: string): string => readFileSync(join(root, path), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  version: string;
  homepage: string;
  repository: { url: string };
  bugs: { url: string };
};

describe("the version", () => {
  it("is package.json's for the plugin", () => {
    expect(PACKAGE_VERSION).toBe(pkg.version);
  });

  it.each([
    ["sdk/schema.json", (t: string) => (JSON.parse(t) as { version: string }).version],
    ["sdk/nodejs/package.json", (t: string) => (JSON.parse(t) as { version: string }).version],
    ["sdk/nodejs/package.json", (t: string) => (JSON.parse(t) as { pulumi: { version: string } }).pulumi.version],
    ["sdk/python/pyproject.toml", (t: string) => /^\s*version = "([^"]+)"$/m.exec(t)?.[1]],
    ["sdk/python/pulumi_alertpipe/pulumi-plugin.json", (t: string) => (JSON.parse(t) as { version: string }).version],
    ["sdk/go/alertpipe/pulumi-plugin.json", (t: string) => (JSON.parse(t) as { version: string }).version],
  ])("is package.json's in %s", (path, versionIn) => {
    expect(versionIn(read(path))).toBe(pkg.version);
  });

  it("of Pulumi's Go SDK that the Go SDK requires is the one the lock file tests with", () => {
    expect(read("sdk/go/go.mod")).toMatch(
      new RegExp(`^require github\\.com/pulumi/pulumi/sdk/v3 ${lockedSdkVersion().replace(/\./g, "\\.")}$`, "m"),
    );
  });

  it("has a section in CHANGELOG.md", () => {
    expect(read("CHANGELOG.md")).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, "\\.")}\\]`, "m"));
  });
});

describe("the repository", () => {
  it("is REPOSITORY in package.json's repository, bugs and homepage", () => {
    expect(pkg.repository.url).toBe(`git+https://${REPOSITORY}.git`);
    expect(pkg.bugs.url).toBe(`https://${REPOSITORY}/issues`);
    expect(pkg.homepage).toBe(`https://${REPOSITORY}#readme`);
  });

  it("is the Go SDK's module path", () => {
    expect(read("sdk/go/go.mod")).toMatch(new RegExp(`^module ${REPOSITORY}/sdk/go$`, "m"));
  });
});

describe("the documents", () => {
  const documents = [
    "README.md",
    "CONTRIBUTING.md",
    "CHANGELOG.md",
    "ARCHITECTURE.md",
    ...readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".md"))
      .map((f) => join("docs", f)),
  ];
  it.each(documents)("%s names no other repository than REPOSITORY", (doc) => {
    const named = [...read(doc).matchAll(/(?<![.\w])github\.com\/[\w.-]+\/pulumi-alertpipe\b/g)].map((m) => m[0]);
    expect(named.filter((r) => r !== REPOSITORY)).toEqual([]);
  });
});
