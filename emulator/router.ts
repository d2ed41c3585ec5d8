// The HTTP edge: reads a request, applies the fault plan, hands it to an area, records it, answers.
// The request log keeps method, path and status only; the exchange log (exchangeLog.ts), when on,
// the bodies and the headers that matter, credentials left out.

import type { IncomingMessage, ServerResponse } from "node:http";
import { handleAlerting } from "./alerting";
import { handleCloud } from "./cloud";
import { handleClickStack, isClickStackPath } from "./clickstack";
import {
  DELIBERATE_HEADER,
  EXCHANGE_TAG_ENV,
  authorizationScheme,
  loggedAnswer,
  loggedRequestBody,
  type ExchangeWriter,
  type LoggedExchange,
} from "./exchangeLog";
import { errorFor, type Area, type Incoming, type Reply, type Services } from "./replies";

export interface RecordedRequest {
  area: Area;
  method: string;
  path: string;
  /**
   * HTTP status answered (failAfterCommit's 500, not the status the processing reached); 0 when no
   * answer was sent: the connection was cut (cutAfterCommit) or the client hung up during a delayAfterCommit hold.
   */
  status: number;
  /** The query as sent, without its "?"; absent when none. */
  query?: string;
  /** When the request arrived, ms since the epoch. */
  at: number;
  /** The fault injected into this request, by the plan member that took it (a random plan's too); absent when none. */
  fault?: "failNext" | FaultKind;
}

export interface FaultPlan {
  /** Added before every answer (after the request was processed). */
  latencyMs?: number;
  /** `latencyMs` for writes (POST, PUT, PATCH, DELETE) alone: reads are answered at once. */
  latencyWritesOnly?: boolean;
  /** Answer the next N requests 503 without processing them. */
  failNext?: number;
  /** Answer the next `count` matching requests 503 without processing them (a failNext for some requests only). */
  failBeforeCommit?: AfterCommitFault;
  /** Process and commit the next `count` matching requests, then destroy the socket without answering. */
  cutAfterCommit?: AfterCommitFault;
  /** Process and commit the next `count` matching requests, then answer 500 in the area's error shape instead. */
  failAfterCommit?: AfterCommitFault;
  /**
   * Process and commit the next `count` matching requests, then hold the real answer `ms` milliseconds
   * (a client whose attempt times out first finds the object made). The hold ends early when the client hangs up.
   */
  delayAfterCommit?: AfterCommitFault & { ms: number };
  /** Every service is idle: pipe settings calls answer 424 `FAILED_DEPENDENCY: … Current state: idle`, as the real service. */
  servicesIdle?: boolean;
  /**
   * Each write (POST, PUT, PATCH, DELETE, both areas) not taken by a fault above takes, with
   * probability `rate`, one of `kinds`, drawn from a PRNG seeded with `seed`: the same seed and the
   * same writes in the same order give the same faults. Reads are never faulted.
   */
  random?: RandomFaults;
}

/** The four faults a write can meet, named by the fixed plan member each behaves as. */
export type FaultKind = "failBeforeCommit" | "cutAfterCommit" | "failAfterCommit" | "delayAfterCommit";
export const FAULT_KINDS: readonly FaultKind[] = [
  "failBeforeCommit",
  "cutAfterCommit",
  "failAfterCommit",
  "delayAfterCommit",
];

export interface RandomFaults {
  /** A 32-bit integer. */
  seed: number;
  /** Probability, 0 to 1, that a write is faulted. */
  rate: number;
  /** The faults drawn from, evenly; default all four. */
  kinds?: readonly FaultKind[];
  /** How long a delayAfterCommit holds the answer; default 1500 ms: late, yet within the provider's 60 s attempt timeout. */
  delayMs?: number;
  /** The writes drawn for; default every write. Others draw nothing, so the sequence depends on these alone. */
  routes?: readonly WriteRoute[];
}

/** A write route: its method and a pattern tested on the path (no query). */
export interface WriteRoute {
  method: string;
  pathPattern: RegExp;
}

export const DEFAULT_RANDOM_DELAY_MS = 1_500;

/** Which requests a fault takes: a route, and how many more. */
export interface AfterCommitFault extends WriteRoute {
  count: number;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** Oldest entries are dropped beyond this, so a long-running CLI does not grow without bound. */
const MAX_RECORDED_REQUESTS = 100_000;

export interface RouterState {
  readonly services: Services;
  readonly requests: RecordedRequest[];
  faults: FaultPlan;
  /** The random plan's PRNG, made afresh from its seed whenever a plan is set (`randomDraws`). */
  draw?: () => number;
  readonly onRequest?: (request: RecordedRequest) => void;
  readonly exchanges?: ExchangeWriter;
}

export function createListener(router: RouterState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(router, req, res).catch(() => {
      // Only a failure of the socket itself lands here; there is no one left to answer.
      res.destroy();
    });
  };
}

async function handle(router: RouterState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const at = Date.now();
  const method = (req.method ?? "GET").toUpperCase();
  const { path, query } = splitUrl(req.url);
  // Anything not under /v1/ is answered in area A's shape; the log needs one of the two areas.
  const area: Area = path.startsWith("/v1/") ? "cloud" : "alerting";
  const body = await readBody(req);

  let reply: Reply;
  let fault: Injected | undefined;
  const plan = router.faults;
  if (plan.failNext !== undefined && plan.failNext > 0) {
    plan.failNext -= 1;
    fault = { fault: "failNext", kind: "refuse" };
    reply = errorFor(area, 503, "service temporarily unavailable (injected fault)");
  } else if (takes(plan.failBeforeCommit, method, path)) {
    fault = { fault: "failBeforeCommit", kind: "refuse" };
    reply = errorFor(area, 503, "service temporarily unavailable (injected fault before processing)");
  } else if (body === undefined) {
    reply = errorFor(area, 413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
  } else if ((fault = takeAfterCommit(plan, method, path) ?? drawFault(router, method, path))?.kind === "refuse") {
    // The random plan's failBeforeCommit: refused as the fixed one, nothing processed.
    reply = errorFor(area, 503, "service temporarily unavailable (injected fault before processing)");
  } else {
    const incoming: Incoming = {
      method,
      path,
      query,
      rawBody: body,
      authorization: req.headers.authorization,
      clientIp: unwrapMappedIpv4(req.socket.remoteAddress ?? ""),
      ...(plan.servicesIdle === true ? { servicesIdle: true } : {}),
    };
    reply = dispatch(router.services, area, incoming);
  }
  const queried = query.size === 0 ? {} : { query: query.toString() };
  const faulted = { ...queried, ...(fault === undefined ? {} : { fault: fault.fault }) };
  const logExchange = (answered: Reply | undefined) =>
    router.exchanges?.(
      exchangeOf(router.services, req, { at, method, path, query, body: body ?? "" }, answered, fault),
    );

  if (plan.latencyMs !== undefined && plan.latencyMs > 0 && !(plan.latencyWritesOnly === true && method === "GET"))
    await sleep(plan.latencyMs);
  if (fault?.kind === "cut") {
    record(router, { area, method, path, status: 0, at, ...faulted });
    logExchange(undefined);
    req.socket.destroy();
    return;
  }
  if (fault?.kind === "fail") reply = errorFor(area, 500, "internal server error (injected fault after commit)");
  if (fault?.kind === "delay" && !(await holdUnlessClosed(res, fault.ms))) {
    // The client gave up during the hold: nothing can be answered any more.
    record(router, { area, method, path, status: 0, at, ...faulted });
    logExchange(undefined);
    return;
  }
  record(router, { area, method, path, status: reply.status, at, ...faulted });
  logExchange(reply);
  const payload = reply.text !== undefined ? String(reply.body) : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "Content-Type": `${reply.text ?? "application/json"}; charset=utf-8`,
    "Content-Length": Buffer.byteLength(payload),
    ...reply.headers,
  });
  res.end(payload);
}

function exchangeOf(
  services: Services,
  req: IncomingMessage,
  seen: { at: number; method: string; path: string; query: URLSearchParams; body: string },
  reply: Reply | undefined,
  fault: Injected | undefined,
): LoggedExchange {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  const authorization = authorizationScheme(header("authorization"));
  const contentType = header("content-type");
  const deliberate = header(DELIBERATE_HEADER);
  const tag = process.env[EXCHANGE_TAG_ENV];
  const cloud = services.cloudDialect;
  return {
    at: seen.at,
    dialects: { alerting: services.mode, cloud },
    ...(tag !== undefined && tag !== "" ? { tag } : {}),
    ...(fault !== undefined ? { fault: fault.fault } : {}),
    request: {
      method: seen.method,
      path: seen.path,
      query: [...seen.query.entries()],
      headers: {
        ...(authorization !== undefined ? { authorization } : {}),
        ...(contentType !== undefined ? { contentType } : {}),
        ...(deliberate !== undefined ? { deliberate } : {}),
      },
      ...loggedRequestBody(seen.body),
    },
    ...(reply !== undefined ? { answer: loggedAnswer(reply) } : {}),
  };
}

function dispatch(services: Services, area: Area, req: Incoming): Reply {
  try {
    if (area === "cloud" && services.cloudDialect === "clickhouse" && isClickStackPath(req.path))
      return handleClickStack(services, req);
    return area === "cloud" ? handleCloud(services, req) : handleAlerting(services, req);
  } catch {
    // A bug or a failed data-file write: answer in the area's shape without internals.
    return errorFor(area, 500, "internal emulator error");
  }
}

/** A fault that took the request: refused before processing, or after commit cut, failed or delayed. */
type Injected = { fault: "failNext" | FaultKind } & (
  { kind: "refuse" } | { kind: "cut" } | { kind: "fail" } | { kind: "delay"; ms: number }
);

/**
 * At most one fault after commit takes a request, the first matching of cut, fail, delay; only that
 * one is counted down. Taken before processing, which is synchronous, so nothing comes between.
 */
function takeAfterCommit(plan: FaultPlan, method: string, path: string): Injected | undefined {
  if (takes(plan.cutAfterCommit, method, path)) return { fault: "cutAfterCommit", kind: "cut" };
  if (takes(plan.failAfterCommit, method, path)) return { fault: "failAfterCommit", kind: "fail" };
  const delay = plan.delayAfterCommit;
  if (delay !== undefined && takes(delay, method, path))
    return { fault: "delayAfterCommit", kind: "delay", ms: delay.ms };
  return undefined;
}

/** Each kind of the random plan does what its fixed counterpart does. */
function injected(fault: FaultKind, plan: FaultPlan): Injected {
  switch (fault) {
    case "failBeforeCommit":
      return { fault, kind: "refuse" };
    case "cutAfterCommit":
      return { fault, kind: "cut" };
    case "failAfterCommit":
      return { fault, kind: "fail" };
    case "delayAfterCommit":
      return { fault, kind: "delay", ms: plan.random?.delayMs ?? DEFAULT_RANDOM_DELAY_MS };
  }
}

const WRITES: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The random plan's fault for this request: for a write, one draw says whether (below `rate`) and
 * a second which kind; a read (or a write outside `routes`) draws nothing, so the writes' sequence of faults depends only on the
 * seed and how many writes came before.
 */
function drawFault(router: RouterState, method: string, path: string): Injected | undefined {
  const random = router.faults.random;
  if (random === undefined || router.draw === undefined || !WRITES.has(method)) return undefined;
  if (random.routes !== undefined && !random.routes.some((r) => matches(r, method, path))) return undefined;
  if (router.draw() >= random.rate) return undefined;
  const kinds = random.kinds ?? FAULT_KINDS;
  const kind = kinds[Math.floor(router.draw() * kinds.length)];
  return kind === undefined ? undefined : injected(kind, router.faults);
}

/** The PRNG of a plan's random faults, seeded afresh; undefined without them. Throws on a plan it cannot follow. */
export function randomDraws(plan: FaultPlan): (() => number) | undefined {
  const random = plan.random;
  if (random === undefined) return undefined;
  if (!Number.isInteger(random.seed)) throw new Error(`random faults: seed must be an integer, got ${random.seed}`);
  if (!(random.rate >= 0 && random.rate <= 1))
    throw new Error(`random faults: rate must be 0 to 1, got ${random.rate}`);
  if (random.kinds !== undefined && random.kinds.length === 0)
    throw new Error("random faults: kinds must not be empty");
  return mulberry32(random.seed);
}

/** mulberry32: a tiny 32-bit PRNG, uniform on [0, 1); enough to replay a fault sequence, not for anything secret. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function matches(route: WriteRoute, method: string, path: string): boolean {
  if (route.method.toUpperCase() !== method) return false;
  route.pathPattern.lastIndex = 0; // a /g or /y pattern would otherwise remember the previous match
  return route.pathPattern.test(path);
}

function takes(fault: AfterCommitFault | undefined, method: string, path: string): boolean {
  if (fault === undefined || fault.count <= 0 || !matches(fault, method, path)) return false;
  fault.count -= 1;
  return true;
}

/**
 * Waits `ms`, or less when the connection closes first (a client that timed out, or the emulator
 * closing), so no timer outlives the request. True when the answer can still be sent.
 */
function holdUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.socket === null || res.socket.destroyed) return Promise.resolve(false);
  const socket = res.socket;
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      socket.off("close", onClose);
      resolve(!socket.destroyed);
    }, ms);
    socket.once("close", onClose);
  });
}

function record(router: RouterState, entry: RecordedRequest): void {
  router.requests.push(entry);
  if (router.requests.length > MAX_RECORDED_REQUESTS)
    router.requests.splice(0, router.requests.length - MAX_RECORDED_REQUESTS);
  router.onRequest?.(entry);
}

/** The path as sent (not decoded, so ids are matched as the client wrote them) and the parsed query. */
function splitUrl(url: string | undefined): { path: string; query: URLSearchParams } {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  return q < 0
    ? { path: raw, query: new URLSearchParams() }
    : { path: raw.slice(0, q), query: new URLSearchParams(raw.slice(q + 1)) };
}

function unwrapMappedIpv4(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}

/** The whole body as text, or undefined when it is larger than the limit (the rest is drained, not kept). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString("utf8") : undefined));
    req.on("error", reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
