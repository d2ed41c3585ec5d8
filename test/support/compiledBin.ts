// Test support: one entry point of the tree compiled on its own (it and what it imports) into a
// throwaway folder under node_modules/.cache, so a test of a real bin depends neither on an earlier
// `npm run build` nor on the rest of the tree compiling.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = resolve(__dirname, "../..");

/** Compiles `entry` (a path from the repository's root, e.g. "emulator/cli.ts"); answers its .js and how to remove it. */
export function compiledBin(entry: string, label: string): { path: string; remove(): void } {
  const cache = join(root, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, `alertpipe-${label}-`));
  const tsconfig = {
    extends: join(root, "tsconfig.build.json"),
    compilerOptions: {
      outDir: join(dir, "out"),
      rootDir: root,
      declaration: false,
      sourceMap: false,
      // The build's incremental record is the build's: this compile keeps its own in its folder.
      tsBuildInfoFile: join(dir, "tsbuildinfo"),
    },
    include: [],
    files: [join(root, entry)],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  execFileSync(
    process.execPath,
    [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")],
    {
      stdio: "pipe",
    },
  );
  return {
    path: join(dir, "out", relative(root, join(root, entry)).replace(/\.ts$/, ".js")),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
