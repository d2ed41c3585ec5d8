// What the Dashboard resource sends (provider/dashboard/behaviour.ts: tiles with the ids they keep on
// a PUT, removed properties as empty values), and what the server does with tile ids and with the
// alerts on tiles a PUT drops or turns into a chart that takes no alert, or a delete takes away.

import type { Scenario } from "../scenario";
import type { Session } from "../session";
import { ALERTS, WEBHOOKS } from "./rows";
import {
  CONNECTIONS,
  DASHBOARDS,
  NOTHING,
  SOURCES,
  aConnection,
  aLogSource,
  lineTile,
  made,
  tileIdsIn,
  withDisplay,
} from "./observability";

type Obj = Record<string, unknown>;

const alertOn = (webhookId: string, dashboardId: string, tileId: string, name: string): Obj => ({
  threshold: 5,
  interval: "5m",
  source: "tile",
  thresholdType: "above",
  channel: { type: "webhook", webhookId },
  dashboardId,
  tileId,
  name,
});

/** The four tiles the rows move, rename, drop and retype. */
const tilesOn = (sourceId: string): Obj[] => [
  { ...lineTile("Errors", sourceId), id: "my-tile-id" },
  { name: "Volume", x: 6, y: 0, w: 6, h: 3, config: { displayType: "number", sourceId, select: [{ aggFn: "count" }] } },
  {
    name: "Latency",
    x: 12,
    y: 0,
    w: 6,
    h: 3,
    config: {
      displayType: "line",
      sourceId,
      select: [{ aggFn: "quantile", level: 0.99, valueExpression: "Duration" }],
    },
  },
  {
    name: "Rows",
    x: 18,
    y: 0,
    w: 6,
    h: 3,
    containerId: "main",
    tabId: "first",
    config: { displayType: "table", sourceId, select: [{ aggFn: "count" }] },
  },
];

const EXTRAS = {
  tags: ["bars", "ops", "bars"],
  filters: [{ type: "QUERY_EXPRESSION", name: "Service", expression: "ServiceName", sourceId: "" }],
  savedQuery: "level:error",
  savedFilterValues: [{ type: "sql", condition: "ServiceName = 'api'" }],
  containers: [{ id: "main", title: "Main", collapsed: false, tabs: [{ id: "first", title: "First" }] }],
};

async function alertGone(s: Session, what: string, id: string) {
  // The status says it; the alert scenario holds the words.
  await s.row(what, "GET", `${ALERTS}/${id}`);
}

export const dashboards: Scenario = {
  name: "dashboards",
  about:
    "What the Dashboard resource sends, and the server's answers: tile ids (new on POST; kept on PUT when sent, " +
    "wherever the tile moves, whatever its name), the alerts a PUT or a delete removes with their tiles, what a PUT " +
    "keeps unsent and empty values clear, and what the server checks.",
  async run(s) {
    const connection = await made(s, "a connection", CONNECTIONS, aConnection("ch-dashboards"));
    const sourceId = s.name("sourceId", await made(s, "a log source", SOURCES, aLogSource(connection)));
    const webhookId = s.name(
      "webhookId",
      await made(s, "a webhook", WEBHOOKS, { name: "hook-dash", service: "generic", url: "https://example.com/d" }),
    );
    const tiles = tilesOn(sourceId);
    const extras = { ...EXTRAS, filters: EXTRAS.filters.map((f) => ({ ...f, sourceId })) };
    const created = await s.row(
      "create a dashboard of four tiles and every extra (a sent tile id ignored)",
      "POST",
      DASHBOARDS,
      {
        name: "Service health",
        tiles,
        ...extras,
      },
    );
    const id = s.name("dashboardId", s.id(created));
    const [errors, volume, latency, rows] = tileIdsIn(created) as [string, string, string, string];
    for (const [name, tile] of Object.entries({ errors, volume, latency, rows })) s.name(`${name}TileId`, tile);
    const alerts: Record<string, string> = {};
    for (const [name, tile] of Object.entries({ errors, volume, latency }))
      alerts[name] = s.id(await s.setup(`an alert on ${name}`, "POST", ALERTS, alertOn(webhookId, id, tile, name)));
    alerts.rows = s.id(
      await s.row("create an alert on the table tile (accepted)", "POST", ALERTS, alertOn(webhookId, id, rows, "rows")),
    );
    await s.row(
      "create an alert on a tile that does not exist (refused)",
      "POST",
      ALERTS,
      alertOn(webhookId, id, NOTHING, "x"),
    );
    await s.row("read the dashboard", "GET", `${DASHBOARDS}/${id}`);
    await s.row("list dashboards (not paged, full tiles)", "GET", DASHBOARDS);

    // The resource's update: Errors moved and Latency renamed in place, sent with their ids; Volume
    // sent without (a new id: its alert goes); Rows unchanged (a table: its alert goes anyway). The
    // filter goes back with the id the service gave it, as the resource sends it.
    const filterIds = ((created.body as { data?: { filters?: { id?: unknown }[] } }).data?.filters ?? []).map(
      (f) => f.id,
    );
    const kept = { ...extras, filters: extras.filters.map((f, i) => ({ ...f, id: filterIds[i] })) };
    const moved = [
      { ...lineTile("Errors", sourceId, 6, 8), id: errors },
      { ...tiles[1], id: undefined },
      { ...tiles[2], id: latency, name: "p99 latency" },
      { ...tiles[3], id: rows },
    ];
    await s.row(
      "update it: a tile moved, one renamed with its id, one sent without id (whole body)",
      "PUT",
      `${DASHBOARDS}/${id}`,
      { name: "Service health", tiles: moved, ...kept },
    );
    await s.row("read the moved tile's alert (kept)", "GET", `${ALERTS}/${alerts.errors}`);
    await s.row("read the renamed tile's alert (kept)", "GET", `${ALERTS}/${alerts.latency}`);
    await alertGone(s, "read the alert of the tile sent without id (deleted)", alerts.volume ?? "");
    await alertGone(s, "read the alert on the table tile (deleted)", alerts.rows);
    await s.row(
      "update it with a filter added without id (refused: a PUT's filters need ids)",
      "PUT",
      `${DASHBOARDS}/${id}`,
      {
        name: "Service health",
        tiles: moved,
        ...kept,
        filters: [...kept.filters, { ...extras.filters[0], name: "Host", expression: "Host" }],
      },
    );
    await s.row("update it with a filter added with an empty id (a new id)", "PUT", `${DASHBOARDS}/${id}`, {
      name: "Service health",
      tiles: moved,
      ...kept,
      filters: [...kept.filters, { ...extras.filters[0], name: "Host", expression: "Host", id: "" }],
    });
    await s.row(
      "update it with name and tiles only (tags, filters, savedQuery, containers kept)",
      "PUT",
      `${DASHBOARDS}/${id}`,
      {
        name: "Service health",
        tiles: moved,
      },
    );
    // Errors turned into a table, same id: its alert goes.
    const retyped = [withDisplay(moved[0] as Obj, "table"), ...moved.slice(1)];
    await s.row("update it: a tile's display type changed to table, same id", "PUT", `${DASHBOARDS}/${id}`, {
      name: "Service health",
      tiles: retyped,
    });
    await alertGone(s, "read the retyped tile's alert (deleted)", alerts.errors ?? "");
    const emptied = {
      tags: [],
      filters: [],
      containers: [],
      savedFilterValues: [],
      savedQuery: null,
      savedQueryLanguage: null,
    };
    await s.row(
      "update it with the containers removed while a tile names one (refused)",
      "PUT",
      `${DASHBOARDS}/${id}`,
      {
        name: "Service health",
        tiles: retyped,
        ...emptied,
      },
    );
    const { containerId: _c, tabId: _t, ...uncontained } = retyped[3] as Obj;
    await s.row(
      "update it with the extras removed, as the resource sends them (empties)",
      "PUT",
      `${DASHBOARDS}/${id}`,
      {
        name: "Service health",
        tiles: [...retyped.slice(0, 3), uncontained],
        ...emptied,
      },
    );
    await s.row("update it without tiles (refused)", "PUT", `${DASHBOARDS}/${id}`, { name: "Service health" });

    // What the server checks at create.
    const one = (tile: Obj): Obj => ({ name: "checks", tiles: [tile] });
    const line = lineTile("a", sourceId);
    await s.row("create a tile at x 24 (refused)", "POST", DASHBOARDS, one({ ...line, x: 24 }));
    await s.row(
      "create a tile at x 20 of width 12 (x + w not checked)",
      "POST",
      DASHBOARDS,
      one({ ...line, x: 20, w: 12 }),
    );
    await s.row("create a tile without config (refused)", "POST", DASHBOARDS, one({ ...line, config: undefined }));
    await s.row(
      "create a tile on a source that does not exist (refused)",
      "POST",
      DASHBOARDS,
      one(lineTile("a", NOTHING)),
    );
    await s.row(
      "create a number tile of two selects (refused)",
      "POST",
      DASHBOARDS,
      one({
        ...line,
        config: { displayType: "number", sourceId, select: [{ aggFn: "count" }, { aggFn: "count" }] },
      }),
    );
    await s.row(
      "create a count with a value expression (refused)",
      "POST",
      DASHBOARDS,
      one({
        ...line,
        config: { displayType: "line", sourceId, select: [{ aggFn: "count", valueExpression: "Duration" }] },
      }),
    );
    await s.row(
      "create a dashboard of empty name, two tiles named alike, one unnamed, unknown fields (accepted, dropped)",
      "POST",
      DASHBOARDS,
      {
        name: "",
        bogus: 1,
        tiles: [
          lineTile("a", sourceId),
          lineTile("a", sourceId, 6),
          { ...lineTile("", sourceId, 12), bogusTile: 2 },
          {
            name: "notes",
            x: 18,
            y: 0,
            w: 6,
            h: 3,
            config: { displayType: "markdown", markdown: "hi", bogusConfig: 3 },
          },
          withDisplay(lineTile("bars", sourceId, 0, 3), "stacked_bar"),
        ],
      },
      { deliberate: true },
    );
    await s.row("create a saved filter value of type lucene (refused: sql only)", "POST", DASHBOARDS, {
      ...one(line),
      savedFilterValues: [{ type: "lucene", condition: "ServiceName:api" }],
    });
    await s.row("create a filter with an id (refused: ids are the service's on create)", "POST", DASHBOARDS, {
      ...one(line),
      filters: [{ ...extras.filters[0], id: "my-filter" }],
    });
    await s.row("create a saved filter value without type (given sql)", "POST", DASHBOARDS, {
      ...one(line),
      savedFilterValues: [{ condition: "ServiceName = 'api'" }],
    });
    await s.row(
      "create a tile in a container that does not exist (refused)",
      "POST",
      DASHBOARDS,
      one({ ...line, containerId: "nope" }),
    );
    await s.row("create a tile in a tab that does not exist (refused)", "POST", DASHBOARDS, {
      ...one({ ...line, containerId: "main", tabId: "nope" }),
      containers: extras.containers,
    });
    await s.row("validate a good body", "POST", `${DASHBOARDS}/validate`, one(line));
    await s.row(
      "validate a tile on a source that does not exist",
      "POST",
      `${DASHBOARDS}/validate`,
      one(lineTile("a", NOTHING)),
      {
        deliberate: true,
      },
    );
    await s.row("validate a tile at x 30", "POST", `${DASHBOARDS}/validate`, one({ ...line, x: 30 }), {
      deliberate: true,
    });

    // A second dashboard: a tile id of the first one sent to it is not kept.
    const other = await s.setup("another dashboard", "POST", DASHBOARDS, {
      name: "Other",
      tiles: [lineTile("x", sourceId)],
    });
    await s.row(
      "update the other dashboard with the first one's tile id (a new id)",
      "PUT",
      `${DASHBOARDS}/${s.id(other)}`,
      {
        name: "Other",
        tiles: [{ ...lineTile("x", sourceId), id: latency }],
      },
    );

    await s.row("read a dashboard that does not exist", "GET", `${DASHBOARDS}/${NOTHING}`, undefined, { words: true });
    await s.row("update a dashboard that does not exist", "PUT", `${DASHBOARDS}/${NOTHING}`, { name: "x", tiles: [] });
    await s.row("delete the dashboard (its alerts deleted with it)", "DELETE", `${DASHBOARDS}/${id}`);
    await alertGone(s, "read the renamed tile's alert after the delete (deleted)", alerts.latency ?? "");
    await s.row("delete a dashboard that does not exist (200)", "DELETE", `${DASHBOARDS}/${NOTHING}`);
  },
};
