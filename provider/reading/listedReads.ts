// Reads served by a list. A refresh reads every resource, and one GET each is slow under the rate
// limits. Both services list a collection at once (an organization's keys; the caller's alerts,
// paged), so a provider process lists a collection once and answers
// every read of it from that listing: reads arriving together wait on the same listing, later ones
// of the same run reuse it. A write to the collection drops it (forgetListingsUnder, called by the
// HTTP layer for every write), so a read after a write lists again. Settings have no list.
//
// A listed object is answered as its GET answers it (each resource's `asAnswer`), so the read's
// outputs are the GET path's; an object the complete list does not hold is gone, as a 404 says.
// Where the list cannot say what a GET would, the read sends that GET: a service with no usable
// list (a 404 or an answer of another shape), and an id the list does not hold in the letter case
// asked (a service may find an object by an id it lists in lower case). Recovery after a lost
// create never comes here: it must see what is there now, so it lists afresh (creation/recovery.ts).
//
// Always list, however few objects a run reads: a provider never knows how many reads will come
// (the cost: docs/design/reading.md, "Few objects in a large account").

import { ApiError, UnexpectedResponseError } from "../errors";
import { unlessGone } from "../http/gone";
import { send, type ApiRequest } from "../http/client";
import type { AreaConnection } from "../runtime/connection";
import { runtime, type Listing } from "../runtime/runtime";

/** What a resource tells of its collection, for its reads to be served by listing it. */
export interface Collection {
  /** The list's path, also the start of every path of its objects (whose writes make the listing stale). */
  readonly path: string;
  /** Every object of the collection by id, through `send`; `secrets` grows as reads join, for errors to scrub. */
  readonly list: (secrets: readonly unknown[]) => Promise<ReadonlyMap<string, unknown>>;
  /** A listed object as the body of its GET's answer (the answer's envelope around it). */
  readonly asAnswer: (item: unknown) => unknown;
}

/** The one listing of the collection this process holds, started now when there is none. */
function listingOf(conn: AreaConnection, collection: Collection, secrets: readonly unknown[]): Listing {
  const listings = runtime().listings;
  const key = listingKey(conn, collection);
  const held = listings.get(key);
  if (held !== undefined) {
    held.secrets.push(...secrets);
    return held;
  }
  const joined = [...secrets];
  const listing: Listing = {
    credentialId: conn.credentialId,
    path: collection.path,
    secrets: joined,
    items: collection.list(joined).catch((err: unknown) => {
      // No list to be had: every read of the run sends its GET, without asking for the list again.
      if (unlistable(err)) return "unlistable" as const;
      // A failure is the reads waiting now; the next read tries again.
      if (listings.get(key) === listing) listings.delete(key);
      throw err;
    }),
  };
  listings.set(key, listing);
  return listing;
}

function listingKey(conn: AreaConnection, collection: Collection): string {
  return `${conn.credentialId} ${collection.path}`;
}

/**
 * Every object of the collection, from the listing this process holds for its reads, or listed now
 * and held from then on, so the reads that follow (an export's of each object) send nothing. Unlike
 * a read it rejects as the list does, a 404 included: a caller wanting the whole collection cannot
 * GET its way around a missing list.
 */
export async function listedObjects(
  conn: AreaConnection,
  collection: Collection,
): Promise<ReadonlyMap<string, unknown>> {
  const listings = runtime().listings;
  const key = listingKey(conn, collection);
  const held = await listings.get(key)?.items.catch(() => undefined);
  if (held !== undefined && held !== "unlistable") return held;
  const items = await collection.list([]);
  listings.set(key, {
    credentialId: conn.credentialId,
    path: collection.path,
    secrets: [],
    items: Promise.resolve(items),
  });
  return items;
}

/** The list itself is missing (404) or answers in a shape we cannot read: only a GET can tell. */
function unlistable(err: unknown): boolean {
  return (err instanceof ApiError && err.status === 404) || err instanceof UnexpectedResponseError;
}

/** A 2xx answer's body (which may hold no object at all), as the read of one object gets it. */
export interface ReadAnswer {
  readonly body: unknown;
}

/**
 * The object's GET answer, or undefined when it is gone: served by the collection's listing when
 * this process reads by list (runtime.readByList), else, or when the list cannot tell, by `get`
 * itself. An object with no GET of its own (`get` undefined: a webhook) is always read by listing,
 * and a list that cannot tell is an error. Rejects as the listing or the GET does.
 */
export async function readListed(
  conn: AreaConnection,
  collection: Collection,
  id: string,
  get: ApiRequest | undefined,
): Promise<ReadAnswer | undefined> {
  const byGet = (items: "unlistable" | undefined) => {
    if (get !== undefined) return unlessGone(() => send(conn, get));
    if (items === "unlistable")
      throw new UnexpectedResponseError(
        { method: "GET", path: collection.path },
        "the list is missing or unreadable, and the object has no GET of its own to read it by",
        undefined,
      );
    return Promise.resolve(undefined);
  };
  if (!runtime().readByList && get !== undefined) return byGet(undefined);
  const items = await listingOf(conn, collection, get?.secrets ?? []).items;
  if (items === "unlistable") return byGet(items);
  if (items.has(id)) return { body: collection.asAnswer(items.get(id)) };
  return id === id.toLowerCase() || get === undefined ? undefined : byGet(undefined);
}
