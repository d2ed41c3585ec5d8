// The two pieces of undici the client uses, its Agent and its request, loaded without the rest
// (the entry point also loads fetch, WebSocket, caches, mocks: a slower cold start). The paths are
// undici's internals, so the entry point stays the fallback; test/unit/http.undiciParts.test.ts
// fails when the fast path is lost. `request` also says when a request went onto the socket, by
// wrapping its handler's `onRequestSent`: pacing counts a send from then (rateLimit.ts). Why not
// the public ways, and the figures: docs/design/http-client.md.

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
 * Keeps undici's WebAssembly HTTP parser in V8's baseline tier: its optimizing recompile costs
 * memory and buys no speed here (docs/design/http-client.md). Set before undici first compiles
 * it; process-wide, and no other WebAssembly runs in a provider host.
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
