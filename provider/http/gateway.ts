// Managed ClickStack through the cloud API's gateway, as a translation at the wire: the alerting
// API's `/api/v2/…` paths under the service's `/clickstack`, and the cloud envelope
// `{status, requestId, result}` read as the alerting API's `{data}`, so nothing above this layer
// knows which it talks to. Sources: docs/design/managed-clickstack.md.

import type { AreaConnection } from "../runtime/connection";
import { API_ROOT_PATH } from "../serviceFacts/alertRules";

/** The path as the service routes it. */
export function gatewayPath(conn: AreaConnection, path: string): string {
  const gateway = conn.gateway;
  if (gateway === undefined) return path;
  if (path === API_ROOT_PATH || path.startsWith(`${API_ROOT_PATH}/`) || path.startsWith(`${API_ROOT_PATH}?`))
    return gateway.pathPrefix + path.slice(API_ROOT_PATH.length);
  return path;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A 2xx answer as the alerting API's: `result` (an object, or a list's bare array) under `data`. */
export function gatewayAnswer(conn: AreaConnection, body: unknown): unknown {
  if (conn.gateway === undefined || !isRecord(body) || !("result" in body)) return body;
  const { result, requestId } = body;
  return requestId === undefined ? { data: result } : { data: result, requestId };
}

/**
 * A 404 as an HTML page: the gateway serves no such route (a wrong cloudUrl or id setting, or a
 * route it does not offer), which says nothing of any object. The cloud API's own 404 is JSON.
 */
export function isUnservedRoute(
  conn: AreaConnection,
  status: number,
  header: (name: string) => string | undefined,
  text: string,
): boolean {
  if (conn.area !== "cloud" || status !== 404) return false;
  if (/^\s*text\/html\b/i.test(header("content-type") ?? "")) return true;
  return /^\s*<(?:!doctype|html)/i.test(text);
}

/** What to check, in words, after an HTML 404. */
export function unservedRouteAdvice(conn: AreaConnection): string {
  const ids =
    conn.gateway === undefined ? "" : ", alertpipe:clickstackOrganizationId and alertpipe:clickstackServiceId";
  return (
    " The gateway answered an HTML page: it serves no such route, so this says nothing of the object, which is not " +
    `taken as gone (nothing is dropped from the stack). Check alertpipe:cloudUrl${ids}.`
  );
}
