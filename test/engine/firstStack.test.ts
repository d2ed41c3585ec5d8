// docs/guides/your-first-stack.md as a newcomer follows it: the blocks marked `<!-- first-stack: <lang>
// sh -->` (commands) and `<!-- first-stack: <lang> file <name> -->` (files to write) are read from the
// Markdown and run in order, as written, in one bash in an empty folder, with the real CLI and the
// language hosts on PATH and a HOME and PULUMI_HOME of its own. The one substitution: the
// package's path, since it is on no registry, becomes the tarball this run packed.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulumiCli, pulumiLanguageHost, pulumiYamlLanguageHost } from "../../scripts/engine/pulumiCli";
import { packPackage, repoRoot } from "../../scripts/packedPackage";
import { portFree, runAsNewcomer, stopGroup, until } from "../support/newcomer";

const GUIDE = join(repoRoot(), "docs", "guides", "your-first-stack.md");
const TARBALL_IN_GUIDE = "/path/to/pulumi-alertpipe-0.2.0.tgz";
const PORT = 4100;

/** The guide's marked blocks for one language, as one bash script: commands as they are, files as heredocs. */
function guideScript(markdown: string, lang: string): string {
  const marked = /<!-- first-stack: (\w+) (sh|file ([^ ]+)) -->\n```\w*\n([\s\S]*?)```/g;
  const parts: string[] = [];
  for (const m of markdown.matchAll(marked)) {
    if (m[1] !== lang) continue;
    const body = m[4] ?? "";
    parts.push(m[2] === "sh" ? body : `cat > ${m[3] ?? ""} <<'FIRST_STACK_EOF'\n${body}FIRST_STACK_EOF\n`);
  }
  return parts.join("");
}

let path = "";
let tarball = "";
const roots: string[] = [];

beforeAll(async () => {
  const tools = await Promise.all([pulumiCli(), pulumiLanguageHost(), pulumiYamlLanguageHost()]);
  path = [...tools.map((t) => dirname(t.path)), process.env.PATH ?? ""].join(delimiter);
  tarball = packPackage();
}, 900_000);

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe.each(["ts", "yaml"])("your first stack (%s), as the guide writes it", (lang) => {
  it("goes from an empty folder to up, a change previewed by property, up, destroy, and stops the emulator", async () => {
    expect(await portFree(PORT), `port ${PORT}, which the guide uses, is taken on this machine`).toBe(true);
    const markdown = readFileSync(GUIDE, "utf8");
    expect(markdown).toContain(TARBALL_IN_GUIDE);
    const script = guideScript(markdown, lang).replaceAll(TARBALL_IN_GUIDE, tarball);
    const root = mkdtempSync(join(tmpdir(), `alertpipe-first-${lang}-`));
    roots.push(root);
    const { status, output, group } = runAsNewcomer(script, root, path, 600_000);
    if (status !== 0) stopGroup(group);
    expect(status, output).toBe(0);
    expect(output).toMatch(/~ threshold\s*: 300 => 400/);
    // The hosts sit beside the CLI, where it looks first: no command warns of one found on PATH.
    expect(output).not.toMatch(/using pulumi-language-\w+ from \$PATH/);
    expect(output).toMatch(/Resources:\s+\+ 2 created/);
    expect(output).toMatch(/Resources:\s+- 2 deleted/);
    const project = join(root, lang === "ts" ? "my-alerts" : "my-alerts-yaml");
    // Stopped cleanly: its pid file removed, and the port free again.
    await until(() => !existsSync(join(project, "emulator.pid")), 5_000);
    expect(existsSync(join(project, "emulator.pid"))).toBe(false);
    // The pid file goes before the process has let go of its port: give it the same 5 s to close.
    let free = false;
    for (const end = Date.now() + 5_000; !free && Date.now() < end; await sleep(50)) free = await portFree(PORT);
    expect(free).toBe(true);
  });
});
