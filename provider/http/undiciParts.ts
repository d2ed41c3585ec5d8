// undici's Agent and request without the rest of its entry point, for a short cold start; the entry
// point is the fallback (docs/design/http-client.md; held by test/unit/http.undiciParts.test.ts).
// `request` tells when a request was written: pacing counts from then.

import { setFlagsFromString } from "node:v8";
import type * as Undici from "undici";

type RequestOptions = Undici.Dispatcher.RequestOptions;
type ResponseData = Undici.Dispatcher.ResponseData;

export interface UndiciParts {
  readonly Agent: typeof Undici.Agent;
  /** Sends one request through any undici Dispatcher, a MockAgent included. */
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

/** The handler, calling `onWritten` once the request was written. */
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

/** The origin and path of `url` unfolded, as errors name it; `new URL()` folds dot segments. */
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
    // undici.request(url) folds dot segments; Dispatcher's request does not.
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

/** Optimizing the WebAssembly parser costs memory for no speed (docs/design/http-client.md). */
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
