// `alertpipe-emulator` lives as long as what started it. Run as `npx alertpipe-emulator`, it is the
// grandchild of npx, under a shell of npm's own; when the user's shell goes (a terminal closed, a
// `kill -9`), npx and that shell are handed to another parent and nobody signals them, so watching
// the direct parent alone keeps it listening. It watches every process between itself and its
// session's leader (the user's shell; `--keep-running` skips the watch, to keep it running on purpose),
// as they were when it started: one of them ended, or its pid now another process's, and it stops.
// The chain is read from /proc (Linux); elsewhere the direct parent alone is watched.

import { readFileSync } from "node:fs";

/** A process as /proc/<pid>/stat has it. */
interface ProcStat {
  state: string;
  ppid: number;
  session: number;
  /** Clock ticks after boot: with the pid, names one process even after its pid is reused. */
  startTime: string;
}

export interface Starter {
  readonly pid: number;
  readonly startTime: string;
}

function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name, in parentheses, may hold spaces and parentheses itself: fields follow the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const [state = "", ppid = "", , session = ""] = fields;
  return { state, ppid: Number(ppid), session: Number(session), startTime: fields[19] ?? "" };
}

/**
 * The processes from `pid`'s parent up to its session's leader, that one included; never pid 1 (an
 * init that adopted the chain, not a starter). Empty without /proc, or when `pid` leads its session.
 */
export function startersOf(pid: number = process.pid): Starter[] {
  const own = procStat(pid);
  if (own === undefined || own.session === pid) return [];
  const chain: Starter[] = [];
  for (let next = own.ppid; next > 1;) {
    const stat = procStat(next);
    if (stat === undefined) break;
    chain.push({ pid: next, startTime: stat.startTime });
    if (next === own.session) break;
    next = stat.ppid;
  }
  return chain;
}

function ended(starter: Starter): boolean {
  const stat = procStat(starter.pid);
  // Z: ended, its status not read yet; X: being removed.
  return stat === undefined || stat.startTime !== starter.startTime || stat.state === "Z" || stat.state === "X";
}

/**
 * Calls `onGone` once, with the reason in words, when the direct parent changes or one of the
 * starters ends. Answers a function that stops watching; the timer never keeps the process alive.
 */
export function watchStarters(onGone: (why: string) => void, everyMs = 500): () => void {
  const parentPid = process.ppid;
  const starters = startersOf();
  const timer = setInterval(() => {
    const starter = starters.find(ended);
    const why =
      process.ppid !== parentPid
        ? `its parent process ${parentPid} exited`
        : starter !== undefined
          ? `process ${starter.pid}, which started it, exited`
          : undefined;
    if (why === undefined) return;
    clearInterval(timer);
    onGone(why);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
