// Part of `npm run build`, after tsc: replaces dist/provider/protocol/zod.js, which tsc compiled to a
// `require("zod")`, with zod bundled into that one file (see provider/protocol/zod.ts for why).
// zod's own locales index, which loads every language's messages, is replaced by one that holds
// only English, the language zod's entry point configures and our checks' messages are in; nothing
// else of zod is left out (only its whitespace). The package's zod stays a dependency: the
// emulator and the types use it.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./packedPackage";

const LOCALES_INDEX = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;

export async function bundleZod(root: string = repoRoot()): Promise<string> {
  const outfile = join(root, "dist", "provider", "protocol", "zod.js");
  await build({
    stdin: { contents: 'export { z } from "zod";', resolveDir: root, sourcefile: "provider/protocol/zod.ts" },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // Whitespace and syntax only, names kept (stacks stay readable): 392 KB to 289 KB, and about
    // 1.5 to 2 ms less of each first Check spent reading it (bench: cold-start, native-cold-start).
    minifyWhitespace: true,
    minifySyntax: true,
    outfile,
    logLevel: "warning",
    banner: { js: "// Built by scripts/bundleZod.ts: zod, bundled, with English messages only." },
    plugins: [
      {
        name: "zod-english-only",
        setup(b) {
          b.onLoad({ filter: LOCALES_INDEX }, (args) => ({
            contents: 'export { default as en } from "./en.js";',
            resolveDir: join(args.path, ".."),
          }));
        },
      },
    ],
  });
  // tsc's map described the one-line re-export, not this file.
  rmSync(`${outfile}.map`, { force: true });
  return outfile;
}

if (require.main === module) {
  bundleZod().catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  });
}
