// A self-hosted HyperDX team's observability, end to end: the ClickHouse connection, a log source on
// it, a dashboard of three tiles, an alert on one tile named by its tile's name, and an alert on a
// saved search, both to one webhook. Connection settings come from the stack config (alertpipe:*) or
// ALERTPIPE_* environment variables; the password from this project's config (a secret).
//
// Like index.ts, the program is a function returning the stack outputs: a program of your own can
// start from it as its index.ts, and the tests load it as an Automation API inline program.

import * as pulumi from "@pulumi/pulumi";
import { Alert, Connection, Dashboard, SavedSearch, Source, Webhook } from "pulumi-alertpipe";

export = async () => {
  const config = new pulumi.Config();

  const clickhouse = new Connection("clickhouse", {
    name: "clickhouse",
    host: config.get("clickhouseHost") || "http://127.0.0.1:8123",
    username: config.get("clickhouseUser") || "default",
    password: config.getSecret("clickhousePassword") ?? "",
  });

  const logs = new Source("logs", {
    kind: "log",
    name: "Logs",
    connection: clickhouse.id,
    from: { databaseName: "default", tableName: "otel_logs" },
    timestampValueExpression: "Timestamp",
    defaultTableSelectExpression: "Timestamp, ServiceName, SeverityText, Body",
  });

  // Three tiles: a line and a number take alerts; a markdown tile takes none.
  const count = (displayType: "line" | "number", where: string) => ({
    displayType,
    sourceId: logs.id,
    select: [{ aggFn: "count" as const, where }],
  });
  const ops = new Dashboard("ops", {
    name: "Ops",
    tags: ["prod"],
    tiles: [
      { name: "Errors", x: 0, y: 0, w: 6, h: 3, config: count("line", "SeverityText:error") },
      { name: "Requests", x: 6, y: 0, w: 6, h: 3, config: count("number", "") },
      { name: "Runbook", x: 12, y: 0, w: 6, h: 3, config: { displayType: "markdown", markdown: "Page the on-call." } },
    ],
  });

  const oncall = new Webhook("oncall", {
    name: "on-call",
    service: "generic",
    url: config.get("webhookUrl") || "https://hooks.example.com/oncall",
  });
  const channel = { type: "webhook" as const, webhookId: oncall.id };

  // The tile by its name: its id is known once the dashboard is made.
  const errorsHigh = new Alert("errors-high", {
    name: "Errors high",
    source: "tile",
    dashboardId: ops.id,
    // A name that is no tile of ops, or a tile that takes no alert, fails preview with TILE_NOT_ALERTABLE.
    tileId: ops.tile("Errors"),
    threshold: 100,
    thresholdType: "above",
    interval: "5m",
    channel,
  });

  const timeouts = new SavedSearch("timeouts", {
    name: "Timeouts",
    sourceId: logs.id,
    where: "Body:timeout",
  });
  const timeoutsSeen = new Alert("timeouts-seen", {
    name: "Timeouts seen",
    source: "search",
    savedSearchId: timeouts.id,
    threshold: 0,
    thresholdType: "above",
    interval: "5m",
    channel,
  });

  return {
    dashboardId: ops.id,
    tileIds: ops.tileIds,
    tileAlertId: errorsHigh.id,
    searchAlertId: timeoutsSeen.id,
  };
};
