// The memory of the provider processes the pulumi CLI starts for this process: the dynamic-provider
// host, which the CLI spawns through its plugin script (sh, then `node …/cmd/dynamic-provider`), or
// our native plugin, which it runs from PATH (`node …/pulumi-resource-alertpipe`, by its shebang).
// Either is a descendant of the CLI, which the Automation API spawns as a child of this process:
// searching this process's descendants finds ours and never another engineer's on the same machine.

import { readFileSync, readdirSync } from "node:fs";

/** Which provider process to watch: Pulumi's dynamic-provider host, our native plugin, or the do-nothing native one (bench/nativeShells.ts). */
export type ProviderProcess = "dynamic-host" | "plugin" | "plugin-nothing" | "plugin-listing";

// Each is run by its path; the dynamic host's plugin script's `node -e "…require.resolve(…cmd/dynamic-provider)"`,
// which only finds that path, names it in code, hence the leading "/".
const MARKS: Record<ProviderProcess, (arg: string) => boolean> = {
  "dynamic-host": (arg) => arg.startsWith("/") && arg.includes("cmd/dynamic-provider"),
  plugin: (arg) =>
    arg.startsWith("/") && (arg.endsWith("/pulumi-resource-alertpipe") || arg.endsWith("/provider/native/main.js")),
  "plugin-nothing": (arg) => arg.startsWith("/") && arg.endsWith("/pulumi-resource-benchnothing"),
  "plugin-listing": (arg) => arg.startsWith("/") && arg.endsWith("/pulumi-resource-benchlisting"),
};
const KIB = 1024;

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    // The process ended between listing /proc and reading it.
    return "";
  }
}

function parentOf(pid: number): number | undefined {
  const stat = readOrEmpty(`/proc/${pid}/stat`);
  // The command name in parentheses may hold spaces; ppid is the second field after it.
  const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
}

/** Pids of the provider processes of that kind running below `root` now. */
export function hostPids(kind: ProviderProcess = "dynamic-host", root: number = process.pid): number[] {
  const pids = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const parent = new Map<number, number>();
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid !== undefined) parent.set(pid, ppid);
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return pids.filter((pid) => below(pid) && readOrEmpty(`/proc/${pid}/cmdline`).split("\0").some(MARKS[kind]));
}

export interface MemoryReading {
  /** VmRSS now, bytes. */
  rssBytes: number;
  /** VmHWM: the peak RSS so far, bytes. */
  peakBytes: number;
}

export function readMemory(pid: number): MemoryReading | undefined {
  const status = readOrEmpty(`/proc/${pid}/status`);
  const kib = (field: string): number | undefined => {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(status);
    return m ? Number(m[1]) * KIB : undefined;
  };
  const rss = kib("VmRSS");
  const peak = kib("VmHWM");
  return rss === undefined || peak === undefined ? undefined : { rssBytes: rss, peakBytes: peak };
}

export interface HostMemory {
  /** Every host seen, by pid: its first reading (close to idle, just after start) and its peak. */
  readonly hosts: ReadonlyMap<number, { firstRssBytes: number; peakBytes: number; samples: number }>;
}

/**
 * Polls every provider process of one kind below this process until stopped. VmHWM only grows, so a poll can miss nothing
 * but the growth after the last one; call `sample()` at the end of the work, while the host lives,
 * to close that gap.
 */
export class HostMemoryWatch implements HostMemory {
  readonly hosts = new Map<number, { firstRssBytes: number; peakBytes: number; samples: number }>();
  private known: number[] = [];
  private ticks = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    pollMs = 20,
    /** Listing /proc costs far more than reading a status file: re-list every this many polls. */
    private readonly rescanEvery = 10,
    private readonly kind: ProviderProcess = "dynamic-host",
  ) {
    this.timer = setInterval(() => this.sample(), pollMs);
  }

  sample(): void {
    if (this.ticks++ % this.rescanEvery === 0 || this.known.length === 0) this.known = hostPids(this.kind);
    for (const pid of this.known) {
      const reading = readMemory(pid);
      if (reading === undefined) continue;
      const seen = this.hosts.get(pid);
      if (seen === undefined)
        this.hosts.set(pid, { firstRssBytes: reading.rssBytes, peakBytes: reading.peakBytes, samples: 1 });
      else {
        seen.peakBytes = Math.max(seen.peakBytes, reading.peakBytes);
        seen.samples += 1;
      }
    }
  }

  stop(): HostMemory {
    clearInterval(this.timer);
    return { hosts: this.hosts };
  }
}
