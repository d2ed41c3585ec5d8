// The HTTP edge: reads a request, applies the fault plan, hands it to an area, records it, answers.
// Nothing here logs a body or a header; the request log keeps method, path and status only.

import type { IncomingMessage, ServerResponse } from "node:http";
import { handleAlerting } from "./alerting";
import { handleCloud } from "./cloud";
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
  /** When the request arrived, ms since the epoch. */
  at: number;
}

export interface FaultPlan {
  /** Added before every answer (after the request was processed). */
  latencyMs?: number;
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
}

/** Which requests a fault takes: the method, a pattern tested on the path (no query), and how many more. */
export interface AfterCommitFault {
  method: string;
  pathPattern: RegExp;
  count: number;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** Oldest entries are dropped beyond this, so a long-running CLI does not grow without bound. */
const MAX_RECORDED_REQUESTS = 100_000;

export interface RouterState {
  readonly services: Services;
  readonly requests: RecordedRequest[];
  faults: FaultPlan;
  readonly onRequest?: (request: RecordedRequest) => void;
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
  let after: AfterCommit | undefined;
  const plan = router.faults;
  if (plan.failNext !== undefined && plan.failNext > 0) {
    plan.failNext -= 1;
    reply = errorFor(area, 503, "service temporarily unavailable (injected fault)");
  } else if (takes(plan.failBeforeCommit, method, path)) {
    reply = errorFor(area, 503, "service temporarily unavailable (injected fault before processing)");
  } else if (body === undefined) {
    reply = errorFor(area, 413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
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
    after = takeAfterCommit(plan, method, path);
  }

  if (plan.latencyMs !== undefined && plan.latencyMs > 0) await sleep(plan.latencyMs);
  if (after?.kind === "cut") {
    record(router, { area, method, path, status: 0, at });
    req.socket.destroy();
    return;
  }
  if (after?.kind === "fail") reply = errorFor(area, 500, "internal server error (injected fault after commit)");
  if (after?.kind === "delay" && !(await holdUnlessClosed(res, after.ms))) {
    // The client gave up during the hold: nothing can be answered any more.
    record(router, { area, method, path, status: 0, at });
    return;
  }
  record(router, { area, method, path, status: reply.status, at });
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(payload),
    ...reply.headers,
  });
  res.end(payload);
}

function dispatch(services: Services, area: Area, req: Incoming): Reply {
  try {
    return area === "cloud" ? handleCloud(services, req) : handleAlerting(services, req);
  } catch {
    // A bug or a failed data-file write: answer in the area's shape without internals.
    return errorFor(area, 500, "internal emulator error");
  }
}

type AfterCommit = { kind: "cut" } | { kind: "fail" } | { kind: "delay"; ms: number };

/** At most one fault after commit takes a request, the first matching of cut, fail, delay; only that one is counted down. */
function takeAfterCommit(plan: FaultPlan, method: string, path: string): AfterCommit | undefined {
  if (takes(plan.cutAfterCommit, method, path)) return { kind: "cut" };
  if (takes(plan.failAfterCommit, method, path)) return { kind: "fail" };
  const delay = plan.delayAfterCommit;
  if (delay !== undefined && takes(delay, method, path)) return { kind: "delay", ms: delay.ms };
  return undefined;
}

function takes(fault: AfterCommitFault | undefined, method: string, path: string): boolean {
  if (fault === undefined || fault.count <= 0 || fault.method.toUpperCase() !== method) return false;
  fault.pathPattern.lastIndex = 0; // a /g or /y pattern would otherwise remember the previous match
  if (!fault.pathPattern.test(path)) return false;
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
