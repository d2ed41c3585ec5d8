// Taking over an object that already exists (`importId`) instead of creating one: what Alert and
// ApiKey share. Pulumi cannot import a dynamic provider's resource, so the create itself reads the
// object by the id the program names and makes it the resource's, never posting a new one.

import type { ApiResponse } from "./http/client";
import { ImportNotFoundError, isNotFound } from "./http/errors";

/** The answer to the GET of the object to take over; a 404 becomes ImportNotFoundError. `what` names its kind, e.g. "alert". */
export async function readForImport(what: string, importId: string, get: () => Promise<ApiResponse>): Promise<ApiResponse> {
  try {
    return await get();
  } catch (err) {
    if (isNotFound(err)) throw new ImportNotFoundError(err, what, importId);
    throw err;
  }
}
