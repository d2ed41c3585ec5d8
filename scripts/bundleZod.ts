// Part of `npm run build`, after tsc: replaces dist/provider/protocol/zod.js, which tsc compiled to a
// `require("zod")`, with provider/protocol/zod.ts bundled from zod's ES modules into that one file
// (see that file for why). Only the builders it names are kept, with what they use: 289 KB to 144 KB,
// some 7 ms less of each cold start. zod's schemas register English themselves; the other languages
// are in its `locales`, which we do not name. The package's zod stays a dependency: the emulator and
// the types use it.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./packedPackage";

export async function bundleZod(
  root: string = repoRoot(),
  outfile: string = join(root, "dist", "provider", "protocol", "zod.js"),
): Promise<string> {
  await build({
    entryPoints: [join(root, "provider", "protocol", "zod.ts")],
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // Whitespace and syntax only, names kept (stacks stay readable): less to read on each cold start.
    minifyWhitespace: true,
    minifySyntax: true,
    outfile,
    logLevel: "warning",
    banner: { js: "// Built by scripts/bundleZod.ts: the zod builders provider/ uses, bundled." },
  });
  // tsc's map described the compiled file, not this one.
  rmSync(`${outfile}.map`, { force: true });
  return outfile;
}

if (require.main === module) {
  bundleZod().catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  });
}
