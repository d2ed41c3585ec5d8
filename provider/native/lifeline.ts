// An engine killed outright cannot end its plugins, and the gRPC server would keep this one alive.
// So it watches its parent process and the engine's gRPC address, and exits when either is gone.

import { grpc } from "./protocol";

export interface Lifeline {
  /** At start: when the parent dies, the plugin is handed to another. */
  readonly parentPid: number;
  readonly engineAddress?: string;
  readonly onGone: (why: string) => void;
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

/** Returns a stop function. The timer never keeps the process alive by itself. */
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
    // Asking connects an idle channel, so a closed engine port is found.
    const state = grpcChannel.getConnectivityState(true);
    if (state === grpc.connectivityState.READY) reached = true;
    else if (reached && state === grpc.connectivityState.TRANSIENT_FAILURE)
      gone(`the engine at ${line.engineAddress} no longer answers`);
  }, line.everyMs ?? 1_000);
  timer.unref();
  return stop;
}
