// Taking over an existing object (`importId`). Pulumi cannot import a dynamic provider's resource,
// so the create itself reads the object by the program's id, never posting a new one.

import type { ApiResponse } from "../http/client";
import { ImportNotFoundError } from "../errors";
import { isNotFound } from "../http/gone";
import { notify } from "../runtime/notices";
import { claimForThisRun, partsClaimedThisRun } from "./runClaims";
import { ImportIdFormError } from "../errors";
import { idProblem, quotedId, type IdForm } from "../protocol/ids";

/**
 * A claim of the whole object for this run: a forced replacement still saying importId takes over
 * the same object again, and the replaced one's delete must leave it alone.
 */
const WHOLE_OBJECT = "taken over";

function objectKey(kind: string, id: string): string {
  return `${kind}\u0000${id}`;
}

/** A 404 becomes ImportNotFoundError. */
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

/** For an object with no GET of its own (a webhook); none found is ImportNotFoundError. */
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

/** True when a replacement took the object over in this run; says so. */
export function keptByReplacement(kind: string, id: string): boolean {
  if (!partsClaimedThisRun(objectKey(kind, id)).has(WHOLE_OBJECT)) return false;
  notify(
    `pulumi-alertpipe: the ${kind} ${id} is not deleted: its replacement took it over again in this run (importId is still set in the program).`,
  );
  return true;
}

/** An import gives nothing but this id, so it must name the object alone, its path included. */
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
