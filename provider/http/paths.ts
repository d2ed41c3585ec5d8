// Every id in a path goes through here: one that would move the request elsewhere is refused.

import { IdFormError } from "../errors";
import { decoded, idProblem, type IdForm } from "../protocol/ids";

export { idProblem, MAX_ID_CHARS, type IdForm } from "../protocol/ids";

/** One id of a path, e.g. `{ name: "organizationId", value, form: "uuid" }`. */
export interface IdPart {
  readonly name: string;
  readonly value: string;
  readonly form: IdForm;
}

/** `part`'s value as one path segment, or IdFormError. */
export function segment(what: string, part: IdPart): string {
  const problem = idProblem(part.value, part.form);
  if (problem !== undefined) throw new IdFormError(what, part.name, part.value, problem);
  return encodeURIComponent(part.value);
}

/** The one way a resource's path is made; `what` (e.g. "API key") words the error. */
export function apiPath(what: string, ...pieces: ReadonlyArray<string | IdPart>): string {
  let path = "";
  for (const p of pieces) path += typeof p === "string" ? p : segment(what, p);
  return path;
}

/** A collection's path, or one member's by its opaque id. */
export function memberPath(what: string, collection: string, id?: string): string {
  return id === undefined ? collection : apiPath(what, collection, "/", { name: "id", value: id, form: "opaque" });
}

/** Whether a path holds an empty, "." or ".." segment, which `send` never sends. */
export function hasDotOrEmptySegment(path: string): boolean {
  const bare = path.split("?")[0] ?? "";
  return bare
    .split("/")
    .slice(1)
    .some((s) => s === "" || decoded(s) === "." || decoded(s) === "..");
}
