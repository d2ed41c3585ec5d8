// Taking over an object that already exists (`importId`) instead of creating one: what Alert,
// ApiKey, Webhook and SavedSearch share. Pulumi cannot import a dynamic provider's resource, so the
// create itself reads the object by the id the program names and makes it the resource's, never
// posting a new one.

import type { ApiResponse } from "../http/client";
import { ImportNotFoundError } from "../errors";
import { isNotFound } from "../http/gone";
import { notify } from "../runtime/notices";
import { claimForThisRun, partsClaimedThisRun } from "./runClaims";
import { ImportIdFormError } from "../errors";
import { idProblem, quotedId, type IdForm } from "../protocol/ids";

/**
 * A forced replacement (`pulumi up --replace`) of a resource whose program still says importId
 * creates the replacement by taking over the same object again; the delete of the replaced one, in
 * the same run, must then leave it alone, or nothing would be left. So a take-over is a claim of
 * the whole object for this run.
 */
const WHOLE_OBJECT = "taken over";

function objectKey(kind: string, id: string): string {
  return `${kind}\u0000${id}`;
}

/**
 * The answer to the GET of the object to take over; a 404 becomes ImportNotFoundError. `kind` names it, e.g. "alert".
 */
export async function readForImport(
  kind: string,
  importId: string,
  get: () => Promise<ApiResponse>,
): Promise<ApiResponse> {
  try {
    const res = await get();
    claimForThisRun(objectKey(kind, importId), [WHOLE_OBJECT]);
    return res;
  } catch (err) {
    if (isNotFound(err)) throw new ImportNotFoundError(err, kind, importId);
    throw err;
  }
}

/**
 * The object to take over as a listing holds it, for an object with no GET of its own (a webhook):
 * `find` reads it; none found becomes ImportNotFoundError naming the list's path.
 */
export async function listedForImport<T>(
  kind: string,
  importId: string,
  listPath: string,
  find: () => Promise<T | undefined>,
): Promise<T> {
  const found = await find();
  if (found === undefined) throw new ImportNotFoundError({ method: "GET", path: listPath }, kind, importId);
  claimForThisRun(objectKey(kind, importId), [WHOLE_OBJECT]);
  return found;
}

/**
 * Whether a delete of this object must be skipped because a replacement took it over in this run; says so when it does.
 */
export function keptByReplacement(kind: string, id: string): boolean {
  if (!partsClaimedThisRun(objectKey(kind, id)).has(WHOLE_OBJECT)) return false;
  notify(
    `pulumi-alertpipe: the ${kind} ${id} is not deleted: its replacement took it over again in this run (importId is still set in the program).`,
  );
  return true;
}

/**
 * The parts of an import id of the form `a/b/…`, one per name in `form`, each of the form `idForm`
 * (paths.ts says what a path segment may be). An import gives a provider nothing but this id
 * (`pulumi import`, or the `import` resource option), so it must name the object alone, its path included.
 */
export function importIdParts(kind: string, id: string, form: readonly string[], idForm: IdForm): string[] {
  const parts = id.split("/").map((p) => p.trim());
  if (parts.length !== form.length || parts.some((p) => p === "")) throw new ImportIdFormError(kind, id, form);
  parts.forEach((value, i) => {
    const problem = idProblem(value, idForm);
    if (problem !== undefined)
      throw new ImportIdFormError(kind, id, form, `its ${form[i]} ${quotedId(value)} cannot be: ${problem}`);
  });
  return parts;
}
