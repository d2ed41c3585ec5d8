// The one way the provider talks HTTP: paced, retried, with errors that never carry a credential.

import type { Dispatcher } from "undici";
import { CONNECTION_SETTINGS, type AreaConnection, type ConnectionSettingName } from "../runtime/connection";
import type { z } from "zod";
import {
  ApiError,
  IdFormError,
  AttemptTimeout,
  OutcomeUnknownError,
  RateLimitWaitError,
  RouteNotServedError,
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
import { forgetListingsUnder, runtime, type RetryPolicy } from "../runtime/runtime";
import { headerLookup, parseBody, requestIdOf, serviceMessage } from "./serviceWords";
import { hasDotOrEmptySegment } from "./paths";
import { gatewayAnswer, gatewayPath, isUnservedRoute, unservedRouteAdvice } from "./gateway";
import { redact } from "./redact";
import { undiciParts } from "./undiciParts";
import { USER_AGENT } from "./userAgent";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ApiRequest {
  readonly method: Method;
  /** Below the area's base URL, starting with "/", segments encoded. */
  readonly path: string;
  readonly body?: unknown;
  /** For a POST: what it creates, e.g. `the API key "deployer"`, for an outcome-unknown error. */
  readonly creates?: string;
  /** The resource's own secrets, scrubbed from every error. */
  readonly secrets?: readonly unknown[];
  /** Secrets a 2xx answer brings, scrubbed from its requestId, which errors quote. */
  readonly secretsInAnswer?: (body: unknown) => readonly unknown[];
  /** The fresh read before a PUT is resent after a 409 (a concurrent change). */
  readonly readOnConflict?: () => Promise<void>;
  /** Tighter limits than the runtime's, for a request whose failure another request will meet anyway. */
  readonly retryPolicy?: Partial<RetryPolicy>;
}

export interface ApiResponse {
  readonly method: Method;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
}

/** A test's dispatcher, else the process's keep-alive pool, made on the first send. */
function currentDispatcher(): Dispatcher {
  const rt = runtime();
  if (rt.dispatcher) return rt.dispatcher;
  rt.ownDispatcher ??= new (undiciParts().Agent)({
    keepAliveTimeout: 30_000,
    connections: 64,
    connect: { timeout: 10_000 },
    // Backstops; the retry policy's attempt timeout normally fires first.
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  return rt.ownDispatcher;
}

/** Says a wait over the runtime's waitNoticeAfterMs. */
function noticeLongWait(ref: RequestRef, ms: number, why: string): void {
  if (ms > runtime().timings.waitNoticeAfterMs)
    notify(`pulumi-alertpipe: ${ref.method} ${ref.path} waits ${formatSeconds(ms)}: ${why}`);
}

function errorCode(err: unknown): string {
  // undici wraps the socket error, whose code says whether anything was sent.
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    // undici's parser error has no code when the answer is not HTTP at all.
    if ((e as { name?: unknown }).name === "HTTPParserError" && /Expected HTTP/i.test(String((e as Error).message)))
      return NOT_HTTP;
  }
  return "UNKNOWN";
}

/** What to fix when the URL explains a failure (TLS against plain HTTP, a port not HTTP). */
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

/** A setting's config key or environment variable. */
function settingWords(name: ConnectionSettingName): string {
  return `${CONNECTION_SETTINGS[name].configKey} (or ${CONNECTION_SETTINGS[name].envVar})`;
}

/** Which credential, in which setting, a 401 or 403 asks to fix. */
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

/** What errors must never carry: the credentials and the request's own secrets. */
function secretsOf(conn: AreaConnection, req: ApiRequest): unknown[] {
  return [...conn.secrets, ...(req.secrets ?? [])];
}

/** One attempt's end, with the service's count if stated. */
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
    // Taken late: a shared listing adds its readers' secrets as they join.
    const secrets = secretsOf(conn, req);
    const header = headerLookup(res.headers);
    const count = serviceCountIn(header, Date.now());
    if (res.statusCode >= 200 && res.statusCode < 300) {
      // A success's body may hold a new key's secret; only its requestId is ever quoted.
      const body = gatewayAnswer(conn, parseBody(text));
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
    // A failure's body is only quoted: scrubbed as raw text, before it is parsed or cut.
    const body = parseBody(redact(text, secrets));
    const words = serviceMessage(body, secrets);
    const requestId = requestIdOf(body, header, secrets);
    return {
      ok: false,
      ...(count === undefined ? {} : { count }),
      outcome: { kind: "status", status: res.statusCode },
      failure: isUnservedRoute(conn, res.statusCode, header, text)
        ? new RouteNotServedError(ref, words, requestId, unservedRouteAdvice(conn))
        : new ApiError(ref, res.statusCode, words, requestId, authAdvice(conn, res.statusCode)),
      requested: serverRequestedDelayMs(header, Date.now()),
    };
  } catch (err) {
    const code = errorCode(err);
    const secrets = secretsOf(conn, req);
    // Our abort reason is quoted without its code; the TransportError says its own.
    const words = AlertpipeError.detailOf(err);
    const reason = err instanceof Error && words !== "" ? redact(words, secrets) : "request failed";
    // undici's error is not kept as the cause: not ours to vouch for.
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
  return failure instanceof ApiError ? `answered ${failure.status}` : `no answer (${failure.transportCode})`;
}

/** The failure in words for OutcomeUnknownError, which names the request itself. */
function outcomeReason(failure: ApiError | TransportError): string {
  if (failure instanceof ApiError) return `the service answered ${failure.status}: ${failure.serviceMessage}`;
  return `no answer came: ${failure.reason}`;
}

/**
 * Sends one API request, paced and retried. Resolves with the 2xx answer (or a retried DELETE's 404:
 * gone); rejects with ApiError, TransportError or OutcomeUnknownError.
 */
export async function send(conn: AreaConnection, req: ApiRequest): Promise<ApiResponse> {
  // paths.ts refuses such ids by name; this is the last guard.
  if (hasDotOrEmptySegment(req.path))
    throw new IdFormError(
      "request",
      "path",
      req.path,
      "it holds an empty, . or .. segment, which would address another path",
    );
  // Listings are held by the path the resource names; errors name the one sent.
  const sent = { ...req, path: gatewayPath(conn, req.path) };
  if (req.method === "GET") return sendPaced(conn, sent);
  // A write stales its collection's listings from before it is sent until it ends, whatever the outcome.
  forgetListingsUnder(conn.credentialId, req.path);
  try {
    return await sendPaced(conn, sent);
  } finally {
    forgetListingsUnder(conn.credentialId, req.path);
  }
}

async function sendPaced(conn: AreaConnection, req: ApiRequest): Promise<ApiResponse> {
  const policy = { ...runtime().retryPolicy, ...req.retryPolicy };
  const ref: RequestRef = { method: req.method, path: req.path };
  const limiter = limiterFor(conn);
  const block = blockFor(conn);
  // Every wait, queued or backing off, ends at once if the credential is blocked.
  const wait = (ms: number) => block.wait(ms, ref);
  const pacing = limiter === undefined ? "" : `${limiter.limit.requests} per ${limiter.limit.perSeconds} s`;
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  const timeoutMs = policy.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  // The budget runs from the first send: queueing behind other resources must not eat the retries.
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
    // The limiter is told when the send was written and ended; it decides when it counts.
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
    // A retried DELETE's 404: an earlier attempt did it.
    if (
      doneOnRetry(req.method, attempt, outcome) &&
      failure instanceof ApiError &&
      !(failure instanceof RouteNotServedError)
    ) {
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
    // The credential is spent, maybe by another process: hold all its callers.
    if (rateLimited) limiter?.pauseFor(requested ?? delay);
    if (rateLimited && requested !== undefined && failure instanceof ApiError && requested > policy.maxTotalMs) {
      // Minutes with nothing on the screen help no one: fail now.
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

/** A 2xx answer's body, checked; errors never echo it. */
export function decode<S extends z.ZodType>(schema: S, res: ApiResponse): z.infer<S> {
  const parsed = schema.safeParse(res.body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
  throw new UnexpectedResponseError(res, problems.join("; "), res.requestId);
}
