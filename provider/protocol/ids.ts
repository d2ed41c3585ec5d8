// Below the HTTP layer, so a check refuses a bad id in preview too. `encodeURIComponent` keeps "."
// and "..", which URLs fold ("/alerts/.." is "/"); a server decoding before routing splits on "/";
// WHATWG parsers read "\" as "/".

/** The cloud API's ids are uuids; the alerting API's are opaque. */
export type IdForm = "uuid" | "opaque";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** No real id comes near this; a longer one is a mistake and would fill an error line. */
export const MAX_ID_CHARS = 256;

export function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Undefined when it can be a path segment. */
export function idProblem(value: string, form: IdForm): string | undefined {
  if (value.length > MAX_ID_CHARS) return `it is ${value.length} characters long; no id is longer than ${MAX_ID_CHARS}`;
  const plain = decoded(value);
  const problem = segmentProblem(value) ?? (plain === value ? undefined : segmentProblem(plain));
  if (problem !== undefined) return problem;
  if (form === "uuid" && !UUID.test(value)) return "it must be a uuid (8-4-4-4-12 hex digits)";
  return undefined;
}

function segmentProblem(v: string): string | undefined {
  if (v.trim() === "") return "it is empty";
  if (v === "." || v === "..") return `"${v}" names no object: in a path it means this folder or the one above`;
  if (v.includes("/") || v.includes("\\")) return "it holds a / or \\, which would split the path";
  return undefined;
}

/** The whole id is on the error's `id`. */
const QUOTED_ID_CHARS = 64;

/** Escaped, and shortened when long (saying its length). */
export function quotedId(id: string): string {
  if (id.length <= QUOTED_ID_CHARS) return JSON.stringify(id);
  return `${JSON.stringify(id.slice(0, QUOTED_ID_CHARS - 16))}… (${id.length} characters)`;
}
