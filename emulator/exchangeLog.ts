// Every exchange the emulator answers, appended as one JSON line to a file: the test suite's record
// of what the provider sent and what the emulator answered, which `npm run test:openapi` validates
// against the services' own API descriptions. Turned on by `exchangeLog` or ALERTPIPE_EXCHANGE_LOG
// (so emulators in child processes write to the same file). No credential is written: the
// Authorization header is reduced to its scheme and a key secret in an answer to a placeholder.

import { appendFileSync } from "node:fs";
import type { Reply } from "./replies";

/** The environment variable naming the file, read when an emulator starts. */
export const EXCHANGE_LOG_ENV = "ALERTPIPE_EXCHANGE_LOG";
/** Set around each test by the suite (test/support/exchangeTag.ts): which test sent the request. */
export const EXCHANGE_TAG_ENV = "ALERTPIPE_EXCHANGE_TAG";
/** A request a test sends wrong on purpose carries this header, which leaves it out of request validation. */
export const DELIBERATE_HEADER = "x-alertpipe-deliberate";

export interface LoggedExchange {
  /** ms since the epoch, when the request arrived. */
  at: number;
  /** Which dialect each area spoke when it answered. */
  dialects: { alerting: string; cloud: string };
  /** The test that was running (ALERTPIPE_EXCHANGE_TAG), when the suite said. */
  tag?: string;
  /** The injected fault that took the request; its answer is the fault's, not the service's. */
  fault?: string;
  request: {
    method: string;
    path: string;
    query: [string, string][];
    headers: { authorization?: string; contentType?: string; deliberate?: string };
    /** The body parsed as JSON, or `text` when it is not JSON; neither when empty. */
    body?: unknown;
    text?: string;
  };
  /** Absent when no answer was sent (the connection was cut). */
  answer?: { status: number; headers: Record<string, string>; body?: unknown; text?: string };
}

export type ExchangeWriter = (exchange: LoggedExchange) => void;

/** A writer appending to `file`, or undefined when no file is named. */
export function exchangeWriter(file: string | undefined): ExchangeWriter | undefined {
  if (file === undefined || file === "") return undefined;
  return (exchange) => {
    // One write per line with O_APPEND: lines of emulators in several processes do not interleave.
    appendFileSync(file, `${JSON.stringify(exchange)}\n`);
  };
}

export function loggedRequestBody(raw: string): { body?: unknown; text?: string } {
  if (raw === "") return {};
  try {
    return { body: JSON.parse(raw) as unknown };
  } catch {
    return { text: raw };
  }
}

export function loggedAnswer(reply: Reply): NonNullable<LoggedExchange["answer"]> {
  const headers: Record<string, string> = { "content-type": reply.text ?? "application/json" };
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  return reply.text !== undefined
    ? { status: reply.status, headers, text: String(reply.body) }
    : { status: reply.status, headers, body: withoutSecrets(reply.body) };
}

/** The scheme of an Authorization header (`Bearer`, `Basic`), never its credential. */
export function authorizationScheme(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const scheme = header.trim().split(/\s+/)[0] ?? "";
  return /^(bearer|basic)$/i.test(scheme) ? scheme : "other";
}

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    copy[key] = key === "keySecret" && typeof member === "string" ? "(secret)" : withoutSecrets(member);
  }
  return copy;
}
