// What a provider process holds for all its calls, in one object: the stack config, the HTTP
// dispatcher, the limiters and blocks of each credential, the run's claims, where notices go, the
// retry policy and the waits' timings. The modules that use each part (connection.ts, notices.ts,
// http/client.ts, http/rateLimit.ts, creation/runClaims.ts, creation/recovery.ts,
// reading/listedReads.ts) keep no state of
// their own, so a test sets what it needs with `useRuntime` and puts everything back with the one
// `resetRuntime`, and a reader finds every piece of process memory here.
//
// A second copy of the package in one process (a nested install under another package, source and
// build loaded side by side) shares this one context: it lives on globalThis under a Symbol.for
// key, which every copy computes alike. Sharing is what each part needs: pacing and blocks are per
// credential at the service, so two copies pacing apart would draw the 429s pacing exists to avoid;
// the run's claims must be seen by whichever copy runs the delete; the stack config reaches a copy
// whose `configure` the host never called; one keep-alive pool serves both. The key carries a
// version: a copy whose context has another shape must bump it and keep its own, never misread this.
//
// Importing this module loads neither undici nor zod (only their types), so the cold start stays
// short: the dispatcher is made on the first send (http/client.ts).

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
  /**
   * After a fruitless first look for what a lost create made, the second look waits this long: a service may store
   * after it answers.
   */
  readonly secondLookMs: number;
}

export const DEFAULT_TIMINGS: Timings = { waitNoticeAfterMs: 5_000, secondLookMs: 2_000 };

/**
 * The Node dynamic-provider host gives a provider no logger, but the engine shows every line the
 * host writes to stderr in `pulumi up`'s output; so stderr is where notices go unless told otherwise.
 */
export const toStderr: NoticeWriter = (line) => {
  process.stderr.write(`${line}\n`);
};

/** The parts a test (or a host) sets; a fresh process has `defaults()`. */
interface Settable {
  /** The stack config `configure` was given; undefined until then, when the environment alone serves. */
  config: ConfigSource | undefined;
  /** A dispatcher that replaces the process's own (tests: an undici MockAgent); undefined: the own one. */
  dispatcher: Dispatcher | undefined;
  retryPolicy: RetryPolicy;
  /** Where notices go when no call named its own writer. */
  notices: NoticeWriter;
  timings: Timings;
  /**
   * Whether reads of alerts and keys are served by a listing (reading/listedReads.ts); false: one GET each, as a
   * baseline for tests and the bench.
   */
  readByList: boolean;
}

/**
 * A collection listed once for the reads of this process (reading/listedReads.ts): its objects by
 * id once the listing answers, or "unlistable" when the service has no usable list (each read then
 * GETs). `secrets` grows with every read that waits on it, so the listing's errors scrub them all.
 */
export interface Listing {
  readonly credentialId: string;
  /** The list's path, the prefix of every path of its objects. */
  readonly path: string;
  readonly secrets: unknown[];
  readonly items: Promise<ReadonlyMap<string, unknown> | "unlistable">;
}

/** How many attempts a request gets and how long they may take; http/retry.ts decides with it. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** No retry is started once this much time has passed since the first attempt was sent. */
  readonly maxTotalMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Time one attempt may take, from sending to the last byte of the answer (default 60 s). */
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
  /** The process's keep-alive pool, made on the first send; a reset keeps it, since its sockets are only a cache. */
  ownDispatcher: Dispatcher | undefined;
  /**
   * The writer a call named (the native plugin: the engine's log under that call's URN), for everything the call
   * awaits.
   */
  readonly noticesPerCall: AsyncLocalStorage<NoticeWriter>;
  /** The pacing of each credential and limit (http/rateLimit.ts). */
  readonly limiters: Map<string, object>;
  /** The block of each credential after a 429 asking for too long a wait (http/rateLimit.ts). */
  readonly credentialBlocks: Map<string, object>;
  /** The parts of each service object a resource of this run holds (creation/runClaims.ts). */
  readonly runClaims: Map<string, Set<string>>;
  /**
   * The listings reads reuse, per credential and collection (reading/listedReads.ts); a write drops its collection's.
   */
  readonly listings: Map<string, Listing>;
  /**
   * What was said once per process (connection.ts: a credential in plain text). Optional and made
   * when first needed, so a context made by an older copy of the package, without it, still serves.
   */
  saidOnce?: Set<string>;
  /**
   * The alerting API's spelling of `source` as each credential's service answered it (alert/dialect.ts), asked once
   * per process. Optional, as saidOnce.
   */
  dialects?: Map<string, Promise<"contract" | "2026">>;
}

/** What `useRuntime` takes: any of the settable parts, and any of the timings alone. */
export type RuntimeSettings = Partial<Omit<Settable, "timings">> & { readonly timings?: Partial<Timings> };

// Bumped whenever the context's shape changes, so a copy expecting another keeps its own.
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

/** The process's one context, shared by every copy of the package loaded in it. */
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

/** Sets the parts named (tests: a MockAgent, short waits, notices collected); the others stay. */
export function useRuntime(settings: RuntimeSettings): void {
  const rt = runtime();
  const { timings, ...rest } = settings;
  Object.assign(rt, rest);
  if (timings !== undefined) rt.timings = { ...rt.timings, ...timings };
}

/**
 * Back to what a fresh process holds: no stack config, the own dispatcher, the default policy,
 * timings and notices, no limiter, block or claim. Tests call it around each test, and between two
 * runs they play (a later `pulumi up` is a new process). The maps are emptied in place and the
 * pool and the per-call store kept: a call in flight may still hold them.
 */
export function resetRuntime(): void {
  const rt = runtime();
  Object.assign(rt, defaults());
  rt.limiters.clear();
  rt.credentialBlocks.clear();
  rt.runClaims.clear();
  rt.listings.clear();
  rt.saidOnce?.clear();
  rt.dialects?.clear();
}

/**
 * A write (any method but GET) to `path` with this credential is on its way or done, whatever its
 * outcome: the listings it may make stale (the collection holding `path`) are dropped, so the next
 * read lists again. Here, not in reading/, because the HTTP layer calls it for every write and
 * must not import what is built on it.
 */
export function forgetListingsUnder(credentialId: string, path: string): void {
  const listings = runtime().listings;
  for (const [key, listing] of listings)
    if (listing.credentialId === credentialId && (path === listing.path || path.startsWith(`${listing.path}/`)))
      listings.delete(key);
}
