// The two pieces of undici the client uses, its Agent and its request, loaded without the rest.
// undici's entry point also loads fetch, WebSocket, EventSource, caches and mocks: measured on
// Node 20, ~50 ms and ~8 MB more in every provider host, paid inside the first create of each
// `pulumi up` (bench: cold-start, latency-bound-apply, memory). The module paths below are undici's
// internals, so the entry point stays the fallback; test/http.undiciParts.test.ts fails when the
// fast path is lost, so an undici upgrade that moves them is noticed rather than slower.

import { setFlagsFromString } from "node:v8";
import type * as Undici from "undici";

type RequestOptions = Undici.Dispatcher.RequestOptions;
type ResponseData = Undici.Dispatcher.ResponseData;

export interface UndiciParts {
  readonly Agent: typeof Undici.Agent;
  /** Sends one request through `dispatcher` (any undici Dispatcher, a MockAgent included). */
  request(
    dispatcher: Undici.Dispatcher,
    url: string,
    opts: Omit<RequestOptions, "origin" | "path">,
  ): Promise<ResponseData>;
  /** Which way they were loaded: "internals" (the fast path) or "entry point". */
  readonly loadedFrom: "internals" | "entry point";
}

type ApiRequest = (this: Undici.Dispatcher, opts: RequestOptions) => Promise<ResponseData>;

export function fromInternals(): UndiciParts | undefined {
  try {
    const Agent = require("undici/lib/dispatcher/agent") as unknown;
    const apiRequest = require("undici/lib/api/api-request") as unknown;
    if (typeof Agent !== "function" || typeof apiRequest !== "function") return undefined;
    const send = apiRequest as ApiRequest;
    return {
      Agent: Agent as typeof Undici.Agent,
      request(dispatcher, url, opts) {
        // What undici's own top-level request does with a URL before calling the same function.
        const u = new URL(url);
        return send.call(dispatcher, { ...opts, origin: u.origin, path: `${u.pathname}${u.search}` });
      },
      loadedFrom: "internals",
    };
  } catch {
    return undefined;
  }
}

export function fromEntryPoint(): UndiciParts {
  const undici = require("undici") as typeof Undici;
  return {
    Agent: undici.Agent,
    request: (dispatcher, url, opts) => undici.request(url, { ...opts, dispatcher }),
    loadedFrom: "entry point",
  };
}

/**
 * undici parses HTTP/1.1 answers with llhttp compiled to WebAssembly. Once a few hundred answers
 * have gone through it, V8 recompiles that parser with its optimizing tier (TurboFan) on a worker
 * thread, whose working memory was most of what the provider host held beyond a do-nothing
 * provider: during the bench's 500 creates, a burst of some 30 MB of native memory (heap snapshots
 * and /proc; the JS heap stayed within 2 MB of the reference's; docs/performance.md). Alone, an
 * undici client's peak RSS over 2000 requests grew 39 to 51 MB by default against 16 MB with the
 * parser kept in V8's baseline tier (Liftoff), about what Node's own http client costs, and a whole
 * loopback request took the same 170 to 220 µs either way. So it stays in the baseline tier: the
 * flag is set before undici first compiles the parser (on its first connection). It is
 * process-wide: any other WebAssembly in this process (none in Pulumi's host or our plugin) runs
 * baseline-compiled too.
 */
function keepWasmInBaselineTier(): void {
  setFlagsFromString("--liftoff-only");
}

let loaded: UndiciParts | undefined;

export function undiciParts(): UndiciParts {
  if (loaded === undefined) {
    keepWasmInBaselineTier();
    loaded = fromInternals() ?? fromEntryPoint();
  }
  return loaded;
}
