// The service's own words and requestId from an answer; scrubbed before clipped, so no part of a
// secret stays.

import { redact } from "./redact";

/** Enough of the service's words to act on, never a page. */
export const EXCERPT_CHARS = 500;

function clip(text: string, max = EXCERPT_CHARS): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** An answer's body as JSON, else as text; undefined when empty. */
export function parseBody(text: string): unknown {
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

const HTML = /^\s*<(?:!doctype|html|head|body|\?xml)|<\/(?:html|body|title|h1|p|div)>/i;

/** The title and words of an HTML page (a proxy's error page). */
function htmlText(page: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(page)?.[1]?.trim();
  const body = page
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  const words = body.replace(/\s+/g, " ").trim();
  return title !== undefined && title !== "" && !words.startsWith(title) ? `${title}: ${words}` : words;
}

const WORD_MEMBERS = ["error", "message", "detail", "error_description", "title", "msg", "reason", "description"];
const LIST_MEMBERS = ["errors", "issues", "details", "validationErrors"];
const WHERE_MEMBERS = ["path", "field", "property", "loc", "param", "instancePath"];

/** The service's words from an error body of any shape. */
export function serviceWordsIn(body: unknown, depth = 0): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") {
    const text = HTML.test(body) ? htmlText(body) : body;
    return text.trim() === "" ? undefined : text.replace(/\s+/g, " ").trim();
  }
  if (typeof body === "number" || typeof body === "boolean") return String(body);
  if (depth > 3) return JSON.stringify(body);
  if (Array.isArray(body)) {
    const items = body.map((item) => serviceWordsIn(item, depth + 1)).filter((w): w is string => w !== undefined);
    return items.length === 0 ? undefined : items.join("; ");
  }
  const parts: string[] = [];
  for (const name of WORD_MEMBERS) {
    const words = serviceWordsIn(field(body, name), depth + 1);
    if (words !== undefined && !parts.includes(words)) {
      parts.push(words);
      break;
    }
  }
  for (const name of LIST_MEMBERS) {
    const list = field(body, name);
    if (Array.isArray(list) && list.length > 0) {
      const words = serviceWordsIn(list, depth + 1);
      if (words !== undefined) parts.push(words);
    }
  }
  if (parts.length > 0) {
    const where = WHERE_MEMBERS.map((n) => field(body, n)).find(
      (w): w is string | unknown[] => (typeof w === "string" && w !== "") || (Array.isArray(w) && w.length > 0),
    );
    const prefix = where === undefined ? "" : `${Array.isArray(where) ? where.join(".") : where}: `;
    return prefix + parts.join(": ");
  }
  return Object.keys(body).length === 0 ? undefined : JSON.stringify(body);
}

/** The service's words for an error, scrubbed, then clipped. */
export function serviceMessage(body: unknown, secrets: readonly unknown[]): string {
  // Scrubbed again once unescaped and folded: the service may have escaped a secret.
  const words = serviceWordsIn(body);
  return words === undefined ? "the service gave no reason (the answer had no body)" : clip(redact(words, secrets));
}

/** The requestId in an answer's body or header, scrubbed, then clipped. */
export function requestIdOf(
  body: unknown,
  header: (n: string) => string | undefined,
  secrets: readonly unknown[],
): string | undefined {
  const fromBody = field(body, "requestId");
  const raw =
    typeof fromBody === "string" && fromBody !== "" ? fromBody : (header("x-request-id") ?? header("request-id"));
  return raw === undefined || raw === "" ? undefined : clip(redact(raw, secrets), 100);
}

/** A header as sent: undici reads Latin-1, most services write UTF-8. */
function asUtf8(value: string): string {
  const text = Buffer.from(value, "latin1").toString("utf8");
  return text.includes("\uFFFD") ? value : text;
}

/** Reads one header of undici's answer, its first value when repeated. */
export function headerLookup(
  headers: Record<string, string | string[] | undefined>,
): (name: string) => string | undefined {
  return (name) => {
    const v = headers[name];
    const first = Array.isArray(v) ? v[0] : v;
    return first === undefined ? undefined : asUtf8(first);
  };
}
