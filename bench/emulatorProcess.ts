// The emulator in a process of its own, as the real services are: in the bench's own process its
// request handling and its latency timers would share one event loop with the driver that plays
// the engine, and the figures would partly measure that contention (on a 2-core machine the
// latency-bound apply moved by ~0.05 of its ratio between runs that way).
//
// Child side: started by fork() with the emulator options as JSON in argv[2]; answers messages
// {id, op: "requests" | "reset" | "close"} with {id, requests?}.
// Parent side: `startEmulatorProcess` returns the same facts and request log, asynchronously.

import { fork, type ChildProcess } from "node:child_process";
import { startEmulator, type EmulatorOptions, type RecordedRequest, type RunningEmulator } from "../emulator";

type Op = "requests" | "reset" | "close";
interface Ask {
  id: number;
  op: Op;
}
interface Answer {
  id: number;
  requests?: RecordedRequest[];
}
type Facts = Pick<RunningEmulator, "url" | "token" | "keyId" | "keySecret">;

/** What the bench needs of an emulator running in another process. */
export interface EmulatorProcess extends Facts {
  /** Every request answered since the start or the last reset, in order. */
  requests(): Promise<RecordedRequest[]>;
  resetRequestLog(): Promise<void>;
  close(): Promise<void>;
}

/** Options that survive JSON: everything but the onRequest callback. */
export type ProcessEmulatorOptions = Omit<EmulatorOptions, "onRequest">;

export async function startEmulatorProcess(options: ProcessEmulatorOptions): Promise<EmulatorProcess> {
  const child: ChildProcess = fork(__filename, [JSON.stringify(options)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const facts = await new Promise<Facts>((resolve, reject) => {
    child.once("message", (m) => resolve(m as Facts));
    child.once("exit", (code) =>
      reject(new Error(`the emulator process exited (code ${String(code)}) before it listened`)),
    );
  });
  let next = 0;
  const waiting = new Map<number, (a: Answer) => void>();
  child.on("message", (m) => {
    const a = m as Answer;
    waiting.get(a.id)?.(a);
    waiting.delete(a.id);
  });
  const ask = (op: Op): Promise<Answer> =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.send({ id, op } satisfies Ask);
    });
  return {
    ...facts,
    requests: async () => (await ask("requests")).requests ?? [],
    resetRequestLog: async () => {
      await ask("reset");
    },
    close: async () => {
      await ask("close");
      await exited;
    },
  };
}

/** An emulator process for the length of `body`. */
export async function withEmulator<T>(
  options: ProcessEmulatorOptions,
  body: (emulator: EmulatorProcess) => Promise<T>,
): Promise<T> {
  const emulator = await startEmulatorProcess(options);
  try {
    return await body(emulator);
  } finally {
    await emulator.close();
  }
}

async function serve(options: ProcessEmulatorOptions): Promise<void> {
  const emulator = await startEmulator({ port: 0, ...options });
  const send = (m: Facts | Answer) => process.send?.(m);
  send({ url: emulator.url, token: emulator.token, keyId: emulator.keyId, keySecret: emulator.keySecret });
  process.on("message", (m) => {
    const { id, op } = m as Ask;
    if (op === "requests") send({ id, requests: emulator.requests });
    else if (op === "reset") {
      emulator.resetRequestLog();
      send({ id });
    } else {
      void emulator.close().then(() => {
        send({ id });
        process.disconnect();
      });
    }
  });
  // Gone with the bench, however it ends.
  process.on("disconnect", () => process.exit(0));
}

if (require.main === module) {
  serve(JSON.parse(process.argv[2] ?? "{}") as ProcessEmulatorOptions).catch((err: unknown) => {
    console.error(`emulator process failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
