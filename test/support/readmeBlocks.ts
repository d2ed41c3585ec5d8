// The README's shell blocks as a newcomer copies them: the tests that run its commands read them
// from the Markdown, so a command that changes there is the command tested.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../scripts/packedPackage";

const README = join(repoRoot(), "README.md");

/** The command lines of the first fenced sh block under `## <heading>`, each without its `# comment`. */
export function readmeCommands(heading: string): string[] {
  const markdown = readFileSync(README, "utf8");
  const section = markdown.split(/^## /m).find((s) => s.startsWith(`${heading}\n`)) ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
}
