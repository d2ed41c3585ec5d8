// Before any test file: find or build the real Pulumi engine (a missing one fails the run, it never
// skips a test), and install the packed package into examples/ as a user's program has it.

import { pulumiCli } from "../../scripts/engine/pulumiCli";
import { prepareExamples } from "../../scripts/exampleStack";

export default async function setup(): Promise<void> {
  const cli = await pulumiCli((line) => console.log(line));
  console.log(
    `End-to-end tests run on the real Pulumi engine: ${cli.path} ${cli.version} (${cli.source === "path" ? "from PATH" : "built from tools/pulumi-cli"}).`,
  );
  prepareExamples();
}
