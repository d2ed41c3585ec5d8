// States made by 0.1.0 hold `require("pulumi-alertpipe/dist/provider/<kind>/shim.js")` in the
// serialized provider; a change of those bytes makes the host replace every resource. So each 0.1.0
// kind's shim must compile, the way the build compiles it (tsconfig.build.json), to 0.1.0's bytes.
//
// test/engine/recorded/0.1.0/shims/<kind>.js were recorded once: `git show 6090eea:provider/<kind>/shim.ts`
// (the shims 0.1.0 shipped) compiled by `transpiled` below, and equal to what `npm run build` wrote then.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..", "..");

/** The kinds 0.1.0 shipped, whose states require their shims. */
const KINDS_OF_0_1_0 = ["alert", "apiKey", "pipeSettings"] as const;

/** A shim compiled with the build's own options (tsc -p tsconfig.build.json gives these bytes). */
function transpiled(kind: string, source: string): string {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.build.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (config === undefined) throw new Error("tsconfig.build.json did not parse");
  return ts.transpileModule(source, { compilerOptions: config.options, fileName: `${kind}/shim.ts` }).outputText;
}

describe("0.1.0's shims", () => {
  it.each(KINDS_OF_0_1_0)("provider/%s/shim.ts compiles to 0.1.0's bytes", (kind) => {
    const source = readFileSync(join(root, "provider", kind, "shim.ts"), "utf8");
    const recorded = readFileSync(join(root, "test", "engine", "recorded", "0.1.0", "shims", `${kind}.js`), "utf8");
    expect(transpiled(kind, source)).toBe(recorded);
  });
});
