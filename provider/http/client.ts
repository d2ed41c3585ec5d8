// The one way the provider talks HTTP: one keep-alive undici dispatcher per process, timeouts,
// JSON in and out, the area's auth header, a User-Agent, client-side pacing, retries (retry.ts)
// and typed errors (errors.ts) that never carry a credential.

import type { Dispatcher } from "undici";
import type { AreaConnection } from "../connection";
import type { z } from "zod";
import { ApiError, OutcomeUnknownError, TransportError, UnexpectedResponseError, type RequestRef } from "./errors";
import { limiterFor, monotonicNow } from "./rateLimit";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_RETRY_POLICY, decide, retryDelayMs, serverRequestedDelayMs, type AttemptOutcome, type RetryPolicy } from "./retry";
import { redact } from "./redact";
import { undiciParts } from "./undiciParts";
import { USER_AGENT } from "./userAgent";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ApiRequest {
  readonly method: Method;
  /** Path below the area's base URL, starting with "/"; segments already encoded. */
  readonly path: string;
  readonly body?: unknown;
  /** For a POST: words naming what it creates, e.g. `the API key "deployer"`, for the error when its outcome is unknown. */
  readonly creates?: string;
}

export interface ApiResponse {
  readonly method: Method;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
}

// Kept on globalThis so that two copies of this module in one host process still share one
// keep-alive pool.
const SHARED = Symbol.for("pulumi-alertpipe.httpDispatcher.v1");
interface Shared {
  dispatcher: Dispatcher | undefined;
  replacement: Dispatcher | undefined;
}
const shared: Shared = ((globalThis as Record<symbol, unknown>)[SHARED] as Shared | undefined) ?? { dispatcher: undefined, replacement: undefined };
(globalThis as Record<symbol, unknown>)[SHARED] = shared;

function currentDispatcher(): Dispatcher {
  if (shared.replacement) return shared.replacement;
  shared.dispatcher ??= new (undiciParts().Agent)({
    keepAliveTimeout: 30_000,
    connections: 64,
    connect: { timeout: 10_000 },
    // Backstops; the attempt timeout of the retry policy is the one that normally fires.
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  return shared.dispatcher;
}

/** Replaces the process dispatcher (tests pass an undici MockAgent); undefined restores the default. */
export function useDispatcher(replacement: Dispatcher | undefined): void {
  shared.replacement = replacement;
}

let retryPolicy: RetryPolicy = DEFAULT_RETRY_POLICY;

/** Replaces the retry policy (tests shorten the waits); undefined restores the default. */
export function useRetryPolicy(policy: RetryPolicy | undefined): void {
  retryPolicy = policy ?? DEFAULT_RETRY_POLICY;
}

/** Waits at least `ms` (a timer may fire a little early; a wait the service asked for must not). */
async function sleep(ms: number): Promise<void> {
  const until = monotonicNow() + ms;
  for (let left = ms; left > 0; left = until - monotonicNow()) {
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}

const MAX_MESSAGE = 1000;

function clip(text: string): string {
  const t = text.trim();
  return t.length > MAX_MESSAGE ? `${t.slice(0, MAX_MESSAGE)}…` : t;
}

function parseBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function field(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** The service's own words: area B answers `{status, error, requestId}`, area A `{message}` or text. */
function serviceMessage(body: unknown): string {
  for (const name of ["error", "message"]) {
    const v = field(body, name);
    if (typeof v === "string" && v.trim() !== "") return clip(v);
  }
  if (typeof body === "string" && body.trim() !== "") return clip(body);
  return "no message from the service";
}

function requestIdOf(body: unknown, header: (n: string) => string | undefined): string | undefined {
  const fromBody = field(body, "requestId");
  if (typeof fromBody === "string" && fromBody !== "") return clip(fromBody);
  const fromHeader = header("x-request-id");
  return fromHeader === undefined || fromHeader === "" ? undefined : clip(fromHeader);
}

function headerLookup(headers: Record<string, string | string[] | undefined>): (name: string) => string | undefined {
  return (name) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
}

function errorCode(err: unknown): string {
  // undici wraps the socket error; its code says whether the request was sent at all.
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return "UNKNOWN";
}

/** The reason an attempt was abandoned by our own clock. */
class AttemptTimeout extends Error {
  readonly code = "ATTEMPT_TIMEOUT";
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = "AttemptTimeout";
  }
}

type Attempt =
  | { ok: true; response: ApiResponse }
  | { ok: false; outcome: AttemptOutcome; failure: ApiError | TransportError; requested: number | undefined };

async function attemptOnce(conn: AreaConnection, req: ApiRequest, payload: string | undefined, timeoutMs: number): Promise<Attempt> {
  const ref: RequestRef = { method: req.method, path: req.path };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout(timeoutMs)), timeoutMs);
  try {
    const res = await undiciParts().request(currentDispatcher(), conn.baseUrl + req.path, {
      method: req.method,
      signal: controller.signal,
      headers: {
        authorization: conn.authorization,
        accept: "application/json",
        "user-agent": USER_AGENT,
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
      body: payload,
    });
    const body = parseBody(await res.body.text());
    const header = headerLookup(res.headers);
    const requestId = requestIdOf(body, header);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return { ok: true, response: { method: req.method, path: req.path, status: res.statusCode, body, requestId } };
    }
    return {
      ok: false,
      outcome: { kind: "status", status: res.statusCode },
      failure: new ApiError(ref, res.statusCode, redact(serviceMessage(body), conn.secrets), requestId === undefined ? undefined : redact(requestId, conn.secrets)),
      requested: serverRequestedDelayMs(header, Date.now()),
    };
  } catch (err) {
    const code = errorCode(err);
    const reason = err instanceof Error && err.message !== "" ? redact(err.message, conn.secrets) : "request failed";
    // The undici error itself is not kept as the cause: it is not ours to vouch for.
    return { ok: false, outcome: { kind: "transport", code }, failure: new TransportError(ref, `${reason} (${code})`, { code }), requested: undefined };
  } finally {
    clearTimeout(timer);
  }
}

/** The failure in words for OutcomeUnknownError, without the method and path it repeats. */
function outcomeReason(failure: ApiError | TransportError): string {
  if (failure instanceof ApiError) return `the service answered ${failure.status}: ${failure.serviceMessage}`;
  return `no answer came: ${failure.message.replace(/^\S+ \S+ got no answer: /, "")}`;
}

/**
 * Sends one API request, pacing and retrying as the policy says. Resolves with the 2xx answer;
 * rejects with ApiError, TransportError or OutcomeUnknownError.
 */
export async function send(conn: AreaConnection, req: ApiRequest): Promise<ApiResponse> {
  const policy = retryPolicy;
  const limiter = limiterFor(conn);
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  const timeoutMs = policy.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  // The time budget runs from the first send: waiting in the limiter's queue behind other
  // resources is pacing, not a failure, and must not eat the retries.
  let started: number | undefined;

  for (let attempt = 1; ; attempt++) {
    const slot = await limiter?.acquire();
    started ??= monotonicNow();
    const result = await attemptOnce(conn, req, payload, timeoutMs);
    if (slot !== undefined) limiter?.settle(slot);
    if (result.ok) return result.response;
    const { outcome, failure, requested } = result;

    const decision = decide(req.method, outcome);
    if (decision === "outcome-unknown") {
      throw new OutcomeUnknownError({ method: req.method, path: req.path }, req.creates ?? "the object", outcomeReason(failure), {
        cause: failure,
        ...(failure instanceof ApiError ? { status: failure.status, ...(failure.requestId === undefined ? {} : { requestId: failure.requestId }) } : {}),
      });
    }
    const delay = retryDelayMs(attempt, requested, policy);
    // A 429 means the credential is spent, maybe by another process: hold every caller of it.
    if (outcome.kind === "status" && outcome.status === 429) limiter?.pauseFor(requested ?? delay);
    if (decision === "fail" || attempt >= policy.maxAttempts) throw failure;
    if (monotonicNow() - started + delay > policy.maxTotalMs) throw failure;
    await sleep(delay);
  }
}

/** The body of a 2xx answer, checked against the schema the spec gives it. Never echoes the body itself. */
export function decode<S extends z.ZodType>(schema: S, res: ApiResponse): z.infer<S> {
  const parsed = schema.safeParse(res.body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
  throw new UnexpectedResponseError(res, problems.join("; "), res.requestId);
}
