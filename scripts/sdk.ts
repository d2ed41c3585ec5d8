// Writes the Node.js, Python and Go SDKs of a Pulumi package schema with our SDK generator
// (tools/sdkgen, found or built by scripts/engine/pulumiCli.ts), which calls Pulumi's own code
// generators at the version of the CLI we run. `pulumi package gen-sdk` would ask language hosts
// the module proxy refuses here, so this is the way the plugin's SDKs are made.
//
// `node dist/scripts/sdk.js <schema.json> <outdir>` writes <outdir>/nodejs, <outdir>/python and
// <outdir>/go, replacing those three folders. The same schema always gives the same bytes.
// `npm run sdk` (no arguments) writes the schema the plugin serves to sdk/schema.json and the
// plugin's SDKs beside it: what is committed under sdk/.

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageSchema } from "../provider/native/schema";
import { lockedSdkVersion, sdkGenerator } from "./engine/pulumiCli";
import { repoRoot } from "./packedPackage";

/** Where the plugin's committed SDKs live. */
export function sdkDir(): string {
  return join(repoRoot(), "sdk");
}

/** The schema the plugin serves (GetSchema sends these bytes), as a file, with a final newline. */
export function pluginSchemaText(): string {
  return `${JSON.stringify(packageSchema(), null, 2)}\n`;
}

/** Writes the plugin's schema to <outDir>/schema.json and its three SDKs beside it. */
export async function generatePluginSdks(outDir: string, log?: (line: string) => void): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const schemaPath = join(outDir, "schema.json");
  writeFileSync(schemaPath, pluginSchemaText());
  await generateSdks(schemaPath, outDir, log);
}

const GO_PULUMI_SDK = "github.com/pulumi/pulumi/sdk/v3";

/**
 * The Go SDK's go.mod requiring Pulumi's Go SDK at `version`: Pulumi's generator writes a floor of
 * its own (v3.30.0 at 3.248), not the version the plugin is built and tested with.
 */
export function goModRequiringPulumi(goMod: string, version: string): string {
  const line = new RegExp(`^(require\\s+${GO_PULUMI_SDK.replace(/\./g, "\\.")}\\s+)v\\S+$`, "m");
  if (!line.test(goMod)) throw new Error(`the Go SDK's go.mod does not require ${GO_PULUMI_SDK} on one line`);
  return goMod.replace(line, `$1${version}`);
}

/** Generates the three SDKs of the schema at `schemaPath` into `outDir`; rejects with the generator's words. */
export async function generateSdks(
  schemaPath: string,
  outDir: string,
  log: (line: string) => void = (l) => console.error(l),
): Promise<void> {
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
        try {
          const goMod = join(resolve(outDir), "go", "go.mod");
          writeFileSync(goMod, goModRequiringPulumi(readFileSync(goMod, "utf8"), lockedSdkVersion()));
          done();
        } catch (err: unknown) {
          fail(err instanceof Error ? err : new Error(String(err)));
        }
      } else {
        fail(new Error(`${generator.path} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
      }
    });
  });
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const [schemaPath, outDir] = args.length === 0 ? [undefined, sdkDir()] : args;
  if (outDir === undefined || args.length === 1 || args.length > 2) {
    console.error("usage: node dist/scripts/sdk.js [<schema.json> <outdir>]   (none: the plugin's schema into sdk/)");
    process.exit(2);
  }
  (schemaPath === undefined ? generatePluginSdks(outDir) : generateSdks(schemaPath, outDir))
    .then(() =>
      console.log(
        `SDKs written to ${resolve(outDir, "nodejs")}, ${resolve(outDir, "python")} and ${resolve(outDir, "go")}`,
      ),
    )
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    });
}
