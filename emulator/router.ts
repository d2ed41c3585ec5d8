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
  /** HTTP status answered; 0 when the connection was cut without an answer (cutAfterCommit). */
  status: number;
  /** When the request arrived, ms since the epoch. */
  at: number;
}

export interface FaultPlan {
  /** Added before every answer (after the request was processed). */
  latencyMs?: number;
  /** Answer the next N requests 503 without processing them. */
  failNext?: number;
  /** Process and commit the next `count` matching requests, then destroy the socket without answering. */
  cutAfterCommit?: { method: string; pathPattern: RegExp; count: number };
  /** Every service is idle: pipe settings calls answer 424 `FAILED_DEPENDENCY: … Current state: idle`, as the real service. */
  servicesIdle?: boolean;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** Oldest entries are dropped beyond this, so a long-running CLI does not grow without bound. */
export const MAX_RECORDED_REQUESTS = 100_000;

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
  const path = pathOf(req.url);
  // Anything not under /v1/ is answered in area A's shape; the log needs one of the two areas.
  const area: Area = path.startsWith("/v1/") ? "cloud" : "alerting";
  const body = await readBody(req);

  let reply: Reply;
  let cut = false;
  const plan = router.faults;
  if (plan.failNext !== undefined && plan.failNext > 0) {
    plan.failNext -= 1;
    reply = errorFor(area, 503, "service temporarily unavailable (injected fault)");
  } else if (body === undefined) {
    reply = errorFor(area, 413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
  } else {
    const incoming: Incoming = {
      method,
      path,
      rawBody: body,
      authorization: req.headers.authorization,
      clientIp: unwrapMappedIpv4(req.socket.remoteAddress ?? ""),
      ...(plan.servicesIdle === true ? { servicesIdle: true } : {}),
    };
    reply = dispatch(router.services, area, incoming);
    cut = takeCut(plan, method, path);
  }

  if (plan.latencyMs !== undefined && plan.latencyMs > 0) await sleep(plan.latencyMs);
  record(router, { area, method, path, status: cut ? 0 : reply.status, at });
  if (cut) {
    req.socket.destroy();
    return;
  }
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

function takeCut(plan: FaultPlan, method: string, path: string): boolean {
  const cut = plan.cutAfterCommit;
  if (cut === undefined || cut.count <= 0 || cut.method.toUpperCase() !== method) return false;
  cut.pathPattern.lastIndex = 0; // a /g or /y pattern would otherwise remember the previous match
  if (!cut.pathPattern.test(path)) return false;
  cut.count -= 1;
  return true;
}

function record(router: RouterState, entry: RecordedRequest): void {
  router.requests.push(entry);
  if (router.requests.length > MAX_RECORDED_REQUESTS) router.requests.splice(0, router.requests.length - MAX_RECORDED_REQUESTS);
  router.onRequest?.(entry);
}

function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  return q < 0 ? raw : raw.slice(0, q);
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
