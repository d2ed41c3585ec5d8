// A collection of the alerting service's v2 API (webhooks, saved searches): every answer holds one
// object under `data`, ids are opaque, the paged list serves each read, and a write sends the whole
// object. Said once for both resources' wires.

import { z } from "../protocol/zod";
import { inputNames, toWire, type ArgsOf, type ResourceDefinition } from "../protocol/definition";
import type { AreaConnection } from "../runtime/connection";
import { memberPath } from "../http/paths";
import { LIST_PAGE_MAX } from "../serviceFacts/alertRules";
import { readListed, type Collection, type ReadAnswer } from "./listedReads";
import { listPaged, type Listed } from "./pagedList";

const answer = z.object({ data: z.record(z.string(), z.unknown()) });

const created = z.object({
  data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
});

export interface AlertingCollection<D extends ResourceDefinition> {
  /** The id of the object in a create's answer. */
  readonly created: typeof created;
  /** The object of a 2xx answer, or undefined when its body holds none. */
  readonly objectIn: (body: unknown) => Listed | undefined;
  /**
   * The request body: every argument the program sets, write-only ones included. The whole object, since
   * a PUT returns a field it omits to the service's default.
   */
  readonly toWire: (args: ArgsOf<D>) => Record<string, unknown>;
  /** The list's path, or one member's: its id is opaque (ObjectId.isValid also takes any 12 characters). */
  readonly path: (id?: string) => string;
  readonly list: (conn: AreaConnection) => Promise<Map<string, Listed>>;
  /** The caller's objects as a collection whose listing serves reads, each as a write answers it. */
  readonly collection: (conn: AreaConnection) => Collection;
  /** One member's answer, undefined when it is gone: by the listing, or its own GET where it has one. */
  readonly read: (conn: AreaConnection, id: string) => Promise<ReadAnswer | undefined>;
}

/**
 * The collection at `path` of the resource `def`, whose members `what` names in errors ("webhook");
 * `getOfOne` says whether the service has a GET of one member (it has none for webhooks).
 */
export function alertingCollection<D extends ResourceDefinition>(
  def: D,
  what: string,
  path: string,
  getOfOne: boolean,
): AlertingCollection<D> {
  const sent = inputNames(def);
  const list = (conn: AreaConnection) => listPaged(conn, path, LIST_PAGE_MAX);
  const collection = (conn: AreaConnection): Collection => ({
    path,
    list: () => list(conn),
    asAnswer: (member) => ({ data: member }),
  });
  return {
    created,
    objectIn: (body) => {
      const parsed = answer.safeParse(body);
      return parsed.success ? parsed.data.data : undefined;
    },
    toWire: (args) => toWire(def, args, sent, "drop"),
    path: (id) => memberPath(what, path, id),
    list,
    collection,
    read: (conn, id) => {
      // The path is made even without a GET: an id no path could hold is refused before any request.
      const member = memberPath(what, path, id);
      return readListed(conn, collection(conn), id, getOfOne ? { method: "GET", path: member } : undefined);
    },
  };
}
