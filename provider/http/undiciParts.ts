// The two pieces of undici the client uses, its Agent and its request, loaded without the rest.
// undici's entry point also loads fetch, WebSocket, EventSource, caches and mocks: measured on
// Node 20, ~50 ms and ~8 MB more in every provider host, paid inside the first create of each
// `pulumi up` (bench: cold-start, latency-bound-apply, memory). The module paths below are undici's
// internals, so the entry point stays the fallback; test/http.undiciParts.test.ts fails when the
// fast path is lost, so an undici upgrade that moves them is noticed rather than slower.
//
// `request` can also say when the request went onto the socket (client-side pacing counts a send
// from then, rateLimit.ts). undici calls `onRequestSent` on a request's own handler right after
// its socket write, for HTTP/1.1 and HTTP/2 alike, whatever the body; the Agent, its pools and
// clients hand the handler down as it is. The public ways to hear it do not serve: the
// diagnostics channel 'undici:client:sendHeaders' is process-wide (Node's own fetch publishes on
// it too) and carries undici's internal request object, which cannot be matched to ours, and an
// interceptor (`compose`) sees the handler behind undici 7's new-API wrapper, which drops
// `onRequestSent` (undici 8 forwards it through interceptors only from nodejs/undici#5696). So the
// handler api-request makes is wrapped, forwarding everything. A dispatcher that never calls it (a
// MockAgent in undici 7) just never reports, which the limiter allows for (test/unit/http.undiciParts
// checks that both ways of loading report).

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
    onWritten?: () => void,
  ): Promise<ResponseData>;
  /** Which way they were loaded: "internals" (the fast path) or "entry point". */
  readonly loadedFrom: "internals" | "entry point";
}

type ApiRequest = (this: Undici.Dispatcher, opts: RequestOptions) => Promise<ResponseData>;
type Handler = Undici.Dispatcher.DispatchHandler;

/** The handler, with `onWritten` heard once when undici says the request was written. */
function hearingWrite(handler: Handler, onWritten: () => void): Handler {
  return new Proxy(handler, {
    get(target, property) {
      if (property === "onRequestSent") {
        return () => {
          onWritten();
          return (target as { onRequestSent?: () => void }).onRequestSent?.();
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `dispatcher`, telling `onWritten` when each request it takes was written. */
function reportingWrites(dispatcher: Undici.Dispatcher, onWritten: () => void): Undici.Dispatcher {
  // api-request and undici's entry point call nothing but `dispatch` on it.
  const reporting = {
    dispatch: (opts: Undici.Dispatcher.DispatchOptions, handler: Handler) =>
      dispatcher.dispatch(opts, hearingWrite(handler, onWritten)),
  };
  return reporting as unknown as Undici.Dispatcher;
}

/**
 * The origin and the path of `url` as written. `new URL()` (and undici's own request, which uses it)
 * folds "." and ".." segments, so the path sent would not be the one errors name; paths.ts refuses
 * such ids, and this keeps the path sent the path built whatever it holds.
 */
export function originAndPath(url: string): { origin: string; path: string } {
  const origin = new URL(url).origin;
  if (!url.toLowerCase().startsWith(origin.toLowerCase()))
    throw new Error(`not an absolute URL with an origin: ${url}`);
  const path = url.slice(origin.length);
  return { origin, path: path === "" ? "/" : path };
}

export function fromInternals(): UndiciParts | undefined {
  try {
    const Agent = require("undici/lib/dispatcher/agent") as unknown;
    const apiRequest = require("undici/lib/api/api-request") as unknown;
    if (typeof Agent !== "function" || typeof apiRequest !== "function") return undefined;
    const send = apiRequest as ApiRequest;
    return {
      Agent: Agent as typeof Undici.Agent,
      request(dispatcher, url, opts, onWritten) {
        const through = onWritten === undefined ? dispatcher : reportingWrites(dispatcher, onWritten);
        return send.call(through, { ...opts, ...originAndPath(url) });
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
    // undici.request(url) parses the URL as the fast path's old code did, folding dot segments:
    // Dispatcher's own request takes origin and path as they are.
    request: (dispatcher, url, opts, onWritten) => {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its `this`, a dispatcher.
      const send: ApiRequest = undici.Dispatcher.prototype.request;
      return send.call(onWritten === undefined ? dispatcher : reportingWrites(dispatcher, onWritten), {
        ...opts,
        ...originAndPath(url),
      });
    },
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
