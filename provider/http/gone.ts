// "404 means gone", said once: a read sees the object gone, a delete is done.

import { ApiError, RouteNotServedError } from "../errors";

/** The service says the object does not exist (any more); a gateway's unserved route says nothing of it. */
export function isNotFound(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 404 && !(err instanceof RouteNotServedError);
}

/** What `work` resolves to, or undefined on a 404. */
export async function unlessGone<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
