// The spelling of a search alert's `source`: `alertpipe:alertingDialect`, else asked of the service
// once per process and credential. Why asked: docs/design/real-alerting-service.md.

import { send } from "../http/client";
import { isNotFound } from "../http/gone";
import type { AreaConnection } from "../runtime/connection";
import { runtime } from "../runtime/runtime";
import { API_ROOT_PATH, type AlertingDialect } from "../serviceFacts/alertRules";

/** HyperDX answers `{version: "v2"}`; the contract has no such path. Other failures are the write's own. */
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

/** A failed question is asked again by the next write. */
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

/** A tile alert is spelled alike in both, so none is asked. */
export async function dialectFor(conn: AreaConnection, args: { readonly source?: unknown }): Promise<AlertingDialect> {
  return args.source === "search" ? dialectOf(conn) : "contract";
}
