// Which spelling of a search alert's `source` the alerting service speaks: the config's
// `alertpipe:alertingDialect` when set, else the service's own answer to `GET /api/v2`, asked once
// per process and credential, and only when a search alert is written (a tile alert is spelled
// alike by both). Why asked and not guessed: docs/design/real-alerting-service.md.

import { send } from "../http/client";
import { isNotFound } from "../http/gone";
import type { AreaConnection } from "../runtime/connection";
import { runtime } from "../runtime/runtime";
import { API_ROOT_PATH, type AlertingDialect } from "../serviceFacts/alertRules";

/**
 * HyperDX answers `{version: "v2", user}`; the contract has no such path (404). Any other failure
 * (a 401, the network) is the request's own error, as the write after it would meet.
 */
async function ask(conn: AreaConnection): Promise<AlertingDialect> {
  try {
    const res = await send(conn, { method: "GET", path: API_ROOT_PATH });
    const body = res.body as { version?: unknown } | undefined;
    return typeof body === "object" && body !== null && body.version === "v2" ? "2026" : "contract";
  } catch (err) {
    if (isNotFound(err)) return "contract";
    throw err;
  }
}

/** The dialect `conn`'s service speaks; a failed question is asked again by the next write. */
export function dialectOf(conn: AreaConnection): Promise<AlertingDialect> {
  if (conn.dialect !== undefined) return Promise.resolve(conn.dialect);
  const asked = (runtime().dialects ??= new Map<string, Promise<AlertingDialect>>());
  const known = asked.get(conn.credentialId);
  if (known !== undefined) return known;
  const answer = ask(conn);
  asked.set(conn.credentialId, answer);
  answer.catch(() => {
    if (asked.get(conn.credentialId) === answer) asked.delete(conn.credentialId);
  });
  return answer;
}

/** The dialect a write of `args` must be spelled in: a tile alert's body is the same in both, so none is asked. */
export async function dialectFor(conn: AreaConnection, args: { readonly source?: unknown }): Promise<AlertingDialect> {
  return args.source === "search" ? dialectOf(conn) : "contract";
}
