// All the provider's process memory in one place: tests set it with `useRuntime`, reset it in one call.
//
// A second copy of the package (a nested install) shares it via a Symbol.for key: pacing is per
// credential at the service, and claims and config must reach every copy. A new shape needs a new key.
//
// Only types of undici and zod are imported, for a short cold start.

import { AsyncLocalStorage } from "node:async_hooks";
import type { Dispatcher } from "undici";

/** The subset of the host's stack config that the provider reads. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

export type NoticeWriter = (line: string) => void;

/** The waits the provider chooses itself (the retry policy has its own). */
export interface Timings {
  /** A wait (pacing, a retry's backoff) longer than this is said to the user. */
  readonly waitNoticeAfterMs: number;
  /** Before a lost create's second look: a service may store after it answers. */
  readonly secondLookMs: number;
  /** Between reads of a service being waited on (woken, rescaled); optional for an older copy's context. */
  readonly servicePollMs?: number;
  /** How long such a wait may last. */
  readonly serviceWaitMs?: number;
}

export const DEFAULT_TIMINGS: Timings = {
  waitNoticeAfterMs: 5_000,
  secondLookMs: 2_000,
  servicePollMs: 5_000,
  serviceWaitMs: 600_000,
};

/** The dynamic host gives no logger, but `pulumi up` shows the host's stderr. */
export const toStderr: NoticeWriter = (line) => {
  process.stderr.write(`${line}\n`);
};

/** The parts a test (or a host) sets; a fresh process has `defaults()`. */
interface Settable {
  /** The stack config `configure` was given; before it, the environment alone. */
  config: ConfigSource | undefined;
  /** A dispatcher in place of the process's own (tests: an undici MockAgent). */
  dispatcher: Dispatcher | undefined;
  retryPolicy: RetryPolicy;
  /** Where notices go when no call named its own writer. */
  notices: NoticeWriter;
  timings: Timings;
  /** Whether listings serve reads; false (a GET each) is the bench's baseline. */
  readByList: boolean;
}

/** A collection listed once for this process's reads; `secrets` gathers its readers', for its errors. */
export interface Listing {
  readonly credentialId: string;
  /** The list's path, the prefix of every path of its objects. */
  readonly path: string;
  readonly secrets: unknown[];
  readonly items: Promise<ReadonlyMap<string, unknown> | "unlistable">;
}

/** How many attempts a request gets and how long they may take. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** No retry starts after this long since the first attempt. */
  readonly maxTotalMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** From sending to the answer's last byte. */
  readonly attemptTimeoutMs?: number;
}

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  maxTotalMs: 120_000,
  baseDelayMs: 250,
  maxDelayMs: 15_000,
  attemptTimeoutMs: DEFAULT_ATTEMPT_TIMEOUT_MS,
};

export interface Runtime extends Settable {
  /** Made on the first send; a reset keeps it, its sockets being only a cache. */
  ownDispatcher: Dispatcher | undefined;
  /** The writer a call named, for all the call awaits. */
  readonly noticesPerCall: AsyncLocalStorage<NoticeWriter>;
  /** The pacing of each credential and limit. */
  readonly limiters: Map<string, object>;
  /** The block of each credential after a 429 asking for too long a wait. */
  readonly credentialBlocks: Map<string, object>;
  /** The parts of each service object a resource of this run holds. */
  readonly runClaims: Map<string, Set<string>>;
  /** Per credential and collection; a write drops its collection's. */
  readonly listings: Map<string, Listing>;
  /** Optional, so an older copy's context without it still serves. */
  saidOnce?: Set<string>;
  /** The alerting API's spelling of `source` per credential. Optional, as saidOnce. */
  dialects?: Map<string, Promise<"contract" | "2026">>;
  /** Each credential's one check (http/credentials.ts): its refusal's words, if refused. Optional, as saidOnce. */
  credentialChecks?: Map<string, Promise<string | undefined>>;
  /**
   * The native plugin's writer for notices no call's store claims (its reads' and diffs'): the engine's log
   * for the whole run. Set and unset by the server, so a reset between tests leaves it. Optional, as saidOnce.
   */
  runNotices?: NoticeWriter;
}

/** Any settable part, and any timing alone. */
export type RuntimeSettings = Partial<Omit<Settable, "timings">> & { readonly timings?: Partial<Timings> };

// A new shape needs a new key, so a copy expecting another keeps its own.
const KEY = Symbol.for("pulumi-alertpipe.runtime.v3");

/** What a fresh process has of each part a test may set. */
function defaults(): Settable {
  return {
    config: undefined,
    dispatcher: undefined,
    retryPolicy: DEFAULT_RETRY_POLICY,
    notices: toStderr,
    timings: DEFAULT_TIMINGS,
    readByList: true,
  };
}

/** The process's one context, shared by every copy of the package. */
export function runtime(): Runtime {
  const global = globalThis as Record<symbol, unknown>;
  let found = global[KEY] as Runtime | undefined;
  if (found === undefined) {
    found = {
      ...defaults(),
      ownDispatcher: undefined,
      noticesPerCall: new AsyncLocalStorage<NoticeWriter>(),
      limiters: new Map(),
      credentialBlocks: new Map(),
      runClaims: new Map(),
      listings: new Map(),
    };
    global[KEY] = found;
  }
  return found;
}

/** Sets the parts named; the others stay. */
export function useRuntime(settings: RuntimeSettings): void {
  const rt = runtime();
  const { timings, ...rest } = settings;
  Object.assign(rt, rest);
  if (timings !== undefined) rt.timings = { ...rt.timings, ...timings };
}

/** Back to a fresh process; maps emptied in place, pool kept: a call in flight may hold them. */
export function resetRuntime(): void {
  const rt = runtime();
  Object.assign(rt, defaults());
  rt.limiters.clear();
  rt.credentialBlocks.clear();
  rt.runClaims.clear();
  rt.listings.clear();
  rt.saidOnce?.clear();
  rt.dialects?.clear();
  rt.credentialChecks?.clear();
}

/** Drops the listings a write to `path` may stale; here because http/ must not import reading/. */
export function forgetListingsUnder(credentialId: string, path: string): void {
  const listings = runtime().listings;
  for (const [key, listing] of listings)
    if (listing.credentialId === credentialId && (path === listing.path || path.startsWith(`${listing.path}/`)))
      listings.delete(key);
}
