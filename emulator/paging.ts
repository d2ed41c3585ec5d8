// The query of the v2 API's paged lists (alerts, webhooks, saved searches): limit and offset.

import { ALERT_LIST_PAGE_MAX } from "../provider/serviceFacts/alertRules";
import { alertingError, type Incoming, type Reply } from "./replies";

type QueryInteger = { ok: true; value: number | undefined } | { ok: false; message: string };

/** An optional query parameter holding a whole number in [min, max], given at most once. */
export function queryInteger(query: URLSearchParams, name: string, min: number, max: number): QueryInteger {
  const values = query.getAll(name);
  if (values.length === 0) return { ok: true, value: undefined };
  const text = values[0] ?? "";
  if (values.length > 1) return { ok: false, message: `${name}: given ${values.length} times; give it once` };
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `a whole number >= ${min}` : `a whole number from ${min} to ${max}`;
    return { ok: false, message: `${name}: must be ${range}` };
  }
  return { ok: true, value: Number(text) };
}

/**
 * One page of `all`, as the 2026 service answers a list (pagination.ts): `{data, meta: {total,
 * limit, offset}}` and `X-Total-Count`; at most 1000 a page, 1000 when limit is not given.
 */
export function pageOf(req: Incoming, all: readonly unknown[]): Reply {
  const limit = queryInteger(req.query, "limit", 1, ALERT_LIST_PAGE_MAX);
  if (!limit.ok) return alertingError(400, `Query validation failed: ${limit.message}`);
  const offset = queryInteger(req.query, "offset", 0, Number.MAX_SAFE_INTEGER);
  if (!offset.ok) return alertingError(400, `Query validation failed: ${offset.message}`);
  const size = limit.value ?? ALERT_LIST_PAGE_MAX;
  const from = offset.value ?? 0;
  return {
    status: 200,
    body: { data: all.slice(from, from + size), meta: { total: all.length, limit: size, offset: from } },
    headers: { "X-Total-Count": String(all.length) },
  };
}
