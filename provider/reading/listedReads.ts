// Reads served by one listing per collection: a GET each is slow under the rate limits. Any write
// drops the listing. Where the list cannot say what a GET would, the read sends the GET. Recovery
// never comes here: it must see what is there now. Why and when: docs/design/reading.md.

import { ApiError, UnexpectedResponseError } from "../errors";
import { unlessGone } from "../http/gone";
import { send, type ApiRequest } from "../http/client";
import type { AreaConnection } from "../runtime/connection";
import { runtime, type Listing } from "../runtime/runtime";

export interface Collection {
  /** The prefix of its objects' paths, whose writes make the listing stale. */
  readonly path: string;
  /** `secrets` grows as reads join, for errors to scrub. */
  readonly list: (secrets: readonly unknown[]) => Promise<ReadonlyMap<string, unknown>>;
  /** As its GET answers it, so a read's outputs are the same either way. */
  readonly asAnswer: (item: unknown) => unknown;
}

function listingOf(conn: AreaConnection, collection: Collection, secrets: readonly unknown[]): Listing {
  const listings = runtime().listings;
  const key = listingKey(conn, collection);
  const held = listings.get(key);
  if (held !== undefined) {
    for (const secret of secrets) held.secrets.push(secret);
    return held;
  }
  const joined = [...secrets];
  const listing: Listing = {
    credentialId: conn.credentialId,
    path: collection.path,
    secrets: joined,
    items: collection.list(joined).catch((err: unknown) => {
      // Every read of the run sends its GET, without asking for the list again.
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

/** Held, so the reads that follow send nothing. A 404 rejects: no GET replaces a missing list. */
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

/** Only a GET can tell. */
function unlistable(err: unknown): boolean {
  return (err instanceof ApiError && err.status === 404) || err instanceof UnexpectedResponseError;
}

/** A 2xx body, which may hold no object. */
export interface ReadAnswer {
  readonly body: unknown;
}

/**
 * Undefined when gone. With no GET of its own (a webhook) only the list can tell; else an id the list
 * lacks in the case asked is read by GET (a service may list it in lower case).
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
