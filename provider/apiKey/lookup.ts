// Finding a key on the service by what a program sends: the keys a lost POST may have made
// (recovery) and whether a live key already is what the program asks for (importId).

import { z } from "zod";
import type { AreaConnection } from "../runtime/connection";
import { hasChanged } from "../protocol/diff";
import { decode, send } from "../http/client";
import type { PropertyMap } from "../protocol/properties";
import { createdAfterSend, listedId, type Candidate } from "../creation/recovery";
import { comparedForm } from "./args";
import { keysPath, type WireKey } from "./wire";

/** A list answer: the organization's keys in `result` (at most 100, so the service does not page), each read as liberally as a single one. */
const keyList = z.object({ result: z.array(z.unknown()) });

/** A key the lost POST may have made, as listed. */
export interface KeyCandidate extends Candidate {
  readonly key: WireKey;
}

/**
 * What tells the key a POST made from the others. The service lists neither key IDs nor hashes,
 * so a key it made is known by its name and roles, and one whose pair the program made by the
 * last characters of its key ID (the suffix it was sent), which the listing shows.
 */
export interface SentKey {
  /** The name sent; undefined when none was (the service names it, so any name matches). */
  readonly name?: string;
  /** The roles sent, compared as a set; undefined when the suffix decides. */
  readonly roles?: readonly string[];
  /** The keyIdSuffix sent in hashData. */
  readonly keySuffix?: string;
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
    if (id !== undefined && !found.some((c) => c.id === id)) found.push({ id, key: item as WireKey });
  }
  return found;
}

function matchesSent(sent: SentKey, key: WireKey): boolean {
  if (sent.name !== undefined && (key.name ?? "") !== sent.name) return false;
  if (sent.roles !== undefined && hasChanged("roles", key.roles, sent.roles, comparedForm)) return false;
  // A key the service made for a lost answer was never used: its secret was only in that answer.
  // So a used key of the same name and roles (the one a rotation replaces, say) is not it.
  if (sent.roles !== undefined && key.usedAt !== undefined && key.usedAt !== null) return false;
  return sent.keySuffix === undefined || key.keySuffix === sent.keySuffix;
}

/** The listed keys a POST of `sent` at `sentAt` (our clock) may have made. */
export async function keysMadeBy(
  conn: AreaConnection,
  organizationId: string,
  sent: SentKey,
  sentAt: number,
  secrets: readonly unknown[],
): Promise<KeyCandidate[]> {
  const all = await listKeys(conn, organizationId, secrets);
  return all.filter((c) => createdAfterSend(c.key.createdAt, sentAt) && matchesSent(sent, c.key));
}

/** Whether a live key already holds the program's value of every argument it manages (`names`). */
export function matchesManaged(args: PropertyMap, names: readonly string[], key: WireKey): boolean {
  return names.every((n) => !hasChanged(n, key[n], args[n], comparedForm));
}
