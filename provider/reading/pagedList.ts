// The alerting service's paged lists: `?limit&offset`, `{data: [...]}`.

import { setTimeout as sleep } from "node:timers/promises";
import { z } from "../protocol/zod";
import type { AreaConnection } from "../runtime/connection";
import { runtime } from "../runtime/runtime";
import { decode, send } from "../http/client";
import { RetryBudget, retryDelayMs } from "../http/retry";
import { listedId } from "../protocol/properties";

// The 2026 service answers `meta` (total and page size); the seed contract's answers carry none.
const listAnswer = z.object({
  data: z.array(z.unknown()),
  meta: z
    .object({ total: z.number().int().nonnegative(), limit: z.number().int().positive().optional() })
    .optional()
    .catch(undefined),
});

export type Listed = Record<string, unknown>;

/**
 * With `meta`, pages step by its limit until they cover the total: a page short of rows the service
 * cannot render ends nothing (docs/design/webhooks-and-saved-searches.md). Without it, a short page
 * ends, and so does one longer than asked or bringing nothing new: an older service ignores the
 * parameters. An item without a usable id could never be recorded.
 */
export async function listPaged(
  conn: AreaConnection,
  path: string,
  pageMax: number,
  secrets: readonly unknown[] = [],
): Promise<Map<string, Listed>> {
  const found = new Map<string, Listed>();
  for (let offset = 0; ;) {
    const res = await send(conn, { method: "GET", path: `${path}?limit=${pageMax}&offset=${offset}`, secrets });
    const { data: page, meta } = decode(listAnswer, res);
    let fresh = 0;
    for (const item of page) {
      const id = listedId(item);
      if (id === undefined || found.has(id)) continue;
      found.set(id, item as Listed);
      fresh += 1;
    }
    if (meta === undefined) {
      if (page.length !== pageMax || fresh === 0) return found;
      offset += pageMax;
    } else {
      offset += Math.min(meta.limit ?? pageMax, pageMax);
      if (offset >= meta.total) return found;
    }
  }
}

/** Every object of a list the service does not page (connections, sources, dashboards): one GET, no query. */
export async function listWhole(conn: AreaConnection, path: string): Promise<Map<string, Listed>> {
  const res = await send(conn, { method: "GET", path });
  const found = new Map<string, Listed>();
  for (const item of decode(listAnswer, res).data) {
    const id = listedId(item);
    if (id !== undefined && !found.has(id)) found.set(id, item as Listed);
  }
  return found;
}

/** The alerts that refer to an object, each as "name (id)" or "id". */
export async function alertsReferring(
  conn: AreaConnection,
  alertsPath: string,
  pageMax: number,
  refersTo: (alert: Listed) => boolean,
): Promise<string[]> {
  const alerts = await listPaged(conn, alertsPath, pageMax);
  return [...alerts]
    .filter(([, alert]) => refersTo(alert))
    .map(([id, alert]) => (typeof alert.name === "string" && alert.name !== "" ? `"${alert.name}" (${id})` : id));
}

/**
 * Looked for again, after the retry policy's waits, while some do: a destroy deletes unrelated
 * resources at once (an import records no dependency), so an alert may be on its way out.
 */
export async function alertsStillReferring(
  conn: AreaConnection,
  alertsPath: string,
  pageMax: number,
  refersTo: (alert: Listed) => boolean,
): Promise<string[]> {
  return stillFound(() => alertsReferring(conn, alertsPath, pageMax, refersTo));
}

/** `look` again, after the retry policy's waits, while it finds any: they may be on their way out. */
export async function stillFound(look: () => Promise<string[]>): Promise<string[]> {
  const policy = runtime().retryPolicy;
  const budget = new RetryBudget(policy);
  let found = await look();
  for (let n = 1; found.length > 0; n++) {
    const delay = retryDelayMs(n, undefined, policy);
    if (!budget.allowsAnother(n, delay)) break;
    await sleep(delay);
    found = await look();
  }
  return found;
}

/** Each as "name (id)" or "id". */
export function named(listed: Map<string, Listed>, keep: (item: Listed) => boolean): string[] {
  return [...listed]
    .filter(([, item]) => keep(item))
    .map(([id, item]) => (typeof item.name === "string" && item.name !== "" ? `"${item.name}" (${id})` : id));
}
