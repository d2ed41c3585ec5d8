// The package as a user gets it: what it ships (licence, contract), what it asks the user to
// install, its entry points, and the example compiling outside this repository.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { examplesDir } from "../../scripts/exampleStack";
import { packPackage, repoRoot } from "../../scripts/packedPackage";

const root = repoRoot();
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  license: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
/** What npm runs when it installs a package (npm 11 warns of each in a tarball it installs). */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"] as const;
const tarball = packPackage();
const packedFiles = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
  .split("\n")
  .filter((f) => f !== "")
  .map((f) => f.replace(/^package\//, ""));

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
  rmSync(dirname(tarball), { recursive: true, force: true });
});

/** Runs a script in a node whose working folder is the example, which has the packed package installed. */
function inExample(script: string): string {
  return execFileSync(process.execPath, ["-e", script], { cwd: examplesDir(), encoding: "utf8" }).trim();
}

describe("what the package ships and asks for", () => {
  it("ships an Apache-2.0 LICENSE, as package.json says", () => {
    expect(pkg.license).toBe("Apache-2.0");
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    expect(packedFiles).toContain("LICENSE");
  });

  it("takes @pulumi/pulumi as a peer dependency (one copy of the SDK in a user's tree), and as a dev dependency for its tests", () => {
    expect(pkg.dependencies?.["@pulumi/pulumi"]).toBeUndefined();
    expect(pkg.peerDependencies?.["@pulumi/pulumi"]).toMatch(/^\^3\./);
    expect(pkg.devDependencies?.["@pulumi/pulumi"]).toBe(pkg.peerDependencies?.["@pulumi/pulumi"]);
  });

  it("runs nothing at install: the packed package.json has no install-time script, the repository's keeps prepare", () => {
    const packed = JSON.parse(
      execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
    ) as { scripts?: Record<string, string> };
    const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts?: Record<string, string> };
    for (const script of INSTALL_SCRIPTS) expect(packed.scripts?.[script], script).toBeUndefined();
    expect(own.scripts?.prepare).toContain("core.hooksPath");
  });

  it("has README links to files that exist in a clone and in the package", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1] ?? "")
      .filter((l) => !/^[a-z]+:/.test(l));
    expect(links).toContain("spec/interfaces.md");
    for (const link of links) {
      expect(existsSync(join(root, link)), `${link} in the clone`).toBe(true);
      expect(packedFiles, `${link} in the package`).toContain(link);
    }
  });
});

describe("entry points of the installed package", () => {
  it("loads the resources without loading the emulator", () => {
    const loaded = inExample(
      `const p = require("pulumi-alertpipe"); console.log(JSON.stringify({ resources: typeof p.PipeSettings, emulator: typeof p.startEmulator, files: Object.keys(require.cache).filter((f) => f.includes("/pulumi-alertpipe/dist/emulator/")).length }))`,
    );
    expect(JSON.parse(loaded)).toEqual({ resources: "function", emulator: "undefined", files: 0 });
  });

  it("has the emulator as its own subpath, pulumi-alertpipe/emulator", () => {
    expect(inExample(`console.log(typeof require("pulumi-alertpipe/emulator").startEmulator)`)).toBe("function");
  });

  it("resolves the paths the serialized providers require, and itself by name from inside the package", () => {
    const resolved = inExample(`
      const paths = ["alert", "pipeSettings", "apiKey"].flatMap((k) => ["pulumi-alertpipe/dist/provider/" + k + "/shim.js", "pulumi-alertpipe/dist/provider/" + k + "/provider"]);
      for (const p of paths) require.resolve(p);
      const inside = require("node:module").createRequire(require.resolve("pulumi-alertpipe/dist/provider/dynamic/shim.js"));
      console.log(inside.resolve("pulumi-alertpipe") === require.resolve("pulumi-alertpipe") ? "self" : "other");`);
    expect(resolved).toBe("self");
  });
});

describe("the example outside this repository", () => {
  it("compiles with what its package.json installs (the packed package, then the registry)", () => {
    const dir = mkdtempSync(join(tmpdir(), "alertpipe-example-copy-"));
    temps.push(dir);
    for (const f of ["index.ts", "package.json", "tsconfig.json", "Pulumi.yaml"])
      cpSync(join(examplesDir(), f), join(dir, f));
    cpSync(tarball, join(dir, "pulumi-alertpipe.tgz"));
    const npm = (args: string[]) =>
      execFileSync("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    // Until the package is on the registry, its package.json names a version only the tarball has.
    npm(["install", "./pulumi-alertpipe.tgz"]);
    npm(["install"]);
    const tsc = join(dir, "node_modules", "typescript", "bin", "tsc");
    expect(existsSync(tsc), "the example's package.json installs a TypeScript compiler").toBe(true);
    expect(() =>
      execFileSync(process.execPath, [tsc, "--noEmit", "-p", dir], {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ).not.toThrow();
  }, 600_000);
});
