// Keys a lost POST may have made; the plan decides what matches, this only lists and filters.

import { z } from "../protocol/zod";
import type { AreaConnection } from "../runtime/connection";
import { decode, send } from "../http/client";
import { createdAfterSend, listedId } from "../creation/recovery";
import type { Collection } from "../reading/listedReads";
import { isWireKey, keysPath, type WireKey } from "./wire";

/** At most 100 keys, so the service does not page. */
const keyList = z.object({ result: z.array(z.unknown()) });

export interface KeyCandidate {
  readonly id: string;
  readonly key: WireKey;
}

/** `sentAt` is our clock. */
export async function keysMadeBy(
  conn: AreaConnection,
  organizationId: string,
  matches: (key: WireKey) => boolean,
  sentAt: number,
  secrets: readonly unknown[],
): Promise<KeyCandidate[]> {
  const all = await listKeys(conn, organizationId, secrets);
  return all.filter((c) => createdAfterSend(c.key.createdAt, sentAt) && matches(c.key));
}

/** An item without a usable id is skipped: it could never be recorded. */
export async function listKeys(
  conn: AreaConnection,
  organizationId: string,
  secrets: readonly unknown[],
): Promise<KeyCandidate[]> {
  const res = await send(conn, { method: "GET", path: keysPath(organizationId), secrets });
  const found: KeyCandidate[] = [];
  for (const item of decode(keyList, res).result) {
    const id = listedId(item);
    if (id !== undefined && isWireKey(item) && !found.some((c) => c.id === id)) found.push({ id, key: item });
  }
  return found;
}

/** The same listing serves reads. */
export function keyCollection(conn: AreaConnection, organizationId: string): Collection {
  return {
    path: keysPath(organizationId),
    list: async (secrets) => new Map((await listKeys(conn, organizationId, secrets)).map((c) => [c.id, c.key])),
    asAnswer: (key) => ({ result: key }),
  };
}
