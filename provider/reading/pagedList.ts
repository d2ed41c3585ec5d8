// Every object of a paged collection of the alerting service (alerts, webhooks, saved searches:
// `?limit&offset`, `{data: [...]}`), said once for each resource's listing.

import { setTimeout as sleep } from "node:timers/promises";
import { z } from "../protocol/zod";
import type { AreaConnection } from "../runtime/connection";
import { runtime } from "../runtime/runtime";
import { decode, send } from "../http/client";
import { RetryBudget, retryDelayMs } from "../http/retry";
import { listedId } from "../protocol/properties";

// The 2026 service says how many objects the list holds and how many a page covers (`meta`; the
// total also in `X-Total-Count`); the seed contract's answers carry no `meta`.
const listAnswer = z.object({
  data: z.array(z.unknown()),
  meta: z
    .object({ total: z.number().int().nonnegative(), limit: z.number().int().positive().optional() })
    .optional()
    .catch(undefined),
});

export type Listed = Record<string, unknown>;

/**
 * Every object under `path` by id, page by page. Where the answer gives `meta.total`, the offsets
 * step by the page's `meta.limit` until they cover the total: a full last page needs no empty one
 * after it, and a page short of rows the service could not render (docs/design/webhooks-and-saved-searches.md)
 * or capped below what was asked ends nothing. Without it: stops at a short page, or where the
 * answer shows an older service, which ignores the parameters and answers the whole list for every
 * offset: a page longer than asked for, or one that brings nothing not seen before. An item without
 * a usable id is skipped, since it could never be recorded.
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

/** The alerts whose answer names `id` where `refersTo` looks, as "name (id)" or "id", for words naming them. */
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
 * The alerts that still refer to an object, looked for again after the retry policy's waits while
 * some do: a destroy deletes at once what it knows no dependency between (an import records none),
 * so an alert of the same run may be on its way out.
 */
export async function alertsStillReferring(
  conn: AreaConnection,
  alertsPath: string,
  pageMax: number,
  refersTo: (alert: Listed) => boolean,
): Promise<string[]> {
  const policy = runtime().retryPolicy;
  const budget = new RetryBudget(policy);
  let alerts = await alertsReferring(conn, alertsPath, pageMax, refersTo);
  for (let look = 1; alerts.length > 0; look++) {
    const delay = retryDelayMs(look, undefined, policy);
    if (!budget.allowsAnother(look, delay)) break;
    await sleep(delay);
    alerts = await alertsReferring(conn, alertsPath, pageMax, refersTo);
  }
  return alerts;
}
