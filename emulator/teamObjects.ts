// Area A's routes besides alerts: webhooks, saved searches (HyperDX external API v2 at b52a6fa;
// docs/design/webhooks-and-saved-searches.md), and dashboards, sources, connections (observability.ts).
// There is no GET of one webhook.

import type { Incoming, Reply, Services } from "./replies";
import { handleWebhooks } from "./webhooks";
import { handleSavedSearches } from "./savedSearches";
import { handleConnections, handleDashboardValidate, handleDashboards, handleSources } from "./observability";

export interface TeamObjectRoute {
  readonly allow: readonly string[];
  readonly handle: (services: Services, req: Incoming) => Reply;
}

const ROUTES: readonly (readonly [RegExp, readonly string[], (s: Services, r: Incoming, id?: string) => Reply])[] = [
  [/^\/api\/v2\/webhooks$/, ["GET", "POST"], handleWebhooks],
  [/^\/api\/v2\/webhooks\/([^/]+)$/, ["PUT", "DELETE"], handleWebhooks],
  [/^\/api\/v2\/saved-searches$/, ["GET", "POST"], handleSavedSearches],
  [/^\/api\/v2\/saved-searches\/([^/]+)$/, ["GET", "PUT", "DELETE"], handleSavedSearches],
  [/^\/api\/v2\/sources$/, ["GET", "POST"], handleSources],
  [/^\/api\/v2\/sources\/([^/]+)$/, ["GET", "PUT", "DELETE"], handleSources],
  [/^\/api\/v2\/connections$/, ["GET", "POST"], handleConnections],
  [/^\/api\/v2\/connections\/([^/]+)$/, ["GET", "PUT", "DELETE"], handleConnections],
  [/^\/api\/v2\/dashboards$/, ["GET", "POST"], handleDashboards],
  // POST validates; the other methods take "validate" as a dashboard's id, as the server's router does.
  [
    /^\/api\/v2\/dashboards\/(validate)$/,
    ["GET", "POST", "PUT", "DELETE"],
    (s, r, id) => (r.method === "POST" ? handleDashboardValidate(s, r) : handleDashboards(s, r, id)),
  ],
  [/^\/api\/v2\/dashboards\/([^/]+)$/, ["GET", "PUT", "DELETE"], handleDashboards],
];

/** The route of `path` among these objects, or undefined. */
export function teamObjectRoute(path: string): TeamObjectRoute | undefined {
  for (const [pattern, allow, handle] of ROUTES) {
    const match = pattern.exec(path);
    if (match === null) continue;
    const id = match[1] === undefined ? undefined : decodeURIComponent(match[1]);
    return { allow, handle: (services, req) => handle(services, req, id) };
  }
  return undefined;
}
