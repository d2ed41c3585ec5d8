// Child processes for the bench: each runs in its own process group so that it and anything it
// started can be killed together by its id; output is collected line by line into a RunLog.
import { spawn, type ChildProcess } from "node:child_process";

/** Everything printed during a run, in arrival order, one entry per line, tagged with its source. */
export class RunLog {
  private readonly lines: string[] = [];

  add(source: string, text: string): void {
    for (const line of text.replace(/\r?\n$/, "").split(/\r?\n/)) {
      this.lines.push(`[${source}] ${line}`);
    }
  }

  text(): string {
    return this.lines.join("\n");
  }
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(proc: ChildProcess): void {
  if (proc.pid === undefined) {
    return;
  }
  // The whole group: the child and anything it started (it is the group leader, see `detached`).
  try {
    process.kill(-proc.pid, "SIGKILL");
  } catch {
    // group already gone
  }
}

function installExitHook(): void {
  if (exitHookInstalled) {
    return;
  }
  exitHookInstalled = true;
  // Never leave a child of ours behind when the test process goes away.
  process.once("exit", () => {
    for (const p of live) {
      killGroup(p);
    }
  });
}

export interface Child {
  readonly proc: ChildProcess;
  readonly exited: Promise<ChildExit>;
  /** Resolves with the first stdout line (the dynamic provider host prints its port there). */
  readonly firstLine: Promise<string>;
  kill(): void;
}

export function spawnChild(
  label: string,
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; log: RunLog },
): Child {
  installExitHook();
  const proc = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  live.add(proc);
  let resolveFirst!: (line: string) => void;
  let rejectFirst!: (e: Error) => void;
  const firstLine = new Promise<string>((res, rej) => {
    resolveFirst = res;
    rejectFirst = rej;
  });
  firstLine.catch(() => undefined);
  let sawFirst = false;
  const pump = (stream: NodeJS.ReadableStream | null, name: string, watchFirst: boolean): void => {
    if (!stream) {
      return;
    }
    let buf = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        opts.log.add(`${label}:${name}`, line);
        if (watchFirst && !sawFirst) {
          sawFirst = true;
          resolveFirst(line.trim());
        }
      }
    });
    stream.on("end", () => {
      if (buf.length > 0) {
        opts.log.add(`${label}:${name}`, buf);
        if (watchFirst && !sawFirst) {
          sawFirst = true;
          resolveFirst(buf.trim());
        }
        buf = "";
      }
    });
  };
  pump(proc.stdout, "stdout", true);
  pump(proc.stderr, "stderr", false);
  const exited = new Promise<ChildExit>((resolve) => {
    proc.on("error", (err) => {
      opts.log.add(`${label}:error`, String(err));
      live.delete(proc);
      rejectFirst(err);
      resolve({ code: null, signal: null });
    });
    proc.on("close", (code, signal) => {
      live.delete(proc);
      rejectFirst(new Error(`${label} exited (code ${code}, signal ${signal}) before printing anything`));
      resolve({ code, signal });
    });
  });
  return {
    proc,
    exited,
    firstLine,
    kill: () => killGroup(proc),
  };
}
