// The SavedSearch's wire: its paths, the search an answer holds, the request body, its listing.

import { z } from "../protocol/zod";
import { toWire as mapping, inputNames } from "../protocol/definition";
import type { PropertyMap } from "../protocol/properties";
import type { AreaConnection } from "../runtime/connection";
import type { Collection } from "../reading/listedReads";
import { listPaged, type Listed } from "../reading/pagedList";
import { LIST_PAGE_MAX } from "../serviceFacts/alertRules";
import { SAVED_SEARCHES_PATH } from "../serviceFacts/savedSearches";
import { SAVED_SEARCH } from "./definition";
import { memberPath } from "../http/paths";

const answer = z.object({ data: z.record(z.string(), z.unknown()) });

export const createdSearch = z.object({
  data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
});

/** The saved search of a 2xx answer, or undefined when its body holds none. */
export function searchIn(body: unknown): Listed | undefined {
  const parsed = answer.safeParse(body);
  return parsed.success ? parsed.data.data : undefined;
}

const SENT = inputNames(SAVED_SEARCH);

/** The whole body: a PUT returns every field it omits to the service's default. */
export function toWire(args: PropertyMap): Record<string, unknown> {
  return mapping(SAVED_SEARCH, args, SENT, "drop");
}

/** The list's path, or one saved search's: its id is opaque (ObjectId.isValid also takes any 12 characters). */
export function searchesPath(id?: string): string {
  return memberPath("saved search", SAVED_SEARCHES_PATH, id);
}

export const listSearches = (conn: AreaConnection): Promise<Map<string, Listed>> =>
  listPaged(conn, SAVED_SEARCHES_PATH, LIST_PAGE_MAX);

export function searchCollection(conn: AreaConnection): Collection {
  return { path: SAVED_SEARCHES_PATH, list: () => listSearches(conn), asAnswer: (search) => ({ data: search }) };
}
