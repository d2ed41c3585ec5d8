// `npm run demo` interrupted mid-run: its children (the pulumi CLI, the dynamic-provider host the CLI
// starts) end before it does, the state written so far is kept where it says, and it exits.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/packedPackage";

/** Every process below `root`, with its command line, read from /proc. */
function descendants(root: number): Map<number, string> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  const found = new Map<number, string>();
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    try {
      found.set(pid, readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" "));
    } catch {
      continue;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    // A zombie has ended; only its parent has not read its status yet.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

const kept: string[] = [];
afterAll(() => {
  for (const dir of kept) rmSync(dir, { recursive: true, force: true });
});

describe.each(["SIGINT", "SIGTERM"] as const)("the demo, sent %s during pulumi up", (signal) => {
  it("ends its children, keeps the state written so far and says where, and exits", async () => {
    const demo = spawn(process.execPath, [join(repoRoot(), "dist", "scripts", "demo.js")], {
      cwd: repoRoot(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    demo.stdout.on("data", (d: Buffer) => (output += d.toString()));
    demo.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => demo.on("exit", (code) => resolve(code)));

    // Every pulumi process the demo started, seen while it ran.
    const seen = new Map<number, string>();
    const deadline = Date.now() + 300_000;
    while (!/=== pulumi up\n[\s\S]*\+ +pulumi-nodejs:dynamic/.test(output)) {
      if (Date.now() > deadline || demo.exitCode !== null)
        throw new Error(`the demo never reached pulumi up:\n${output}`);
      for (const [pid, cmd] of descendants(demo.pid as number)) seen.set(pid, cmd);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const [pid, cmd] of descendants(demo.pid as number)) seen.set(pid, cmd);
    const pulumiProcesses = [...seen].filter(([, cmd]) => /pulumi/.test(cmd));
    expect(pulumiProcesses.length, `processes seen: ${JSON.stringify([...seen])}`).toBeGreaterThan(0);

    process.kill(demo.pid as number, signal);
    const code = await exited;
    // The CLI reaps its plugins as it exits; give the last of them a moment to be gone.
    for (let i = 0; i < 20 && pulumiProcesses.some(([pid]) => alive(pid)); i++)
      await new Promise((r) => setTimeout(r, 100));
    const survivors = pulumiProcesses.filter(([pid]) => alive(pid));
    for (const [pid] of survivors) process.kill(pid, "SIGKILL");
    expect(survivors.map(([, cmd]) => cmd)).toEqual([]);

    expect(code, output).toBe(signal === "SIGINT" ? 130 : 143);
    const where = /the stack's state is kept in (\S+) \(state file (\S+)\)/.exec(output);
    expect(where, output).not.toBeNull();
    kept.push(where?.[1] as string);
    expect(existsSync(where?.[2] as string)).toBe(true);
    const state = JSON.parse(readFileSync(where?.[2] as string, "utf8")) as {
      checkpoint: { latest?: { resources?: Array<{ urn: string }>; pending_operations?: unknown[] } };
    };
    // One SIGINT lets the creates already sent finish and be recorded: nothing is left pending.
    expect(state.checkpoint.latest?.pending_operations ?? []).toEqual([]);
    expect(output).toContain("the emulator is closed");
  }, 400_000);
});
