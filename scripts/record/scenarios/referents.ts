// What alerts refer to, made through the API as setup: a webhook, a connection and a log source on
// it (neither contacts ClickHouse), a saved search, a dashboard with one tile, a second webhook.

import type { Session } from "../session";
import { lineTile } from "./observability";

export interface Refs {
  readonly webhookId: string;
  readonly secondHook: string;
  readonly sourceId: string;
  readonly savedSearchId: string;
  readonly dashboardId: string;
  readonly tileId: string;
}

export async function makeReferents(s: Session, tag: string): Promise<Refs> {
  const webhookId = s.id(
    await s.setup("a webhook", "POST", "/api/v2/webhooks", {
      name: `hook-${tag}`,
      service: "generic",
      url: `https://example.com/hooks/${tag}`,
    }),
  );
  const connection = s.id(
    await s.setup("a connection (never contacted)", "POST", "/api/v2/connections", {
      name: `ch-${tag}`,
      host: "http://127.0.0.1:1",
      username: "default",
      password: "",
    }),
  );
  const sourceId = s.id(
    await s.setup("a log source on it", "POST", "/api/v2/sources", {
      kind: "log",
      name: `Logs ${tag}`,
      connection,
      from: { databaseName: "default", tableName: "otel_logs" },
      timestampValueExpression: "Timestamp",
      defaultTableSelectExpression: "Timestamp,Body",
      implicitColumnExpression: "Body",
    }),
  );
  const savedSearchId = s.id(
    await s.setup("a saved search on it", "POST", "/api/v2/saved-searches", {
      name: `errors-${tag}`,
      sourceId,
      where: "level:error",
    }),
  );
  const dashboard = await s.setup("a dashboard with one line tile", "POST", "/api/v2/dashboards", {
    name: `dash-${tag}`,
    tiles: [lineTile("errors", sourceId, 0, 0, [{ aggFn: "count", where: "level:error" }])],
  });
  const made = (dashboard.body as { data?: { id?: unknown; tiles?: { id?: unknown }[] } } | undefined)?.data;
  const tileId = made?.tiles?.[0]?.id;
  if (typeof tileId !== "string") throw new Error(`POST /api/v2/dashboards answered ${dashboard.status}`);
  const secondHook = s.id(
    await s.setup("a second webhook", "POST", "/api/v2/webhooks", {
      name: `second-hook-${tag}`,
      service: "generic",
      url: "https://example.com/hooks/second",
    }),
  );
  const refs = { webhookId, secondHook, sourceId, savedSearchId, dashboardId: s.id(dashboard), tileId };
  for (const [name, id] of Object.entries(refs)) s.name(name, id);
  return refs;
}
