// Every error kind the provider raises, classes only: a stable code each, what a user needs to act,
// never a header or secret.

import type { PropertyMap } from "./protocol/properties";
import { quotedId } from "./protocol/ids";
import { formatSeconds } from "./words";
import { WAKEABLE, serviceOfPath, stateIn424 } from "./serviceFacts/services";

/**
 * Every code of our own making, with what to do on seeing it: docs/errors.md's table and every error
 * kind's code match it (test/unit/errors.test.ts).
 */
export const ERROR_CODES = {
  INVALID_INPUT:
    "A property of the program has a value the resource cannot take (the message names the property and what it accepts): nothing was sent. Correct the program.",
  CONFIG:
    "A connection setting is missing or malformed: set the stack config key or the environment variable the message names.",
  API_ERROR:
    "The service refused the request: read its words and requestId in the message, correct the program or the object, then run again.",
  NOT_FOUND:
    "An object the request names is not on the service: check the ids the program gives, or run `pulumi refresh` if it was deleted outside Pulumi.",
  CREDENTIAL_REFUSED:
    "The service refused the credential when the run first checked it (401 or 403), before any change: set the configuration keys the message names to a key or token the service takes, then run again.",
  RATE_LIMITED:
    "The service rate-limited the credential and the retries ran out: wait a minute, or set a lower `alertpipe:cloudRateLimit` or `alertpipe:alertingRateLimit`, then run again.",
  RATE_LIMIT_WAIT_TOO_LONG:
    "The service asked for a wait longer than the retry budget: run again after the time the message gives.",
  SERVICE_IDLE:
    "The service this call addresses is not running (the message names it and its state): wake or start it (for example in the cloud console; `alertpipe:wakeIdleServices` lets the provider wake an idle one), wait until it is running, then run again. Nothing was changed.",
  OUTCOME_UNKNOWN:
    "A create may have been made without Pulumi recording it: look for it on the service and delete it (or take it over with importId) before running again.",
  CREATE_AMBIGUOUS:
    "Several objects match a create whose answer was lost: delete the ones not wanted, or take one over with importId, then run again.",
  UNEXPECTED_RESPONSE:
    "A success answer had a body the provider cannot read: report it with the requestId in the message.",
  IMPORT_NOT_FOUND:
    "There is no object with the importId given, and nothing was created: correct the id, or remove importId to create one.",
  UNUSABLE_KEY_LEFT: "An API key nobody can use may be left on the service: delete the key the message names by hand.",
  TRANSPORT:
    "No answer came after the retries (connection refused, reset, timeout; the message names the socket's or undici's code, e.g. ECONNREFUSED): check the URL, the network and the service, then run again.",
  ATTEMPT_TIMEOUT:
    "An attempt got no complete answer in time (said in a TRANSPORT error, as its transportCode): check the network and the service's health.",
  KEPT_AFTER_FAILURE:
    "The object was made and is kept in the stack, but what followed failed: do what the message says (e.g. replace it).",
  IMPORT_ID_ON_REPLACE:
    "A change replaces an object the program still takes over with importId: remove importId from the program, then run again.",
  IMPORT_ID_FORM:
    "The import id does not have the form the message shows: give every part, separated by /, each of the form it names.",
  ID_FORM:
    "An id the request would put in its path is empty, `.` or `..`, holds a `/`, is far too long or is not of its kind's form (a uuid): nothing was sent. Correct the id in the program or the stack's state.",
  UNKNOWN_RESOURCE_TYPE:
    "The native plugin does not serve that resource type: check the type token and the plugin's version.",
  LOOKUP_ARGUMENT:
    "A lookup function (getAlert, getApiKey, …) was given an argument it cannot use, named in the message: nothing was sent. Correct the argument.",
  LOOKUP_NOT_FOUND:
    "A lookup function found nothing matching what it was asked for (the message names the id or name, and where it looked): check it, or create the object first.",
  LOOKUP_AMBIGUOUS:
    "A lookup by name found several objects with that name (the message lists their ids): look the one wanted up by its id.",
  UNKNOWN_FUNCTION:
    "The native plugin has no function of that token: check the token (alertpipe:index:getAlert, …) and the plugin's version.",
  STILL_REFERENCED:
    "A webhook or saved search is not deleted because alerts outside this stack still use it: reassign or delete the alerts the message names, then run again.",
  TILE_NOT_ALERTABLE:
    "A tile alert names a tile its dashboard does not have, or one whose chart takes no alert (only line, stacked_bar and number tiles do): the message names the dashboard, the name or id given and the tiles that take alerts; the alert was not sent. Name one of those tiles.",
  PIPE_STATE:
    "A ClickPipe did not reach the state its command or change asks for: it went Failed or InternalError, or the wait ran past stateTimeoutSeconds (the message names its state). Look at the pipe in the console, then run again.",
  INTERNAL:
    "Something failed that the provider does not expect (a bug of ours, or a library's error): the message keeps its words. Report it with them and the step that failed.",
  USAGE:
    "The `alertpipe` command was given a command, flag or value it cannot use (the message names it): nothing was sent, and it exits 2. Correct the command line; `alertpipe export --help` lists what it takes.",
} as const satisfies Record<string, string>;

/** The codes of our own making, to branch on. */
export type AlertpipeErrorCode = keyof typeof ERROR_CODES;

/** What to do on a TransportError: ERROR_CODES.TRANSPORT, kept by its earlier name for importers. */
export const TRANSPORT_CODES_ADVICE = ERROR_CODES.TRANSPORT;

/**
 * `code` is stable across versions. The message starts with `[CODE]` because the engine prints only
 * the message; said here once, so no kind can leave it out.
 */
export abstract class AlertpipeError<C extends string = string> extends Error {
  readonly code: C;
  /** The message without its code, for quoting. */
  readonly detail: string;

  protected constructor(code: C, detail: string, options?: ErrorOptions) {
    super(`[${code}] ${detail}`, options);
    this.code = code;
    this.detail = detail;
  }

  /** An error's words for quoting, so each message shows one code. */
  static detailOf(err: unknown): string {
    if (err instanceof AlertpipeError) return err.detail;
    return err instanceof Error ? err.message : String(err);
  }
}

export interface RequestRef {
  readonly method: string;
  /** Path only, no origin, no query secrets. */
  readonly path: string;
}

/** What an ApiError means for the user, stable across versions. */
export type ApiErrorCode = "SERVICE_IDLE" | "RATE_LIMITED" | "NOT_FOUND" | "API_ERROR";

/** A service not running: nothing changed, no plain retry helps (http/idleService.ts wakes an idle one). */
const SERVICE_IDLE_STATUS = 424;

function codeOf(status: number): ApiErrorCode {
  if (status === SERVICE_IDLE_STATUS) return "SERVICE_IDLE";
  if (status === 429) return "RATE_LIMITED";
  if (status === 404) return "NOT_FOUND";
  return "API_ERROR";
}

/** A 424's advice: which service, in which state, and what to do about it. */
export function serviceIdleAdvice(path: string, serviceMessage: string): string {
  const service = serviceOfPath(path);
  const state = stateIn424(serviceMessage);
  const which = service === undefined ? "The service" : `Service ${quotedId(service.serviceId)}`;
  const todo =
    state === WAKEABLE
      ? "wake it (the cloud console, or any query), or set alertpipe:wakeIdleServices to true so the provider wakes it and retries"
      : state === undefined
        ? "start it (for example in the cloud console) and wait until it is running"
        : state === "stopped"
          ? "start it (for example in the cloud console; the provider never starts a stopped service)"
          : "wait until it is running";
  return ` ${which} is ${state ?? "not running"}: ${todo}, then run again. Nothing was changed.`;
}

/** An error of the HTTP layer, naming the request and the answer. */
export abstract class HttpError<C extends string = string> extends AlertpipeError<C> {
  readonly method: string;
  readonly path: string;
  /** The status of the answer behind the error, when there was one. */
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  protected constructor(
    ref: RequestRef,
    code: C,
    message: string,
    fields: { status?: number; requestId?: string | undefined; cause?: unknown },
  ) {
    super(code, message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = "HttpError";
    this.method = ref.method;
    this.path = ref.path;
    this.status = fields.status;
    this.requestId = fields.requestId;
  }

  /** The status and requestId behind `err`, when it is one of ours. */
  static answerOf(err: unknown): { status?: number; requestId?: string } {
    if (!(err instanceof HttpError)) return {};
    return {
      ...(err.status === undefined ? {} : { status: err.status }),
      ...(err.requestId === undefined ? {} : { requestId: err.requestId }),
    };
  }
}

/** The fields of an error wrapping `cause`, its answer's included. */
function carriedFrom(cause: unknown): { status?: number; requestId?: string | undefined; cause?: unknown } {
  return { ...HttpError.answerOf(cause), cause };
}

/** The service answered with a non-2xx status. */
export class ApiError extends HttpError<ApiErrorCode> {
  declare readonly status: number;
  readonly serviceMessage: string;

  /** `advice`: what to do, when the caller knows more than the status (a 401's credential). */
  constructor(
    ref: RequestRef,
    status: number,
    serviceMessage: string,
    requestId: string | undefined,
    advice: string | undefined = codeOf(status) === "SERVICE_IDLE"
      ? serviceIdleAdvice(ref.path, serviceMessage)
      : undefined,
  ) {
    const rid = requestId ? ` (requestId ${requestId})` : "";
    const code = codeOf(status);
    super(
      ref,
      code,
      `${ref.method} ${ref.path} failed with status ${status}: ${serviceMessage}${rid}${advice === undefined ? "" : `.${advice}`}`,
      {
        status,
        requestId,
      },
    );
    this.name = "ApiError";
    this.serviceMessage = serviceMessage;
  }
}

/** An idle service was sent its `awake` command but did not run in time, or went another way. */
export class ServiceNotAwakeError extends HttpError<"SERVICE_IDLE"> {
  constructor(ref: RequestRef, serviceId: string, state: string, waitedMs: number, cause: ApiError) {
    super(
      ref,
      "SERVICE_IDLE",
      `${cause.detail.replace(/\.$/, "")}; sent its awake command (alertpipe:wakeIdleServices), but after ` +
        `${formatSeconds(waitedMs)} service ${quotedId(serviceId)} is ${state}, not running: ` +
        "look at it in the cloud console, then run again. The call was not sent again.",
      { ...HttpError.answerOf(cause), cause },
    );
    this.name = "ServiceNotAwakeError";
  }
}

/** A gateway's HTML 404: a route it does not serve, never "the object is gone" (provider/http/gone.ts). */
export class RouteNotServedError extends ApiError {
  constructor(ref: RequestRef, serviceMessage: string, requestId: string | undefined, advice: string) {
    super(ref, 404, serviceMessage, requestId, advice);
    this.name = "RouteNotServedError";
  }
}

/** A 429 asked for a wait beyond the retry budget: the credential's requests fail now. */
export class RateLimitWaitError extends HttpError<"RATE_LIMIT_WAIT_TOO_LONG"> {
  /** The wait the service asked for, in ms. */
  readonly waitMs: number;
  /** When the service will take requests again (wall clock). */
  readonly resumesAt: Date;

  constructor(ref: RequestRef, waitMs: number, budgetMs: number, resumesAt: Date, drawnBy: ApiError | undefined) {
    const asked = `the service asked this credential to wait ${formatSeconds(waitMs)} (until ${resumesAt.toISOString()})`;
    const lead =
      drawnBy !== undefined
        ? `${drawnBy.detail.replace(/\.$/, "")}; ${asked}`
        : `${ref.method} ${ref.path} was not sent: after a 429, ${asked}`;
    super(
      ref,
      "RATE_LIMIT_WAIT_TOO_LONG",
      `${lead}, longer than the ${formatSeconds(budgetMs)} retry budget, so it is not retried and every request of this credential waiting behind it stops too. ` +
        `Run again after ${resumesAt.toISOString()}.`,
      carriedFrom(drawnBy),
    );
    this.name = "RateLimitWaitError";
    this.waitMs = waitMs;
    this.resumesAt = resumesAt;
  }
}

/** No answer could be had after the allowed retries. */
export class TransportError extends HttpError<"TRANSPORT"> {
  /** The socket's or undici's code, e.g. ECONNREFUSED (our own: NOT_HTTP, ATTEMPT_TIMEOUT). */
  readonly transportCode: string;
  /** Why no answer came, so nobody parses the message for it. */
  readonly reason: string;

  constructor(ref: RequestRef, reason: string, transportCode: string, options?: { cause?: unknown }) {
    super(ref, "TRANSPORT", `${ref.method} ${ref.path} got no answer: ${reason}`, { cause: options?.cause });
    this.name = "TransportError";
    this.transportCode = transportCode;
    this.reason = reason;
  }
}

/** A create's answer was lost: a blind retry could duplicate it. */
export class OutcomeUnknownError extends HttpError<"OUTCOME_UNKNOWN"> {
  readonly what: string;
  /** Why the outcome is open, without the advice around it. */
  readonly reason: string;

  constructor(
    ref: RequestRef,
    what: string,
    reason: string,
    options?: { cause?: unknown; status?: number; requestId?: string },
  ) {
    const rid = options?.requestId && !reason.includes(options.requestId) ? ` (requestId ${options.requestId})` : "";
    super(
      ref,
      "OUTCOME_UNKNOWN",
      `${ref.method} ${ref.path}: ${reason.replace(/\.+$/, "")}${rid}. The request may have been processed, so ${what} may have been created ` +
        `on the service even though Pulumi did not record it. Check for it before running again, and delete it if it is there.`,
      // The status of the answer that left the outcome open, if any.
      { status: options?.status, requestId: options?.requestId, cause: options?.cause },
    );
    this.name = "OutcomeUnknownError";
    this.what = what;
    this.reason = reason.replace(/\.+$/, "");
  }
}

/** A lost create matches several objects: the user picks; nothing recorded. */
export class AmbiguousCreateError extends HttpError<"CREATE_AMBIGUOUS"> {
  /** The ids of the objects that match, in the service's order. */
  readonly candidates: readonly string[];

  constructor(lost: OutcomeUnknownError, candidates: readonly string[]) {
    super(
      lost,
      "CREATE_AMBIGUOUS",
      `${lost.method} ${lost.path}: ${lost.reason}, and ${candidates.length} objects on the service match what it sent (${candidates.join(", ")}), ` +
        `so which of them it made, if any, cannot be told. Nothing was recorded in the stack. Delete the ones that are not wanted, ` +
        `or take one over with importId, then run again.`,
      carriedFrom(lost),
    );
    this.name = "AmbiguousCreateError";
    this.candidates = candidates;
  }
}

/** A 2xx answer whose body is not what the spec describes. */
export class UnexpectedResponseError extends HttpError<"UNEXPECTED_RESPONSE"> {
  /** What is wrong with the body, in words, without the body itself. */
  readonly problem: string;

  constructor(ref: RequestRef, problem: string, requestId: string | undefined) {
    const rid = requestId ? ` (requestId ${requestId})` : "";
    super(ref, "UNEXPECTED_RESPONSE", `${ref.method} ${ref.path} answered with an unexpected body: ${problem}${rid}`, {
      requestId,
    });
    this.name = "UnexpectedResponseError";
    this.problem = problem;
  }
}

/** The object to take over does not exist; not a 404, so the user knows nothing was made. */
export class ImportNotFoundError extends HttpError<"IMPORT_NOT_FOUND"> {
  /** The id the program gave as importId. */
  readonly importId: string;

  /** `notFound`: the GET's 404, or a list without the id (webhooks have no GET). */
  constructor(notFound: ApiError | RequestRef, what: string, importId: string) {
    const answered = notFound instanceof ApiError ? "answered 404" : "does not list it";
    super(
      notFound,
      "IMPORT_NOT_FOUND",
      `importId "${importId}": ${notFound.method} ${notFound.path} ${answered}, so there is no ${what} with that id to take over. ` +
        `Nothing was created. Correct the id, or remove importId to create a new one.`,
      notFound instanceof ApiError ? carriedFrom(notFound) : {},
    );
    this.name = "ImportNotFoundError";
    this.importId = importId;
  }
}

/** A key made unusable by a lost answer could not be deleted: only the user can, by its name. */
export class UnusableKeyLeftError extends HttpError<"UNUSABLE_KEY_LEFT"> {
  /** The uuid of the key that may be left. */
  readonly keyUuid: string;

  constructor(ref: RequestRef, keyUuid: string, cause: unknown) {
    const why = AlertpipeError.detailOf(cause);
    super(
      ref,
      "UNUSABLE_KEY_LEFT",
      `${why.replace(/\.$/, "")}. The API key ${keyUuid} was made by a create whose answer, with the key's secret, was lost, so nobody can use it; ` +
        `deleting it did not succeed. If it is still there, delete it (in the console, or DELETE ${ref.path}). Nothing was recorded in the stack: ` +
        `the next run creates the key afresh.`,
      carriedFrom(cause),
    );
    this.name = "UnusableKeyLeftError";
    this.keyUuid = keyUuid;
  }
}

/** A delete refused because alerts use the object; names them, as the service does not. */
export class StillReferencedError extends HttpError<"STILL_REFERENCED"> {
  /** The alerts found using the object, as "name (id)" or "id". */
  readonly alerts: readonly string[];

  /** `users`: what uses it, when not alerts: e.g. `{ counted: "source(s)", those: "sources" }`. */
  constructor(
    ref: RequestRef,
    what: string,
    alerts: readonly string[],
    cause?: unknown,
    users: { readonly counted: string; readonly those: string } = { counted: "alert(s)", those: "alerts" },
  ) {
    const words = cause === undefined ? "" : ` (${AlertpipeError.detailOf(cause)})`;
    super(
      ref,
      "STILL_REFERENCED",
      `${ref.method} ${ref.path}: the ${what} is not deleted, because ${alerts.length} ${users.counted} outside this stack still use it: ` +
        `${alerts.join(", ")}${words}. Reassign or delete those ${users.those}, then run again.`,
      cause === undefined ? {} : carriedFrom(cause),
    );
    this.name = "StillReferencedError";
    this.alerts = alerts;
  }
}

/** A ClickPipe's wait ended without the state asked for: it broke, or time ran out. Never retried. */
export class PipeStateError extends AlertpipeError<"PIPE_STATE"> {
  constructor(
    readonly pipe: string,
    readonly state: string | undefined,
    waitingFor: string,
    problem: "broke" | "timeout",
  ) {
    super(
      "PIPE_STATE",
      problem === "broke"
        ? `${pipe} is ${String(state)} while waiting for ${waitingFor}: look at it in the console (its errors table), then run again`
        : `${pipe} is still ${String(state)} after the wait for ${waitingFor} ran out (stateTimeoutSeconds): run again to keep waiting, or raise it`,
    );
    this.name = "PipeStateError";
  }
}

/** The reason an attempt was abandoned by our own clock. */
export class AttemptTimeout extends AlertpipeError<"ATTEMPT_TIMEOUT"> {
  constructor(ms: number) {
    super("ATTEMPT_TIMEOUT", `no complete answer within ${ms} ms`);
    this.name = "AttemptTimeout";
  }
}

/** A credential refused by its first read of the run (http/credentials.ts); the answer's advice names its keys. */
export class CredentialRefusedError extends AlertpipeError<"CREDENTIAL_REFUSED"> {
  constructor(cause: ApiError) {
    super(
      "CREDENTIAL_REFUSED",
      `the credential was checked before any change, and refused: ${AlertpipeError.detailOf(cause)}`,
      { cause },
    );
    this.name = "CredentialRefusedError";
  }
}

/** A missing or malformed connection setting; never repeats the value. */
export class ConfigError extends AlertpipeError<"CONFIG"> {
  constructor(
    /** A name of CONNECTION_SETTINGS (runtime/connection.ts). */
    readonly setting: string,
    /** The setting's row of CONNECTION_SETTINGS. */
    s: { readonly configKey: string; readonly envVar: string; readonly description: string },
    problem: string,
  ) {
    super(
      "CONFIG",
      `${problem}: set the stack config "${s.configKey}" or the environment variable ${s.envVar} (${s.description})`,
    );
    this.name = "ConfigError";
  }
}

/** An error after the object exists: the host keeps it in state (ErrorResourceInitFailed). */
export class PartialFailure extends AlertpipeError<"KEPT_AFTER_FAILURE"> {
  constructor(
    readonly id: string,
    readonly properties: PropertyMap,
    cause: Error,
  ) {
    super("KEPT_AFTER_FAILURE", AlertpipeError.detailOf(cause), { cause });
    this.name = "PartialFailure";
  }

  get reasons(): string[] {
    return [this.message];
  }
}

/** A replace under importId would adopt the same object, then delete it; raised in preview. */
export class ImportIdOnReplaceError extends AlertpipeError<"IMPORT_ID_ON_REPLACE"> {
  constructor(what: string, id: string, replacedBy: readonly string[]) {
    super(
      "IMPORT_ID_ON_REPLACE",
      `importId is still set on this ${what} (${id}), and the change to ${replacedBy.join(", ")} replaces it: the replacement would take over ${id} again ` +
        `and the delete of the replaced ${what} would then remove it, leaving none. Remove importId from the program (it did its work at the take-over, ` +
        `and removing it is no change), then run again.`,
    );
    this.name = "ImportIdOnReplaceError";
  }
}

/** A tile alert on a tile that is not there or takes no alert; raised before the alert is sent. */
export class TileNotAlertableError extends AlertpipeError<"TILE_NOT_ALERTABLE"> {
  constructor(problem: string) {
    super("TILE_NOT_ALERTABLE", `${problem}. Nothing was sent for the alert.`);
    this.name = "TileNotAlertableError";
  }
}

/** An import id not of its kind's form, e.g. `<organizationId>/<id>`. */
export class ImportIdFormError extends AlertpipeError<"IMPORT_ID_FORM"> {
  /** The import id as given, whole (the message shortens a long one). */
  readonly id: string;

  constructor(what: string, id: string, form: readonly string[], problem?: string) {
    super(
      "IMPORT_ID_FORM",
      `cannot import the ${what} ${quotedId(id)}: its import id is ${form.map((part) => `<${part}>`).join("/")}, each part non-empty` +
        (problem === undefined ? "" : `, and ${problem}`),
    );
    this.name = "ImportIdFormError";
    this.id = id;
  }
}

/** An id that cannot be a path segment; raised before any send. */
export class IdFormError extends AlertpipeError<"ID_FORM"> {
  /** The id as given, whole (the message shortens a long one). */
  readonly id: string;
  /** Which id of the path, e.g. "organizationId". */
  readonly part: string;

  constructor(what: string, part: string, id: string, problem: string) {
    super(
      "ID_FORM",
      `the ${what}'s ${part} ${quotedId(id)} cannot be put in a request path: ${problem}. Nothing was sent; correct the id ` +
        `(in the program, or in the stack's state with \`pulumi state delete\` and an import).`,
    );
    this.name = "IdFormError";
    this.id = id;
    this.part = part;
  }
}

/** A resource type token the native plugin does not serve. */
export class UnknownResourceTypeError extends AlertpipeError<"UNKNOWN_RESOURCE_TYPE"> {
  constructor(
    packageName: string,
    readonly type: string,
    served: readonly string[],
  ) {
    super(
      "UNKNOWN_RESOURCE_TYPE",
      `the ${packageName} provider has no resource type "${type}"; it serves ${served.join(", ")}`,
    );
    this.name = "UnknownResourceTypeError";
  }
}

/** A lookup argument it cannot use; raised before any request. */
export class LookupArgumentError extends AlertpipeError<"LOOKUP_ARGUMENT"> {
  constructor(
    readonly lookup: string,
    readonly argument: string,
    problem: string,
  ) {
    super("LOOKUP_ARGUMENT", `${lookup}: ${argument} ${problem}. Nothing was sent.`);
    this.name = "LookupArgumentError";
  }
}

/** A lookup found nothing. */
export class LookupNotFoundError extends AlertpipeError<"LOOKUP_NOT_FOUND"> {
  constructor(
    readonly lookup: string,
    what: string,
  ) {
    super("LOOKUP_NOT_FOUND", `${lookup}: ${what}`);
    this.name = "LookupNotFoundError";
  }
}

/** A lookup by name found several: their ids, to look one up by. */
export class LookupAmbiguousError extends AlertpipeError<"LOOKUP_AMBIGUOUS"> {
  constructor(
    readonly lookup: string,
    what: string,
    readonly ids: readonly string[],
  ) {
    super("LOOKUP_AMBIGUOUS", `${lookup}: ${what}: ${ids.join(", ")}; look the one wanted up by its id`);
    this.name = "LookupAmbiguousError";
  }
}

/** An Invoke of a function token the native plugin does not serve. */
export class UnknownFunctionError extends AlertpipeError<"UNKNOWN_FUNCTION"> {
  constructor(
    packageName: string,
    readonly token: string,
    served: readonly string[],
  ) {
    super("UNKNOWN_FUNCTION", `the ${packageName} provider has no function "${token}"; it serves ${served.join(", ")}`);
    this.name = "UnknownFunctionError";
  }
}

/** An error not of our making reaching a front door: its words kept, behind a code like every other. */
export class InternalError extends AlertpipeError<"INTERNAL"> {
  constructor(cause: unknown) {
    super("INTERNAL", cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "InternalError";
  }

  /** `err` itself when it is ours, else wrapped. */
  static of(err: unknown): AlertpipeError {
    return err instanceof AlertpipeError ? (err as AlertpipeError) : new InternalError(err);
  }
}

/** A command line `alertpipe` cannot run: it exits 2, sending nothing. */
export class UsageError extends AlertpipeError<"USAGE"> {
  constructor(problem: string) {
    super("USAGE", problem);
    this.name = "UsageError";
  }
}
