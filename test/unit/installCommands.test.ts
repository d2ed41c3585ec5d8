// The install commands the docs give work for a user: none fetches the package from a registry it is
// not on. Until it is published, each artifact comes from the release folder (`npm run release`).
// What counts, read from README.md, CONTRIBUTING.md and every page of docs/, in fenced blocks and
// in inline code:
// - npm, yarn or pnpm installing `pulumi-alertpipe` or `@alertpipe/pulumi` by bare name (a version or
//   tag after it included): the npm registry has neither. A path or a .tgz is the release's tarball.
// - pip (also `python -m pip`, `uv pip`, `uv add`, `poetry add`) installing `pulumi-alertpipe` or
//   `pulumi_alertpipe` by name: PyPI does not have it. A path or a .whl is the release's wheel.
// - `go get` or `go install` of `github.com/alertpipe/pulumi-alertpipe/…` in a block that does not set
//   GOPROXY to a `file://` folder first: no public proxy serves the module.
// - `pulumi plugin install resource alertpipe` without `--file` (or `--server`): the engine would
//   fetch it from GitHub releases that do not exist.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

/** Each fenced block whole (its GOPROXY counts for its go get), then each inline code span. */
function codeUnits(markdown: string): string[] {
  const units: string[] = [];
  const prose = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_whole, block: string) => {
    units.push(block);
    return "";
  });
  for (const m of prose.matchAll(/`([^`\n]+)`/g)) units.push(m[1] ?? "");
  return units;
}

/** The commands of a unit, as words: lines joined at `\`, split at `&&`, `||`, `;` and `|`. */
function commands(unit: string): string[][] {
  return unit
    .replace(/\\\n/g, " ")
    .split(/\n|&&|\|\||;|\|/)
    .map((c) =>
      c
        .replace(/#.*$/, "")
        .trim()
        .split(/\s+/)
        .filter((w) => w !== ""),
    )
    .filter((words) => words.length > 0);
}

/** A command's environment assignments (`export` ones too), and the words after them. */
function assignments(words: readonly string[]): { env: string[]; command: string[] } {
  const from = words[0] === "export" ? 1 : 0;
  let i = from;
  while (i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i] ?? "")) i++;
  return { env: words.slice(from, i), command: words[0] === "export" ? [] : words.slice(i) };
}

const NPM_NAME = /^(pulumi-alertpipe|@alertpipe\/pulumi)(@[^/]*)?$/;
const PYPI_NAME = /^pulumi[-_]alertpipe([=<>~![].*)?$/i;
const GO_MODULE = /^github\.com\/alertpipe\/pulumi-alertpipe(\/|@|$)/;

/** Why the command installs from a registry the package is not on, or undefined. */
function fromMissingRegistry(words: readonly string[], localGoProxy: boolean): string | undefined {
  const [tool, verb, ...rest] = words;
  const args = (from: readonly string[]) => from.filter((w) => !w.startsWith("-"));
  if (
    (tool === "npm" && ["install", "i", "add", "isntall"].includes(verb ?? "")) ||
    (tool === "yarn" && verb === "add") ||
    (tool === "pnpm" && ["add", "install", "i"].includes(verb ?? ""))
  ) {
    const named = args(rest).find((a) => NPM_NAME.test(a));
    if (named !== undefined) return `${named} is on no npm registry`;
  }
  const pip =
    (tool !== undefined && /^pip3?$/.test(tool.replace(/^.*\//, "")) && verb === "install") ||
    (tool?.startsWith("python") === true && verb === "-m" && rest[0] === "pip" && rest[1] === "install") ||
    (tool === "uv" && ((verb === "pip" && rest[0] === "install") || verb === "add")) ||
    (tool === "poetry" && verb === "add");
  if (pip) {
    const named = args(rest).find((a) => PYPI_NAME.test(a));
    if (named !== undefined) return `${named} is not on PyPI`;
  }
  if (tool === "go" && (verb === "get" || verb === "install") && !localGoProxy) {
    const named = args(rest).find((a) => GO_MODULE.test(a));
    if (named !== undefined) return `${named} is served by no public Go proxy (set GOPROXY to the release's goproxy/)`;
  }
  if (tool === "pulumi" && verb === "plugin" && rest[0] === "install" && rest[2] === "alertpipe") {
    if (!rest.some((w) => w === "--file" || w.startsWith("--file=") || w === "--server" || w.startsWith("--server=")))
      return "the plugin has no GitHub release to download: give --file";
  }
  return undefined;
}

/** Every command of `text` that installs from a registry the package is not on, with why. */
function registryInstalls(text: string): string[] {
  const found: string[] = [];
  for (const unit of codeUnits(text)) {
    // Set once in a block, it holds for the block's later commands.
    let localGoProxy = false;
    for (const words of commands(unit)) {
      const { env, command } = assignments(words);
      if (env.some((w) => w.startsWith("GOPROXY=file://"))) localGoProxy = true;
      const why = fromMissingRegistry(command, localGoProxy);
      if (why !== undefined) found.push(`\`${words.join(" ")}\`: ${why}`);
    }
  }
  return found;
}

const DOCS = [join(root, "README.md"), join(root, "CONTRIBUTING.md"), ...markdownUnder(join(root, "docs"))];

describe("the install commands of the docs", () => {
  it("read README.md, CONTRIBUTING.md and every page of docs/, with the README's install among them", () => {
    expect(DOCS.length).toBeGreaterThan(20);
    const readme = codeUnits(readFileSync(join(root, "README.md"), "utf8")).flatMap(commands);
    expect(readme.some((w) => w[0] === "npm" && w[1] === "install" && w.some((a) => a.endsWith(".tgz")))).toBe(true);
  });

  it.each(DOCS.map((path) => [relative(root, path), path]))(
    "in %s install nothing from a registry the package is not on",
    (_name, path) => {
      expect(registryInstalls(readFileSync(path, "utf8"))).toEqual([]);
    },
  );
});

describe("what counts as installing from a registry the package is not on", () => {
  it.each([
    "npm install pulumi-alertpipe",
    "npm init -y && npm install pulumi-alertpipe",
    "npm i @alertpipe/pulumi@0.2.0",
    "yarn add pulumi-alertpipe",
    "pip install pulumi-alertpipe",
    "venv/bin/pip install pulumi_alertpipe==0.2.0",
    "python3 -m pip install pulumi-alertpipe",
    "go get github.com/alertpipe/pulumi-alertpipe/sdk/go@v0.2.0",
    "pulumi plugin install resource alertpipe 0.2.0",
  ])("`%s` does", (line) => {
    expect(registryInstalls(`\`${line}\``)).toHaveLength(1);
    expect(registryInstalls(`\`\`\`sh\n${line}\n\`\`\`\n`)).toHaveLength(1);
  });

  it.each([
    "npm install /path/to/release/pulumi-alertpipe-0.2.0.tgz @pulumi/pulumi",
    "npm install ./pulumi-alertpipe.tgz",
    "npm install",
    "pip install /path/to/release/pulumi_alertpipe-0.2.0-py3-none-any.whl",
    "venv/bin/pip install pulumi==3.248.0 /tmp/pulumi_alertpipe-sdk",
    "pulumi plugin install resource alertpipe 0.2.0 --file /path/to/archive.tar.gz",
    "GOSUMDB=off go get -tool github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v3.248.0",
    "go get",
  ])("`%s` does not", (line) => {
    expect(registryInstalls(`\`${line}\``)).toEqual([]);
  });

  it("lets a go get of the module pass after GOPROXY names the release's folder in its block", () => {
    const block = [
      "```sh",
      "export GOPROXY=file:///path/to/release/goproxy,https://proxy.golang.org",
      "go get github.com/alertpipe/pulumi-alertpipe/sdk/go@v0.2.0",
      "```",
      "",
    ].join("\n");
    expect(registryInstalls(block)).toEqual([]);
  });
});
