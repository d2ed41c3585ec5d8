// Finding the keys a lost POST may have made (recovery): the organization's keys, listed, kept
// when created after the POST was sent and matching what it sent. What matches is the plan's
// (behaviour.ts, by its matchesSent); this module only lists and filters. The same listing
// serves reads (keyCollection, reading/listedReads.ts).

import { z } from "../protocol/zod";
import type { AreaConnection } from "../runtime/connection";
import { decode, send } from "../http/client";
import { createdAfterSend, listedId } from "../creation/recovery";
import type { Collection } from "../reading/listedReads";
import { isWireKey, keysPath, type WireKey } from "./wire";

/**
 * A list answer: the organization's keys in `result` (at most 100, so the service does not page), each read as
 * liberally as a single one.
 */
const keyList = z.object({ result: z.array(z.unknown()) });

/** A key the lost POST may have made, as listed: a recovery Candidate with the key. */
export interface KeyCandidate {
  readonly id: string;
  readonly key: WireKey;
}

/** The listed keys a POST sent at `sentAt` (our clock) may have made: created after it and `matches` what it sent. */
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

/** Every key of the organization; an item without a usable id is skipped, since it could never be recorded. */
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

/**
 * The organization's keys as a collection whose listing serves reads: each listed as its GET answers it, in `result`.
 */
export function keyCollection(conn: AreaConnection, organizationId: string): Collection {
  return {
    path: keysPath(organizationId),
    list: async (secrets) => new Map((await listKeys(conn, organizationId, secrets)).map((c) => [c.id, c.key])),
    asAnswer: (key) => ({ result: key }),
  };
}
