// Taking over an object that already exists (`importId`) instead of creating one: what Alert and
// ApiKey share. Pulumi cannot import a dynamic provider's resource, so the create itself reads the
// object by the id the program names and makes it the resource's, never posting a new one.

import type { ApiResponse } from "./http/client";
import { HttpError, isNotFound, type ApiError } from "./http/errors";

/**
 * The object a program asked to take over does not exist. Said apart from a plain 404 because the
 * user must know nothing was made: the run stops rather than creating a new object in its place.
 */
export class ImportNotFoundError extends HttpError {
  readonly code = "IMPORT_NOT_FOUND";
  /** The id the program gave as importId. */
  readonly importId: string;

  constructor(notFound: ApiError, what: string, importId: string) {
    super(
      notFound,
      `importId "${importId}": ${notFound.method} ${notFound.path} answered 404, so there is no ${what} with that id to take over. ` +
        `Nothing was created. Correct the id, or remove importId to create a new one.`,
      { status: notFound.status, requestId: notFound.requestId, cause: notFound },
    );
    this.name = "ImportNotFoundError";
    this.importId = importId;
  }
}

/** The answer to the GET of the object to take over; a 404 becomes ImportNotFoundError. `what` names its kind, e.g. "alert". */
export async function readForImport(what: string, importId: string, get: () => Promise<ApiResponse>): Promise<ApiResponse> {
  try {
    return await get();
  } catch (err) {
    if (isNotFound(err)) throw new ImportNotFoundError(err as ApiError, what, importId);
    throw err;
  }
}
