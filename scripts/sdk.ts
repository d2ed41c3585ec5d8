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
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
          appendFileSync(join(outDir, "nodejs", "dashboard.ts"), DASHBOARD_TILE_METHOD);
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

/**
 * `dashboard.tile("Error rate")` on the Node SDK's class, as on the dynamic one (issue 45): written
 * here, for Pulumi's generator has no methods that run in the program. It reads `tileIndex`, which the
 * plugin knows in preview from the program's tiles, so a wrong name fails preview with no request.
 */
const DASHBOARD_TILE_METHOD = `
// Written by scripts/sdk.ts after Pulumi's generator: a typed way to name a tile for an Alert.
export interface Dashboard {
    /**
     * The id of the tile named \`name\`, for an Alert's \`tileId\`. The name is checked against the dashboard's
     * \`tileIndex\`, known in preview from the program's tiles, with no request: a name that is no tile of a unique
     * name, or a tile that takes no alert (only line, stacked_bar and number do), fails with TILE_NOT_ALERTABLE.
     */
    tile(name: string): pulumi.Output<string>;
}

Dashboard.prototype.tile = function (this: Dashboard, name: string): pulumi.Output<string> {
    const checked = this.tileIndex.apply((index) => {
        const tiles: { [name: string]: string } = index?.tiles ?? {};
        const said = \`the dashboard "\${index?.dashboard ?? ""}"\`;
        const alertable = Object.keys(tiles).filter((n) => ["line", "stacked_bar", "number"].includes(tiles[n]));
        const choices = \`its tiles that take an alert (line, stacked_bar, number): \${alertable.length === 0 ? "none" : alertable.map((n) => \`"\${n}"\`).join(", ")}\`;
        const type = tiles[name];
        if (type === undefined)
            throw new Error(\`[TILE_NOT_ALERTABLE] \${said} has no tile named "\${name}"; \${choices}. Nothing was sent for the alert.\`);
        if (!alertable.includes(name))
            throw new Error(\`[TILE_NOT_ALERTABLE] the tile "\${name}" of \${said} is a \${type} tile, which takes no alert; \${choices}. Nothing was sent for the alert.\`);
        return name;
    });
    return pulumi.all([checked, this.tileIds]).apply(([tile, ids]) => {
        const id = ids?.[tile];
        if (id === undefined) throw new Error(\`[TILE_NOT_ALERTABLE] the dashboard holds no tile named "\${tile}" that takes an alert\`);
        return id;
    });
};
`;

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
