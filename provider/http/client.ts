// The one way the provider talks HTTP: one keep-alive undici dispatcher per process, timeouts,
// JSON in and out, the area's auth header, a User-Agent, client-side pacing, retries (retry.ts)
// and typed errors (errors.ts) that never carry a credential. What an answer says in the
// service's own words (and its requestId) is read by serviceWords.ts.

import type { Dispatcher } from "undici";
import { CONNECTION_SETTINGS, type AreaConnection, type ConnectionSettingName } from "../runtime/connection";
import type { z } from "zod";
import {
  ApiError,
  IdFormError,
  AttemptTimeout,
  OutcomeUnknownError,
  RateLimitWaitError,
  TransportError,
  AlertpipeError,
  HttpError,
  UnexpectedResponseError,
  type RequestRef,
} from "../errors";
import { formatSeconds } from "../words";
import { blockFor, limiterFor, serviceCountIn, type ServiceCount } from "./rateLimit";
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  NOT_HTTP,
  RetryBudget,
  doneOnRetry,
  monotonicNow,
  retryDecision,
  retryDelayMs,
  serverRequestedDelayMs,
  type AttemptOutcome,
} from "./retry";
import { notify } from "../runtime/notices";
import { forgetListingsUnder, runtime } from "../runtime/runtime";
import { headerLookup, parseBody, requestIdOf, serviceMessage } from "./serviceWords";
import { hasDotOrEmptySegment } from "./paths";
import { redact } from "./redact";
import { undiciParts } from "./undiciParts";
import { USER_AGENT } from "./userAgent";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ApiRequest {
  readonly method: Method;
  /** Path below the area's base URL, starting with "/"; segments already encoded. */
  readonly path: string;
  readonly body?: unknown;
  /**
   * For a POST: words naming what it creates, e.g. `the API key "deployer"`, for the error when its outcome is unknown.
   */
  readonly creates?: string;
  /**
   * The resource's own secrets (a key's secret, its hashData), scrubbed here from every error and
   * requestId as the connection's credentials are: this layer is the one place secrets leave errors.
   */
  readonly secrets?: readonly unknown[];
  /**
   * Secrets a 2xx answer brings itself (a created key's secret), scrubbed from that answer's requestId, which errors
   * quote.
   */
  readonly secretsInAnswer?: (body: unknown) => readonly unknown[];
  /** For a PUT the service may answer 409 for a concurrent change: the fresh read before it is sent again. */
  readonly readOnConflict?: () => Promise<void>;
}

export interface ApiResponse {
  readonly method: Method;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
}

/**
 * The dispatcher of this process (runtime.ts): a test's replacement, else the one keep-alive pool, made on the first
 * send.
 */
function currentDispatcher(): Dispatcher {
  const rt = runtime();
  if (rt.dispatcher) return rt.dispatcher;
  rt.ownDispatcher ??= new (undiciParts().Agent)({
    keepAliveTimeout: 30_000,
    connections: 64,
    connect: { timeout: 10_000 },
    // Backstops; the attempt timeout of the retry policy is the one that normally fires.
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  return rt.ownDispatcher;
}

/** Says a long wait (over the runtime's waitNoticeAfterMs) as every notice is said (provider/runtime/notices.ts). */
function noticeLongWait(ref: RequestRef, ms: number, why: string): void {
  if (ms > runtime().timings.waitNoticeAfterMs)
    notify(`pulumi-alertpipe: ${ref.method} ${ref.path} waits ${formatSeconds(ms)}: ${why}`);
}

function errorCode(err: unknown): string {
  // undici wraps the socket error; its code says whether the request was sent at all.
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    // undici's parser error has no code when the answer's first bytes are not HTTP at all.
    if ((e as { name?: unknown }).name === "HTTPParserError" && /Expected HTTP/i.test(String((e as Error).message)))
      return NOT_HTTP;
  }
  return "UNKNOWN";
}

/**
 * What to fix when no answer came for a reason the URL setting explains: TLS against plain HTTP and back, a port not
 * HTTP.
 */
function transportAdvice(conn: AreaConnection, code: string): string {
  const setting = settingWords(conn.area === "alerting" ? "alertingUrl" : "cloudUrl");
  const origin = new URL(conn.baseUrl).origin;
  const https = origin.startsWith("https:");
  if (https && (code === "ERR_SSL_WRONG_VERSION_NUMBER" || code === "ERR_SSL_PACKET_LENGTH_TOO_LONG"))
    return `. The server at ${origin} does not speak TLS (a plain-http port?): set ${setting} to the service's https:// address; only a service on this machine (an emulator) takes http://127.0.0.1:<port>`;
  if (code === NOT_HTTP)
    return `. The server at ${origin} answered something that is not HTTP, so it is not the service (and it did nothing with the request): set ${setting} to the service's address and port`;
  if (!https && code === "UND_ERR_SOCKET")
    return `. If the server at ${origin} speaks TLS on that port, ${setting} must say https://`;
  return "";
}

/** A setting as a user sets it: the stack config key, or the environment variable. */
function settingWords(name: ConnectionSettingName): string {
  return `${CONNECTION_SETTINGS[name].configKey} (or ${CONNECTION_SETTINGS[name].envVar})`;
}

/** What a 401 or 403 asks the user to fix: which credential, in which setting. */
function authAdvice(conn: AreaConnection, status: number): string | undefined {
  if (status !== 401 && status !== 403) return undefined;
  if (conn.area === "alerting") {
    return status === 401
      ? ` The alerting API did not accept the token: check ${settingWords("alertingToken")}, and ${settingWords("alertingUrl")} for the service it belongs to.`
      : ` The alerting API accepted the token but refuses it this: use the token ${settingWords("alertingToken")} of a user who may manage alerts.`;
  }
  return status === 401
    ? ` The cloud API did not accept the API key: check ${settingWords("cloudKeyId")} and ${settingWords("cloudKeySecret")}; the key must exist, be enabled and not have expired.`
    : ` The cloud API accepted the API key ${settingWords("cloudKeyId")} but refuses it this: it needs a role that may do it (admin to manage keys) and this machine's address on its IP access list.`;
}

/** The connection's credentials and the request's own secrets: what errors must never carry. */
function secretsOf(conn: AreaConnection, req: ApiRequest): unknown[] {
  return [...conn.secrets, ...(req.secrets ?? [])];
}

/** One attempt's end; `count`: the service's count of the credential's requests, when the answer stated it. */
type Attempt = { count?: ServiceCount } & (
  | { ok: true; response: ApiResponse }
  | { ok: false; outcome: AttemptOutcome; failure: ApiError | TransportError; requested: number | undefined }
);

async function attemptOnce(
  conn: AreaConnection,
  req: ApiRequest,
  payload: string | undefined,
  timeoutMs: number,
  onWritten: (() => void) | undefined,
): Promise<Attempt> {
  const ref: RequestRef = { method: req.method, path: req.path };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout(timeoutMs)), timeoutMs);
  try {
    const res = await undiciParts().request(
      currentDispatcher(),
      conn.baseUrl + req.path,
      {
        method: req.method,
        signal: controller.signal,
        headers: {
          authorization: conn.authorization,
          accept: "application/json",
          "user-agent": USER_AGENT,
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
        },
        body: payload,
      },
      onWritten,
    );
    const text = await res.body.text();
    // Taken once the answer is in: a listing shared by many reads has their secrets added as they join
    // (reading/listedReads.ts).
    const secrets = secretsOf(conn, req);
    const header = headerLookup(res.headers);
    const count = serviceCountIn(header, Date.now());
    if (res.statusCode >= 200 && res.statusCode < 300) {
      // A success's body is data (a created key's secret among it); only its requestId is ever quoted.
      const body = parseBody(text);
      const answerSecrets = [...secrets, ...(req.secretsInAnswer?.(body) ?? [])];
      return {
        ok: true,
        ...(count === undefined ? {} : { count }),
        response: {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          body,
          requestId: requestIdOf(body, header, answerSecrets),
        },
      };
    }
    // A failure's body is only ever quoted: scrubbed as raw text, before it is parsed, unescaped or cut.
    const body = parseBody(redact(text, secrets));
    return {
      ok: false,
      ...(count === undefined ? {} : { count }),
      outcome: { kind: "status", status: res.statusCode },
      failure: new ApiError(
        ref,
        res.statusCode,
        serviceMessage(body, secrets),
        requestIdOf(body, header, secrets),
        authAdvice(conn, res.statusCode),
      ),
      requested: serverRequestedDelayMs(header, Date.now()),
    };
  } catch (err) {
    const code = errorCode(err);
    const secrets = secretsOf(conn, req);
    // detailOf: our own abort reason (AttemptTimeout) is quoted without its code; the TransportError says its own.
    const words = AlertpipeError.detailOf(err);
    const reason = err instanceof Error && words !== "" ? redact(words, secrets) : "request failed";
    // The undici error itself is not kept as the cause: it is not ours to vouch for.
    return {
      ok: false,
      outcome: { kind: "transport", code },
      failure: new TransportError(ref, `${reason.trim()} (${code})${transportAdvice(conn, code)}`, code),
      requested: undefined,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A failed attempt in a few words, for a wait notice. */
function outcomeWords(failure: ApiError | TransportError): string {
  return failure instanceof ApiError ? `answered ${failure.status}` : `no answer (${failure.code})`;
}

/** The failure in words for OutcomeUnknownError, without the method and path it repeats. */
function outcomeReason(failure: ApiError | TransportError): string {
  if (failure instanceof ApiError) return `the service answered ${failure.status}: ${failure.serviceMessage}`;
  return `no answer came: ${failure.reason}`;
}

/**
 * Sends one API request, pacing and retrying as the policy says. Resolves with the 2xx answer (or,
 * for a DELETE retried after an attempt that may have done it, the 404 that says it is gone); rejects with ApiError,
 * TransportError or OutcomeUnknownError.
 */
export async function send(conn: AreaConnection, req: ApiRequest): Promise<ApiResponse> {
  // Resources build paths with paths.ts, which refuses such ids by name; this is the last guard.
  if (hasDotOrEmptySegment(req.path))
    throw new IdFormError(
      "request",
      "path",
      req.path,
      "it holds an empty, . or .. segment, which would address another path",
    );
  if (req.method === "GET") return sendPaced(conn, req);
  // A write makes the listings of its collection stale from when it may land until it has: before
  // it is sent and after it ends, whatever the outcome (a lost answer may have written).
  forgetListingsUnder(conn.credentialId, req.path);
  try {
    return await sendPaced(conn, req);
  } finally {
    forgetListingsUnder(conn.credentialId, req.path);
  }
}

async function sendPaced(conn: AreaConnection, req: ApiRequest): Promise<ApiResponse> {
  const policy = runtime().retryPolicy;
  const ref: RequestRef = { method: req.method, path: req.path };
  const limiter = limiterFor(conn);
  const block = blockFor(conn);
  // Every wait (the limiter's queue, a retry's backoff) ends at once if the credential is blocked.
  const wait = (ms: number) => block.wait(ms, ref);
  const pacing = limiter === undefined ? "" : `${limiter.limit.requests} per ${limiter.limit.perSeconds} s`;
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  const timeoutMs = policy.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  // The time budget runs from the first send: waiting in the limiter's queue behind other
  // resources is pacing, not a failure, and must not eat the retries.
  let budget: RetryBudget | undefined;

  for (let attempt = 1; ; attempt++) {
    block.throwIfBlocked(ref);
    const ticket = await limiter?.acquire({
      sleep: wait,
      onWait: (ms) =>
        noticeLongWait(
          ref,
          ms,
          limiter.resumesAt > monotonicNow()
            ? "the service rate-limited this credential (a 429)"
            : limiter.serviceHoldsUntil > monotonicNow()
              ? "the service's own count for this credential allows no more until its window resets"
              : `client-side pacing of this credential (${pacing})`,
        ),
    });
    budget ??= new RetryBudget(policy);
    // The limiter decides from when this send counts; it is only told when it was written and ended.
    const result = await attemptOnce(
      conn,
      req,
      payload,
      timeoutMs,
      ticket === undefined ? undefined : () => limiter?.written(ticket),
    );
    if (ticket !== undefined) limiter?.settle(ticket, result.ok || result.outcome.kind === "status", result.count);
    if (result.ok) return result.response;
    const { outcome, failure, requested } = result;
    // A DELETE retried after an attempt that may have done it: its 404 is the deletion, done.
    if (doneOnRetry(req.method, attempt, outcome) && failure instanceof ApiError) {
      return {
        method: req.method,
        path: req.path,
        status: failure.status,
        body: undefined,
        requestId: failure.requestId,
      };
    }

    const decision = retryDecision(req.method, outcome, req.readOnConflict !== undefined);
    if (decision === "outcome-unknown") {
      throw new OutcomeUnknownError(
        { method: req.method, path: req.path },
        req.creates ?? "the object",
        outcomeReason(failure),
        {
          cause: failure,
          ...(failure instanceof ApiError ? HttpError.answerOf(failure) : {}),
        },
      );
    }
    const delay = retryDelayMs(attempt, requested, policy);
    const rateLimited = outcome.kind === "status" && outcome.status === 429;
    // A 429 means the credential is spent, maybe by another process: hold every caller of it.
    if (rateLimited) limiter?.pauseFor(requested ?? delay);
    if (rateLimited && requested !== undefined && failure instanceof ApiError && requested > policy.maxTotalMs) {
      // Waiting minutes with nothing on the screen helps no one: stop this request and every one of
      // the credential waiting behind it now, saying how long the service asked for.
      const until = monotonicNow() + requested;
      const resumesAt = new Date(Date.now() + requested);
      block.blockUntil(
        until,
        (other) => new RateLimitWaitError(other, until - monotonicNow(), policy.maxTotalMs, resumesAt, undefined),
      );
      throw new RateLimitWaitError(ref, requested, policy.maxTotalMs, resumesAt, failure);
    }
    if (decision === "fail" || !budget.allowsAnother(attempt, delay)) throw failure;
    const asked = requested === undefined ? "backing off" : "as the service asked";
    noticeLongWait(
      ref,
      delay,
      `${outcomeWords(failure)}; trying again ${asked} (attempt ${attempt + 1} of ${policy.maxAttempts})`,
    );
    await wait(delay);
    if (outcome.kind === "status" && outcome.status === 409) await req.readOnConflict?.();
  }
}

/** The body of a 2xx answer, checked against the schema the spec gives it. Never echoes the body itself. */
export function decode<S extends z.ZodType>(schema: S, res: ApiResponse): z.infer<S> {
  const parsed = schema.safeParse(res.body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
  throw new UnexpectedResponseError(res, problems.join("; "), res.requestId);
}
