// Every id the provider puts in a request's path goes through here, whatever the resource and the
// verb: an id that would move the request to another path is refused before anything is sent.
// `encodeURIComponent` leaves "." and ".." as they are, and URL parsers and servers fold such
// segments ("/alerts/.." is "/"), so a delete of an alert whose id is ".." would address the API's
// root. A "/" is encoded, but a server that decodes before routing would split on it; "\" too,
// which WHATWG URL parsers read as "/".

import { IdFormError } from "../errors";

/** How an id is known to look: the cloud API's ids are uuids; the alerting API's are opaque strings. */
export type IdForm = "uuid" | "opaque";

/** One id of a path, e.g. `{ name: "organizationId", value, form: "uuid" }`. */
export interface IdPart {
  readonly name: string;
  readonly value: string;
  readonly form: IdForm;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** No id of either service comes near this; a longer one is a mistake, and would fill an error line. */
export const MAX_ID_CHARS = 256;

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Why `value` cannot be a path segment of its form, in words; undefined when it can. */
export function idProblem(value: string, form: IdForm): string | undefined {
  if (value.length > MAX_ID_CHARS) return `it is ${value.length} characters long; no id is longer than ${MAX_ID_CHARS}`;
  for (const v of new Set([value, decoded(value)])) {
    if (v.trim() === "") return "it is empty";
    if (v === "." || v === "..") return `"${v}" names no object: in a path it means this folder or the one above`;
    if (v.includes("/") || v.includes("\\")) return "it holds a / or \\, which would split the path";
  }
  if (form === "uuid" && !UUID.test(value)) return "it must be a uuid (8-4-4-4-12 hex digits)";
  return undefined;
}

/** `part`'s value encoded as one path segment; IdFormError, naming `what` and the id, when it cannot be one. */
export function segment(what: string, part: IdPart): string {
  const problem = idProblem(part.value, part.form);
  if (problem !== undefined) throw new IdFormError(what, part.name, part.value, problem);
  return encodeURIComponent(part.value);
}

/**
 * A request path from literal pieces and ids, each id checked and encoded (segment). `what` names
 * the resource for the error, e.g. "API key". The one way a resource's path is made.
 */
export function apiPath(what: string, ...pieces: ReadonlyArray<string | IdPart>): string {
  return pieces.map((p) => (typeof p === "string" ? p : segment(what, p))).join("");
}

/** Whether a built path (no query) holds an empty, "." or ".." segment: what `send` never sends. */
export function hasDotOrEmptySegment(path: string): boolean {
  const bare = path.split("?")[0] ?? "";
  return bare
    .split("/")
    .slice(1)
    .some((s) => s === "" || decoded(s) === "." || decoded(s) === "..");
}
