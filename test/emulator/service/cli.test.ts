// Runs the real bin, compiled here alone (test/support/compiledBin.ts: only the emulator and the
// settings table it imports), so this test does not depend on an earlier `npm run build`.

import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, urlFor } from "../../../emulator";
import { connectionFor } from "../../../provider/runtime/connection";
import { setEnv } from "../../support/emulatorPerTest";
import { compiledBin } from "../../support/compiledBin";
import { groupMembers, until } from "../../support/newcomer";

let bin: ReturnType<typeof compiledBin>;
let cliPath: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
  bin = compiledBin("emulator/cli.ts", "emulator-cli");
  cliPath = bin.path;
}, 60_000);

afterAll(() => bin.remove());

const groups: number[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const group of groups.splice(0)) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // The group has ended: nothing was left.
    }
  }
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  /** Resolves with the first `count` stdout lines. */
  firstLines(count: number): Promise<string[]>;
  exit: Promise<number | null>;
}

function run(args: string[]): Started {
  const child = spawn(process.execPath, [cliPath, ...args], { stdio: "pipe" });
  children.push(child);
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const w of waiters.splice(0)) w();
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const firstLines = (count: number) =>
    new Promise<string[]>((resolve, reject) => {
      const check = () => {
        if (lines.length >= count) resolve(lines.slice(0, count));
        else waiters.push(check);
      };
      void exit.then((code) => reject(new Error(`exited with ${code} after ${lines.length} lines`)));
      check();
    });
  return { child, lines, firstLines, exit };
}

/**
 * `sh -c 'npx alertpipe-emulator …'` as a user's terminal runs it: the shell leads a session and
 * process group of its own, npx finds the bin in the folder's node_modules/.bin (this compiled one).
 */
async function npxUnderShell(
  extra = "",
): Promise<{ shell: ChildProcess; emulatorPid: number; url: string; pidFile: string }> {
  const dir = mkdtempSync(join(tmpdir(), "alertpipe-npx-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true }));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  chmodSync(cliPath, 0o755);
  symlinkSync(cliPath, join(dir, "node_modules", ".bin", "alertpipe-emulator"));
  const shell = spawn(
    "sh",
    ["-c", `npx --no-install alertpipe-emulator --port 0 --quiet --pid-file emulator.pid ${extra} > out`],
    {
      cwd: dir,
      detached: true,
      stdio: "ignore",
      env: { ...process.env, PATH: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter) },
    },
  );
  if (shell.pid !== undefined) groups.push(shell.pid);
  const pidFile = join(dir, "emulator.pid");
  // The emulator writes its pid file, then its first line: waiting for the file alone, a busy
  // machine could let us read `out` in between, still empty. The line comes last, so wait for it.
  const url = () => FIRST_LINE.exec(readIfThere(join(dir, "out")).split("\n")[0] ?? "")?.[1] ?? "";
  await until(() => url() !== "", 60_000);
  expect(url()).not.toBe("");
  return { shell, emulatorPid: Number(readFileSync(pidFile, "utf8")), url: url(), pidFile };
}

/** The file's text, or "" while it is not there yet. */
function readIfThere(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

// A bound on liveness, not a speed target: on a loaded machine npm takes seconds to exit after its child.
const GROUP_GONE_MS = 20_000;

const FIRST_LINE = /^alertpipe-emulator listening on (http:\/\/127\.0\.0\.1:(\d+))$/;

describe("alertpipe-emulator CLI", () => {
  it("prints the listening URL as its first line, then the credentials it accepts", async () => {
    const cli = run(["--port", "0", "--token", "tok-1", "--key-id", "kid-1", "--key-secret", "sec-1"]);
    const [first = "", ...rest] = await cli.firstLines(3);
    const match = FIRST_LINE.exec(first);
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBeGreaterThan(0);
    const credentials = rest.join("\n");
    for (const value of ["tok-1", "kid-1", "sec-1"]) expect(credentials).toContain(value);
  });

  it("serves with the given token and stops with exit code 0 on SIGTERM", async () => {
    const cli = run(["--port", "0", "--token", "tok-2", "--quiet"]);
    const [first = ""] = await cli.firstLines(1);
    const url = FIRST_LINE.exec(first)?.[1] ?? "";
    const answer = await fetch(`${url}/api/v2/alerts/0123456789abcdef01234567`, {
      headers: { authorization: "Bearer tok-2" },
    });
    expect(answer.status).toBe(404);
    cli.child.kill("SIGTERM");
    expect(await cli.exit).toBe(0);
  });

  it("stops with exit code 0 on SIGINT", async () => {
    const cli = run(["--port", "0"]);
    await cli.firstLines(1);
    cli.child.kill("SIGINT");
    expect(await cli.exit).toBe(0);
  });

  it("--pid-file holds its process id once it listens, and is removed when it stops", async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), "alertpipe-pid-")), "emulator.pid");
    const cli = run(["--port", "0", "--quiet", "--pid-file", pidFile]);
    await cli.firstLines(1);
    expect(readFileSync(pidFile, "utf8")).toBe(`${cli.child.pid}\n`);
    cli.child.kill("SIGTERM");
    expect(await cli.exit).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
  });

  it("exits, and stops listening, when the process that started it is gone (a killed npx)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "alertpipe-parent-"));
    const pidFile = join(dir, "emulator.pid");
    // A shell standing in for npx: it starts the emulator, then is killed outright.
    const parent = spawn("sh", [
      "-c",
      `"${process.execPath}" "${cliPath}" --port 0 --quiet --pid-file "${pidFile}" > "${join(dir, "out")}" & wait`,
    ]);
    while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidFile, "utf8"));
    const url = FIRST_LINE.exec(readFileSync(join(dir, "out"), "utf8").split("\n")[0] ?? "")?.[1] ?? "";
    parent.kill("SIGKILL");
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("exits, with npx, when the shell that ran `npx alertpipe-emulator` is killed outright", async () => {
    const { shell, emulatorPid, url, pidFile } = await npxUnderShell();
    const group = shell.pid ?? 0;
    // npx, npm's own shell and the emulator stay in the group; the killed shell is reaped by us.
    expect(groupMembers(group)).toContain(emulatorPid);
    shell.kill("SIGKILL");
    await until(() => groupMembers(group).length === 0, GROUP_GONE_MS);
    expect(groupMembers(group)).toEqual([]);
    expect(existsSync(pidFile)).toBe(false);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("stops cleanly, its pid file removed, on the SIGHUP of a closed terminal", async () => {
    const { shell, emulatorPid, url, pidFile } = await npxUnderShell();
    const group = shell.pid ?? 0;
    process.kill(-group, "SIGHUP");
    await until(() => groupMembers(group).length === 0, GROUP_GONE_MS);
    expect(groupMembers(group)).not.toContain(emulatorPid);
    expect(existsSync(pidFile)).toBe(false);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("--keep-running keeps serving after its shell is killed and its terminal hangs up, until kill $(cat FILE)", async () => {
    const { shell, emulatorPid, url, pidFile } = await npxUnderShell("--keep-running");
    const group = shell.pid ?? 0;
    shell.kill("SIGKILL");
    process.kill(-group, "SIGHUP");
    // npx and npm's shell end (or hang up); the emulator stays, the only one of the group left.
    await until(() => groupMembers(group).every((pid) => pid === emulatorPid), GROUP_GONE_MS);
    expect(groupMembers(group)).toEqual([emulatorPid]);
    expect((await fetch(`${url}/api/v2/alerts`, { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGTERM");
    await until(() => groupMembers(group).length === 0, GROUP_GONE_MS);
    expect(existsSync(pidFile)).toBe(false);
  });

  it("refuses --keep-running without --pid-file, with exit code 2", async () => {
    const cli = run(["--port", "0", "--keep-running"]);
    expect(await cli.exit).toBe(2);
  });

  it("--fail-first N answers the first N requests 503", async () => {
    const cli = run(["--port", "0", "--fail-first", "1", "--quiet"]);
    const url = FIRST_LINE.exec((await cli.firstLines(1))[0] ?? "")?.[1] ?? "";
    const statuses = [];
    for (let i = 0; i < 2; i++)
      statuses.push(
        (await fetch(`${url}/api/v2/alerts/x`, { headers: { authorization: "Bearer emulator-token" } })).status,
      );
    expect(statuses).toEqual([503, 404]);
  });

  it("--random-faults SEED:RATE faults writes, names each fault on its line, and never a read", async () => {
    const cli = run(["--port", "0", "--random-faults", "7:1"]);
    const url = FIRST_LINE.exec((await cli.firstLines(5))[0] ?? "")?.[1] ?? "";
    expect(cli.lines.join("\n")).toContain("random faults: seed 7, rate 1");
    const headers = { authorization: "Bearer emulator-token" };
    expect((await fetch(`${url}/api/v2/alerts`, { headers })).status).toBe(200);
    // Rate 1: the DELETE meets a fault whatever the draw (a 503, a cut, a 500 or a late answer).
    await fetch(`${url}/api/v2/alerts/0123456789abcdef01234567`, { method: "DELETE", headers }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    const requestLines = cli.lines.slice(5);
    expect(requestLines[0]).toMatch(/ GET \/api\/v2\/alerts -> 200$/);
    expect(requestLines[1]).toMatch(
      / DELETE \/api\/v2\/alerts\/\w+ -> \w+ \((failBefore|cutAfter|failAfter|delayAfter)Commit\)$/,
    );
  });

  it("--mode 2026 speaks area A as HyperDX's external API does, and says so", async () => {
    const cli = run(["--port", "0", "--mode", "2026"]);
    const url = FIRST_LINE.exec((await cli.firstLines(5))[0] ?? "")?.[1] ?? "";
    expect(cli.lines.join("\n")).toContain("area A speaks: HyperDX's external API as in 2026");
    const answer = await fetch(`${url}/api/v2/alerts`, { headers: { authorization: "Bearer emulator-token" } });
    expect(await answer.json()).toEqual({ data: [], meta: { total: 0, limit: 1000, offset: 0 } });
    expect(answer.headers.get("ratelimit-remaining")).toBe("99");
  });

  it("--custom-role ORG:NAME seeds the organization's role and prints its uuid", async () => {
    const org = "0f0f0f0f-0000-4000-8000-000000000001";
    const cli = run(["--port", "0", "--quiet", "--custom-role", `${org}:Read: only`]);
    const lines = await cli.firstLines(6);
    const url = FIRST_LINE.exec(lines[0] ?? "")?.[1] ?? "";
    const id = /custom role "Read: only" of organization [-\w]+: ([-\w]+)$/m.exec(lines.join("\n"))?.[1];
    const answer = await fetch(`${url}/v1/organizations/${org}/roles`, {
      headers: { authorization: `Basic ${Buffer.from("emulator-key-id:emulator-key-secret").toString("base64")}` },
    });
    const roles = ((await answer.json()) as { result: { id: string; name: string }[] }).result;
    expect(roles.find((r) => r.name === "Read: only")?.id).toBe(id);
  });

  it("--cloud-dialect clickhouse speaks area B as ClickHouse Cloud's API does, and says so", async () => {
    const cli = run(["--port", "0", "--cloud-dialect", "clickhouse"]);
    const url = FIRST_LINE.exec((await cli.firstLines(5))[0] ?? "")?.[1] ?? "";
    expect(cli.lines.join("\n")).toContain("area B speaks: ClickHouse Cloud's API");
    const ids = "0f0f0f0f-0000-4000-8000-000000000001";
    const answer = await fetch(`${url}/v1/organizations/${ids}/services/${ids}/clickpipes/${ids}/settings`, {
      method: "PUT",
      headers: {
        authorization: `Basic ${Buffer.from("emulator-key-id:emulator-key-secret").toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ clickhouse_max_threads: 4 }),
    });
    expect(((await answer.json()) as { result: Record<string, unknown> }).result.clickhouse_max_threads).toBe(4);
  });

  it("refuses a --cloud-dialect other than contract or clickhouse, with exit code 2", async () => {
    const cli = run(["--cloud-dialect", "cloud"]);
    let stderr = "";
    cli.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await cli.exit).toBe(2);
    expect(stderr).toContain('--cloud-dialect must be contract or clickhouse, got "cloud"');
  });

  it("refuses a --mode other than contract or 2026, with exit code 2", async () => {
    const cli = run(["--mode", "2025"]);
    let stderr = "";
    cli.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await cli.exit).toBe(2);
    expect(stderr).toContain('--mode must be contract or 2026, got "2025"');
  });

  it("refuses a malformed --random-faults in words, with exit code 2", async () => {
    for (const value of ["7", "7:1.5", "x:0.3"]) {
      const cli = run(["--random-faults", value]);
      let stderr = "";
      cli.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      expect(await cli.exit).toBe(2);
      expect(stderr).toContain(`--random-faults must look like SEED:RATE`);
    }
  });

  it.each(["0.0.0.0", "::", "192.0.2.10"])(
    "refuses --host %s, beyond loopback, with the published default credentials, exit code 2",
    async (host) => {
      const cli = run(["--port", "0", "--host", host, "--token", "mine"]);
      let stderr = "";
      cli.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      expect(await cli.exit).toBe(2);
      expect(stderr).toContain(`--host ${host} serves the emulator beyond this machine`);
      expect(stderr).toContain("--token, --key-id and --key-secret");
    },
  );

  it("refuses, as a library too, another address with a default credential, before binding", async () => {
    await expect(startEmulator({ port: 0, host: "0.0.0.0", token: "t", keyId: "k" })).rejects.toThrow(
      /listening on 0\.0\.0\.0 serves the emulator beyond this machine/,
    );
  });

  it.each([
    ["0.0.0.0", "http://127.0.0.1:4100"],
    ["::", "http://[::1]:4100"],
    ["127.0.0.2", "http://127.0.0.2:4100"],
    ["localhost", "http://localhost:4100"],
  ])("names a listener on %s by %s, a URL the provider accepts", (host, url) => {
    expect(urlFor(host, 4100)).toBe(url);
    const restore = setEnv({ ALERTPIPE_ALERTING_URL: url, ALERTPIPE_ALERTING_TOKEN: "t" });
    try {
      expect(connectionFor("alerting").baseUrl).toBe(url);
    } finally {
      restore();
    }
  });

  it("rejects an unknown option with exit code 2 and the usage text", async () => {
    const cli = run(["--colour", "blue"]);
    let stderr = "";
    cli.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await cli.exit).toBe(2);
    expect(stderr).toContain("usage: alertpipe-emulator");
  });

  it("refuses a negative --latency-ms in words, with exit code 2", async () => {
    for (const args of [["--latency-ms", "-5"], ["--latency-ms=-5"]]) {
      const cli = run(args);
      let stderr = "";
      cli.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      expect(await cli.exit).toBe(2);
      expect(stderr).toContain('--latency-ms cannot be negative: it takes a whole number, 0 or more, got "-5"');
    }
  });

  it("names the data file, not a temporary file, when it cannot be written", async () => {
    const file = join(tmpdir(), `alertpipe-no-such-folder-${process.pid}`, "state.json");
    const cli = run(["--port", "0", "--data", file]);
    let stderr = "";
    cli.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await cli.exit).toBe(1);
    expect(stderr).toContain(`cannot use the data file ${file}: its folder does not exist`);
    expect(stderr).not.toContain(".tmp");
  });

  it("rejects a malformed rate limit with exit code 2", async () => {
    const cli = run(["--cloud-rate-limit", "ten"]);
    expect(await cli.exit).toBe(2);
  });
});
