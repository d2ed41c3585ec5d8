// Writes the Node.js, Python and Go SDKs of a Pulumi package schema with our SDK generator
// (tools/sdkgen, found or built by scripts/engine/pulumiCli.ts), which calls Pulumi's own code
// generators at the version of the CLI we run. `pulumi package gen-sdk` would ask language hosts
// the module proxy refuses here, so this is the way the plugin's SDKs are made.
//
// `node dist/scripts/sdk.js <schema.json> <outdir>` writes <outdir>/nodejs, <outdir>/python and
// <outdir>/go, replacing those three folders. The same schema always gives the same bytes.

import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { sdkGenerator } from "./engine/pulumiCli";

/** Generates the three SDKs of the schema at `schemaPath` into `outDir`; rejects with the generator's words. */
export async function generateSdks(schemaPath: string, outDir: string, log: (line: string) => void = (l) => console.error(l)): Promise<void> {
  const generator = await sdkGenerator(log);
  const args = [resolve(schemaPath), resolve(outDir)];
  await new Promise<void>((done, fail) => {
    const child = spawn(generator.path, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer): void => {
      output += chunk.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      if (code === 0) {
        if (output.trim() !== "") log(output.trim());
        done();
      } else {
        fail(new Error(`${generator.path} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
      }
    });
  });
}

if (require.main === module) {
  const [schemaPath, outDir, ...rest] = process.argv.slice(2);
  if (schemaPath === undefined || outDir === undefined || rest.length > 0) {
    console.error("usage: node dist/scripts/sdk.js <schema.json> <outdir>");
    process.exit(2);
  }
  generateSdks(schemaPath, outDir)
    .then(() => console.log(`SDKs written to ${resolve(outDir, "nodejs")}, ${resolve(outDir, "python")} and ${resolve(outDir, "go")}`))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    });
}
