// The one way the provider talks HTTP: one keep-alive undici dispatcher per process, timeouts,
// JSON in and out, the area's auth header, a User-Agent, client-side pacing, retries (retry.ts)
// and typed errors (errors.ts) that never carry a credential.

import { Agent, request, type Dispatcher } from "undici";
import type { AreaConnection } from "../connection";
import type { z } from "zod";
import { ApiError, OutcomeUnknownError, TransportError, UnexpectedResponseError, type RequestRef } from "./errors";
import { limiterFor } from "./rateLimit";
import { DEFAULT_RETRY_POLICY, decide, retryDelayMs, serverRequestedDelayMs, type AttemptOutcome, type RetryPolicy } from "./retry";
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

let dispatcher: Dispatcher | undefined;

function currentDispatcher(): Dispatcher {
  dispatcher ??= new Agent({
    keepAliveTimeout: 30_000,
    connections: 64,
    connect: { timeout: 10_000 },
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  return dispatcher;
}

/** Replaces the process dispatcher (tests pass an undici MockAgent); undefined restores the default. */
export function useDispatcher(replacement: Dispatcher | undefined): void {
  dispatcher = replacement;
}

let retryPolicy: RetryPolicy = DEFAULT_RETRY_POLICY;

/** Replaces the retry policy (tests shorten the waits); undefined restores the default. */
export function useRetryPolicy(policy: RetryPolicy | undefined): void {
  retryPolicy = policy ?? DEFAULT_RETRY_POLICY;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
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
    if (typeof v === "string" && v !== "") return v;
  }
  if (typeof body === "string" && body.trim() !== "") return body.trim().slice(0, 500);
  return "no message from the service";
}

function requestIdOf(body: unknown, header: (n: string) => string | undefined): string | undefined {
  const fromBody = field(body, "requestId");
  if (typeof fromBody === "string") return fromBody;
  return header("x-request-id");
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

/**
 * Sends one API request, pacing and retrying as the policy says. Resolves with the 2xx answer;
 * rejects with ApiError, TransportError or OutcomeUnknownError.
 */
export async function send(conn: AreaConnection, req: ApiRequest): Promise<ApiResponse> {
  const ref: RequestRef = { method: req.method, path: req.path };
  const policy = retryPolicy;
  const limiter = limiterFor(conn);
  const started = Date.now();
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);

  for (let attempt = 1; ; attempt++) {
    await limiter?.acquire();
    let outcome: AttemptOutcome;
    let failure: Error;
    let requested: number | undefined;
    try {
      const res = await request(conn.baseUrl + req.path, {
        method: req.method,
        dispatcher: currentDispatcher(),
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
      if (res.statusCode >= 200 && res.statusCode < 300) {
        return { method: req.method, path: req.path, status: res.statusCode, body, requestId: requestIdOf(body, header) };
      }
      outcome = { kind: "status", status: res.statusCode };
      failure = new ApiError(ref, res.statusCode, redact(serviceMessage(body), conn.secrets), requestIdOf(body, header));
      requested = serverRequestedDelayMs(header, Date.now());
      if (res.statusCode === 429 && requested !== undefined) limiter?.pauseFor(requested);
    } catch (err) {
      const code = errorCode(err);
      outcome = { kind: "transport", code };
      const reason = err instanceof Error ? redact(err.message, conn.secrets) : "request failed";
      failure = new TransportError(ref, `${reason} (${code})`);
    }

    const decision = decide(req.method, outcome);
    if (decision === "outcome-unknown") {
      throw new OutcomeUnknownError(ref, req.creates ?? "the object", failure.message, { cause: failure });
    }
    if (decision === "fail" || attempt >= policy.maxAttempts) throw failure;
    const delay = retryDelayMs(attempt, requested, policy);
    if (Date.now() - started + delay > policy.maxTotalMs) throw failure;
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
