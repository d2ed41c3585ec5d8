// An alerting v2 collection: one object under `data`, opaque ids, reads served by the paged list,
// and a write sends the whole object.

import { z } from "../protocol/zod";
import { wireObject } from "../protocol/validation";
import { inputNames, toWire, type ArgsOf, type ResourceDefinition } from "../protocol/definition";
import type { AreaConnection } from "../runtime/connection";
import { memberPath } from "../http/paths";
import { send } from "../http/client";
import { unlessGone } from "../http/gone";
import { LIST_PAGE_MAX } from "../serviceFacts/alertRules";
import { readListed, type Collection, type ReadAnswer } from "./listedReads";
import { listPaged, listWhole, type Listed } from "./pagedList";

const answer = z.object({ data: wireObject });

const created = z.object({
  data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
});

export interface AlertingCollection<D extends ResourceDefinition> {
  readonly created: typeof created;
  readonly objectIn: (body: unknown) => Listed | undefined;
  /** Whole, write-only ones included: a PUT returns an omitted field to its default. */
  readonly toWire: (args: ArgsOf<D>) => Record<string, unknown>;
  /** Ids are opaque: ObjectId.isValid also takes any 12 characters. */
  readonly path: (id?: string) => string;
  readonly list: (conn: AreaConnection) => Promise<Map<string, Listed>>;
  readonly collection: (conn: AreaConnection) => Collection;
  /** Undefined when gone. */
  readonly read: (conn: AreaConnection, id: string) => Promise<ReadAnswer | undefined>;
  /** As the service holds it now, never the run's listing (an update's read before it writes); undefined when gone. */
  readonly held: (conn: AreaConnection, id: string) => Promise<Listed | undefined>;
}

/**
 * `what` names a member in errors; `getOfOne` is false where the service has no GET of one (webhooks);
 * `paged` false where its list takes no limit and offset (connections, sources, dashboards); `hasGet`
 * where reads go through the list though the service has a GET of one (sources), for `held`.
 */
export function alertingCollection<D extends ResourceDefinition>(
  def: D,
  what: string,
  path: string,
  getOfOne: boolean,
  paged = true,
  hasGet = getOfOne,
): AlertingCollection<D> {
  const sent = inputNames(def);
  const list = (conn: AreaConnection) => (paged ? listPaged(conn, path, LIST_PAGE_MAX) : listWhole(conn, path));
  const objectIn = (body: unknown): Listed | undefined => {
    const parsed = answer.safeParse(body);
    return parsed.success ? parsed.data.data : undefined;
  };
  const collection = (conn: AreaConnection): Collection => ({
    path,
    list: () => list(conn),
    asAnswer: (member) => ({ data: member }),
  });
  return {
    created,
    objectIn,
    toWire: (args) => toWire(def, args, sent, "drop"),
    path: (id) => memberPath(what, path, id),
    list,
    collection,
    read: (conn, id) => {
      // Even without a GET: an id no path could hold is refused before any request.
      const member = memberPath(what, path, id);
      return readListed(conn, collection(conn), id, getOfOne ? { method: "GET", path: member } : undefined);
    },
    held: async (conn, id) => {
      const member = memberPath(what, path, id);
      if (!hasGet) return (await list(conn)).get(id);
      const res = await unlessGone(() => send(conn, { method: "GET", path: member }));
      return res === undefined ? undefined : objectIn(res.body);
    },
  };
}
