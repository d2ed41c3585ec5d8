// The plugin lives as long as the engine that started it. The engine normally ends its plugins
// itself, but an engine killed outright (kill -9, a crash) cannot: the plugin's gRPC server would
// keep it alive, holding its port and memory, for as long as nobody notices. So it watches both
// ends it knows: its parent process (the engine starts the plugin directly), and the engine's own
// gRPC address, the one its Log connection uses. Either gone, it exits.

import { grpc } from "./protocol";

export interface Lifeline {
  /** The parent process's id at start: when the parent dies, the plugin is handed to another. */
  readonly parentPid: number;
  /** The engine's gRPC address (host:port), when it gave one. */
  readonly engineAddress?: string;
  /** What to do once the engine is gone, with the reason in words. */
  readonly onGone: (why: string) => void;
  /** How often to look; default 1 s. */
  readonly everyMs?: number;
}

function parentAlive(pid: number): boolean {
  if (process.ppid !== pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Starts watching; answers a function that stops it. The timer never keeps the process alive by itself. */
export function watchEngine(line: Lifeline): () => void {
  const grpcChannel =
    line.engineAddress === undefined
      ? undefined
      : new grpc.Channel(line.engineAddress, grpc.credentials.createInsecure(), {});
  let reached = false;
  let done = false;
  const stop = () => {
    done = true;
    clearInterval(timer);
    grpcChannel?.close();
  };
  const gone = (why: string) => {
    if (done) return;
    stop();
    line.onGone(why);
  };
  const timer = setInterval(() => {
    if (!parentAlive(line.parentPid)) return gone(`its parent process ${line.parentPid} is gone`);
    if (grpcChannel === undefined) return;
    // Asking for the state also connects an idle channel, so a closed engine port is found.
    const state = grpcChannel.getConnectivityState(true);
    if (state === grpc.connectivityState.READY) reached = true;
    else if (reached && state === grpc.connectivityState.TRANSIENT_FAILURE)
      gone(`the engine at ${line.engineAddress} no longer answers`);
  }, line.everyMs ?? 1_000);
  timer.unref();
  return stop;
}
