// What a handler hands back, and the two error shapes: area A answers `{message}`, area B answers
// `{status, error, requestId}` and wraps successes in `{requestId, status, result}`.

import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import type { FixedWindowLimiter } from "./limits";
import type { EmulatorState } from "./store";
import type { CloudDialect } from "../provider/serviceFacts/cloudDialects";

export type Area = "alerting" | "cloud";

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The body is a string sent as this type, not JSON (the real alerting service's 401 and 429). */
  text?: "text/plain" | "text/html";
}

/** One request as the handlers see it: everything already read, nothing of the socket. */
export interface Incoming {
  method: string;
  /** Path without the query string. */
  path: string;
  /** The query string's parameters; only the list routes read them, every other route ignores them. */
  query: URLSearchParams;
  rawBody: string;
  authorization: string | undefined;
  /** Client address as IPv4 dotted quad when it is one (IPv4-mapped IPv6 is unwrapped). */
  clientIp: string;
  /** The fault plan says the services are idle: settings calls answer 424. */
  servicesIdle?: boolean;
}

export function alertingError(status: number, message: string, headers?: Record<string, string>): Reply {
  return { status, body: { message }, ...(headers ? { headers } : {}) };
}

export function cloudError(status: number, error: string, headers?: Record<string, string>): Reply {
  return { status, body: { status, error, requestId: randomUUID() }, ...(headers ? { headers } : {}) };
}

/** ClickHouse Cloud's gateway's page for a route it does not serve: HTML, never the cloud API's JSON. */
export function gatewayNotFound(req: Incoming): Reply {
  const page = `<!DOCTYPE html>\n<html>\n<head><title>404 Not Found</title></head>\n<body>\n<h1>404 Not Found</h1>\n<p>No route for ${req.method} ${encodeURI(req.path)}</p>\n</body>\n</html>\n`;
  return { status: 404, body: page, text: "text/html" };
}

export function cloudOk(result: unknown): Reply {
  return { status: 200, body: { requestId: randomUUID(), status: 200, result } };
}

export function errorFor(area: Area, status: number, message: string, headers?: Record<string, string>): Reply {
  return area === "alerting" ? alertingError(status, message, headers) : cloudError(status, message, headers);
}

type JsonBody = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJson(raw: string): JsonBody {
  if (raw.trim() === "") return { ok: false, message: "the request body is empty; send a JSON object" };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false, message: "the request body is not valid JSON" };
  }
}

/** The request's JSON body checked by `schema`, or the alerting service's 400 in its words. */
export function alertingBody<S extends z.ZodType>(
  req: Incoming,
  schema: S,
): { ok: true; value: z.output<S> } | { ok: false; reply: Reply } {
  const json = parseJson(req.rawBody);
  if (!json.ok) return { ok: false, reply: alertingError(400, json.message) };
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) {
    const words = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    return { ok: false, reply: alertingError(400, `Body validation failed: ${words}`) };
  }
  return { ok: true, value: parsed.data };
}

/** Constant-time string comparison (hashing first makes the lengths equal), so a wrong guess leaks no prefix. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

export function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Like Date#toISOString but never earlier than `after` + 1 ms, so an update always moves a timestamp forward. */
export function isoNow(after?: string): string {
  const floor = after === undefined ? 0 : Date.parse(after) + 1;
  return new Date(Math.max(Date.now(), floor)).toISOString();
}

/** What the handlers share with the server: the state, how to persist it, the bootstrap credentials, the limiters. */
export interface Services {
  readonly state: EmulatorState;
  /** Call after every change; writes the data file when there is one. */
  readonly persist: () => void;
  readonly token: string;
  readonly keyId: string;
  readonly keySecret: string;
  readonly limiters: Readonly<Record<Area, FixedWindowLimiter>>;
  /** Which alerting service area A speaks: the contract's, or HyperDX's as it answers in 2026 (index.ts). */
  readonly mode: EmulatorMode;
  /** Which cloud management API area B speaks: the contract's, or ClickHouse Cloud's with managed ClickStack (index.ts). */
  readonly cloudDialect: CloudDialect;
  /** Whether an alert's channel may be an email channel: managed ClickStack's handlers alone (clickstack.ts). */
  readonly emailChannels?: boolean;
  /** Whether a source stores `filterSettings`: managed ClickStack's handlers alone (clickstack.ts). */
  readonly managedSources?: boolean;
}

export type EmulatorMode = "contract" | "2026";
