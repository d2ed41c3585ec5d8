// The native plugin exits when the engine that started it is gone (provider/native/lifeline.ts):
// when the engine's gRPC address stops answering (its Log connection), and when its parent process
// dies (an engine killed with -9 can end no plugin). The real bin runs, compiled alone
// (test/support/compiledBin.ts).

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { grpc } from "../../provider/native/protocol";
import { compiledBin } from "../support/compiledBin";

let bin: ReturnType<typeof compiledBin>;
let mainPath: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  bin = compiledBin("provider/native/main.ts", "plugin-lifeline");
  mainPath = bin.path;
}, 120_000);

afterAll(() => bin.remove());
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** Whether process `pid` still runs (a zombie, exited but not yet reaped, does not). */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (existsSync(stat)) return !/^\d+ \(.*\) Z/.test(readFileSync(stat, "utf8"));
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, ok: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - start;
}

describe("the native plugin", () => {
  it("exits once the engine's gRPC address, its Log connection, stops answering", async () => {
    const engine = new grpc.Server();
    const port = await new Promise<number>((res, rej) =>
      engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
    );
    const plugin = spawn(process.execPath, [mainPath, `127.0.0.1:${port}`], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(plugin);
    let stderr = "";
    plugin.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((res) => plugin.on("exit", (code) => res(code)));
    await new Promise<void>((res) => createInterface({ input: plugin.stdout }).once("line", () => res()));
    // Long enough for its watch to have reached the engine once.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(plugin.exitCode).toBeNull();
    engine.forceShutdown();
    expect(await exited).toBe(0);
    expect(stderr).toContain(`the engine at 127.0.0.1:${port} no longer answers`);
  }, 30_000);

  it("exits once its parent process is killed with -9", async () => {
    // A parent that starts the plugin, as the engine does, says its pid, and then is killed outright.
    const parentScript = `
      const { spawn } = require("node:child_process");
      const plugin = spawn(process.execPath, [${JSON.stringify(mainPath)}], { stdio: ["ignore", "pipe", "ignore"] });
      plugin.stdout.once("data", () => process.stdout.write(plugin.pid + "\\n"));
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ["-e", parentScript], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(parent);
    const pluginPid = await new Promise<number>((res) =>
      createInterface({ input: parent.stdout }).once("line", (line) => res(Number(line))),
    );
    expect(running(pluginPid)).toBe(true);
    parent.kill("SIGKILL");
    const took = await until("the plugin to exit", () => !running(pluginPid), 10_000);
    expect(took).toBeLessThan(10_000);
  }, 30_000);
});
