// docs/guides/your-first-stack.md as a newcomer follows it: the blocks marked `<!-- first-stack: <lang>
// sh -->` (commands) and `<!-- first-stack: <lang> file <name> -->` (files to write) are read from the
// Markdown and run in order, as written, in one bash in an empty folder, with the real CLI and the
// language hosts on PATH and a HOME and PULUMI_HOME of its own. The one substitution: the
// package's path, since it is on no registry, becomes the tarball this run packed.

import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulumiCli, pulumiLanguageHost, pulumiYamlLanguageHost } from "../../scripts/engine/pulumiCli";
import { packPackage, repoRoot } from "../../scripts/packedPackage";

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

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Stops what a failed run of the guide left behind (the emulator it started), by its process group. */
function stopGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // The group is empty: nothing was left running.
  }
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
    // Output to a file, not a pipe, and bash leading a process group of its own: a failed step then
    // ends the run at once, where the emulator started in the background would hold a pipe open, and
    // whatever the script left running is stopped with its group (setsid execs bash, so its pid leads it).
    const log = join(root, "guide.log");
    const out = openSync(log, "w");
    const run = spawnSync("setsid", ["bash", "-euo", "pipefail", "-c", script], {
      cwd: root,
      stdio: ["ignore", out, out],
      timeout: 600_000,
      env: {
        PATH: path,
        HOME: root,
        // Pulumi finds its home by the user's account, not HOME: this run's own, never the machine's.
        PULUMI_HOME: join(root, ".pulumi-home"),
        // The npm cache of this machine, so the dependencies come without a download.
        npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
        npm_config_prefer_offline: "true",
        npm_config_audit: "false",
        npm_config_fund: "false",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      },
    });
    closeSync(out);
    const output = readFileSync(log, "utf8");
    if (run.status !== 0) stopGroup(run.pid);
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/~ threshold\s*: 300 => 400/);
    expect(output).toMatch(/Resources:\s+\+ 2 created/);
    expect(output).toMatch(/Resources:\s+- 2 deleted/);
    const project = join(root, lang === "ts" ? "my-alerts" : "my-alerts-yaml");
    // Stopped cleanly: its pid file removed, and the port free again.
    for (let i = 0; i < 50 && existsSync(join(project, "emulator.pid")); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(join(project, "emulator.pid"))).toBe(false);
    expect(await portFree(PORT)).toBe(true);
  });
});
