// A dashboard's tiles keep their ids across updates (keptTileIds), since the service deletes the
// alerts of a tile whose id a PUT does not send. What it deletes anyway is said before the PUT, and a
// delete is refused while alerts outside the stack sit on the dashboard.

import { connectionFor, isManagedClickStack, type AreaConnection } from "../runtime/connection";
import { checkedWithCredential } from "../http/credentials";
import { send } from "../http/client";
import { StillReferencedError } from "../errors";
import { createRecovering, createdId } from "../creation/recovery";
import { importIdParts, keptByReplacement, listedForImport } from "../creation/importing";
import { partsClaimedThisRun } from "../creation/runClaims";
import { alertsReferring, alertsStillReferring, type Listed } from "../reading/pagedList";
import { notify } from "../runtime/notices";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import type { CheckFailure } from "../protocol/check";
import { importIdFormOf, type ArgsOf, type StateOf } from "../protocol/definition";
import { UNKNOWN, type RawInputs } from "../protocol/properties";
import { wholeObject } from "../protocol/wholeObject";
import { withKept } from "../protocol/keptFields";
import { ALERTS_DELETED_THIS_RUN, ALERTS_PATH, LIST_PAGE_MAX, sitsOnDashboard } from "../serviceFacts/alertRules";
import { NOT_ON_MANAGED_CLICKSTACK } from "../serviceFacts/observability";
import { DASHBOARD, TILE_CONFIG } from "./definition";
import { configFromWire, configToWire, isAlertable, keptTileIds, tileIdsOf, tileIndexOf } from "./tiles";
import { DASHBOARDS } from "./wire";

type Args = ArgsOf<typeof DASHBOARD>;
type State = StateOf<typeof DASHBOARD>;
type Tile = Args["tiles"][number];
type Obj = Record<string, unknown>;

const WHOLE = wholeObject(DASHBOARD, () => false);

/**
 * A tile's containerId and tabId must name one of the dashboard's containers and its tabs: the
 * service refuses the update otherwise. Unknown values (preview) are left alone.
 */
export function containerFailures(inputs: RawInputs): CheckFailure[] {
  const { tiles, containers } = inputs;
  if (!Array.isArray(tiles) || (containers !== undefined && containers !== null && !Array.isArray(containers)))
    return [];
  const list: unknown[] = Array.isArray(containers) ? containers : [];
  if (list.some((c) => !isObj(c) || typeof c.id !== "string")) return [];
  const failures: CheckFailure[] = [];
  tiles.forEach((tile: unknown, i) => {
    if (!isObj(tile) || typeof tile.containerId !== "string") return;
    const container = list.find((c) => isObj(c) && c.id === tile.containerId) as Obj | undefined;
    if (container === undefined) {
      failures.push({
        property: "",
        reason: `tiles[${i}].containerId must name one of the dashboard's containers; "${tile.containerId}" is none (the service refuses it)`,
      });
      return;
    }
    const tabs: unknown[] = Array.isArray(container.tabs) ? container.tabs : [];
    if (typeof tile.tabId === "string" && !tabs.some((tab) => isObj(tab) && tab.id === tile.tabId))
      failures.push({
        property: "",
        reason: `tiles[${i}].tabId must name one of container "${tile.containerId}"'s tabs; "${tile.tabId}" is none (the service refuses it)`,
      });
  });
  return failures;
}

/** A tile config's members managed ClickStack's schemas lack: it would drop them, and every refresh differ. */
function managedFailures(inputs: RawInputs): CheckFailure[] {
  if (!isManagedClickStack() || !Array.isArray(inputs.tiles)) return [];
  const failures: CheckFailure[] = [];
  inputs.tiles.forEach((tile: unknown, i) => {
    const config = isObj(tile) ? tile.config : undefined;
    if (!isObj(config)) return;
    for (const field of NOT_ON_MANAGED_CLICKSTACK.tileConfig)
      if (config[field] !== undefined && config[field] !== null)
        failures.push({
          // Nested, as zod's own: no top-level property named, the path leads the reason.
          property: "",
          reason:
            `tiles[${i}].config.${field} is not a field of managed ClickStack's tiles (alertpipe:clickstackOrganizationId and ` +
            "clickstackServiceId): the Cloud API's chart configs have no formulas, seriesLimit or showOperandSeries; " +
            "leave it out",
        });
  });
  return failures;
}

async function check(_olds: RawInputs, news: RawInputs) {
  return checkedWithCredential<Args>("alerting", DASHBOARD, news, (inputs) => [
    ...managedFailures(inputs),
    ...containerFailures(inputs),
  ]);
}

const describe = (args: Args) => `the dashboard "${args.name}"`;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

function tileToWire(tile: Tile, id: string | undefined): Obj {
  const { id: _ignored, config, ...rest } = tile;
  return compact({ ...(id === undefined ? {} : { id }), ...rest, config: configToWire(compact(config)) });
}

/**
 * Filters keep the ids the service gave them, matched by name. A POST refuses an id; a PUT needs one
 * on every filter, "" for a new one (the service then gives it one).
 */
function filtersToWire(filters: Args["filters"], olds: State["filters"] | undefined, verb: "POST" | "PUT") {
  if (filters === undefined || filters === null) return undefined;
  const known = new Map((olds ?? []).map((f) => [f.name, f.id]));
  return filters.map((f) => compact({ ...f, id: known.get(f.name) ?? (verb === "PUT" ? "" : undefined) }));
}

/**
 * A POST sends what the program sets; a PUT also sends what it removed, emptied, since the service
 * keeps what a PUT leaves out. Tiles carry the ids they keep.
 */
function bodyOf(args: Args, tileIds: readonly (string | undefined)[], olds?: State): Obj {
  const body: Obj = {
    name: args.name,
    tiles: args.tiles.map((t, i) => tileToWire(t, tileIds[i])),
  };
  const filters = filtersToWire(args.filters, olds?.filters, olds === undefined ? "POST" : "PUT");
  const set = { tags: args.tags, filters, savedQuery: args.savedQuery, savedQueryLanguage: args.savedQueryLanguage };
  Object.assign(body, compact({ ...set, savedFilterValues: args.savedFilterValues, containers: args.containers }));
  if (olds !== undefined)
    for (const [name, empty] of [
      ["tags", []],
      ["filters", []],
      ["containers", []],
      ["savedFilterValues", []],
      ["savedQuery", null],
      ["savedQueryLanguage", null],
    ] as const)
      if (body[name] === undefined) body[name] = empty;
  return body;
}

/** The answer in the program's spelling: a search tile's select is its searchSelect. */
function answered(res: { readonly body: unknown }): Obj | undefined {
  const answer = DASHBOARDS.objectIn(res.body);
  if (answer === undefined || !Array.isArray(answer.tiles)) return answer;
  return {
    ...answer,
    tiles: answer.tiles.map((t: unknown) => (isObj(t) ? { ...t, config: configFromWire(t.config) } : t)),
  };
}

function outputsOf(answer: Obj | undefined, kept: Partial<State> | Args, stored: State): State {
  const outputs = WHOLE.outputs(answer, kept, stored);
  return {
    ...outputs,
    tileIds: tileIdsOf(outputs.tiles ?? []),
    tileIndex: tileIndexOf(outputs.name, outputs.tiles ?? []),
  };
}

async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("alerting");
  if (typeof args.importId === "string") return takeOver(conn, args.importId.trim(), args);
  const description = describe(args);
  return createRecovering<Created<State>, { id: string; dashboard: Listed }>({
    description,
    post: async () => {
      const res = await send(conn, {
        method: "POST",
        path: DASHBOARDS.path(),
        body: bodyOf(args, []),
        creates: description,
      });
      const id = createdId(res, description, DASHBOARDS.created);
      return { id, outputs: outputsOf(answered(res), args, {}) };
    },
    // Dashboards carry no creation time: a same-named one with the same tile names, which no one else made.
    look: async () =>
      [...(await DASHBOARDS.list(conn))]
        .filter(
          ([, d]) =>
            d.name === args.name &&
            Array.isArray(d.tiles) &&
            JSON.stringify(d.tiles.map((t: unknown) => (isObj(t) ? t.name : undefined))) ===
              JSON.stringify(args.tiles.map((t) => t.name)),
        )
        .map(([id, dashboard]) => ({ id, dashboard })),
    adopt: async (found) => ({ id: found.id, outputs: outputsOf(found.dashboard, args, {}) }),
  });
}

/** One read; a PUT only when it differs, keeping the tiles' ids as any update does. */
async function takeOver(conn: AreaConnection, importId: string, args: Args): Promise<Created<State>> {
  const got = await listedForImport("dashboard", importId, DASHBOARDS.path(), () => DASHBOARDS.read(conn, importId));
  const live = outputsOf(answered(got), {}, {});
  if (!WHOLE.diff(live, withLanguage(args)).changes)
    return { id: importId, outputs: outputsOf(answered(got), args, {}) };
  return { id: importId, outputs: await put(conn, importId, live, args, DASHBOARDS.objectIn(got.body)) };
}

async function read(id: string, stored: State): Promise<Found<typeof DASHBOARD> | undefined> {
  const res = await DASHBOARDS.read(connectionFor("alerting"), id);
  if (res === undefined) return undefined;
  const outputs = outputsOf(answered(res), stored, stored);
  return { id, outputs, inputs: inputsOf(outputs) };
}

/** Tiles' and filters' ids are the service's: a program never writes them. */
function inputsOf(outputs: State): Found<typeof DASHBOARD>["inputs"] {
  const inputs = { ...WHOLE.inputs(outputs) };
  const without = <T extends { id?: unknown }>(list: readonly T[]) =>
    list.map((item) => {
      const { id: _id, ...rest } = item;
      return rest;
    });
  if (Array.isArray(inputs.tiles)) inputs.tiles = without(inputs.tiles) as Args["tiles"];
  if (Array.isArray(inputs.filters)) inputs.filters = without(inputs.filters) as Args["filters"];
  return inputs;
}

/** Old tile ids the update leaves without an alertable tile: the service deletes their alerts. */
function lostTileIds(olds: State, news: Args, kept: readonly (string | undefined)[]): string[] {
  const alertableAfter = new Set(kept.filter((id, i) => id !== undefined && isAlertable(news.tiles[i]?.config)));
  return (olds.tiles ?? [])
    .map((t) => t.id)
    .filter((id): id is string => typeof id === "string" && !alertableAfter.has(id));
}

async function warnOfDeletedAlerts(conn: AreaConnection, id: string, lost: readonly string[], what: string) {
  if (lost.length === 0) return;
  const alerts = await alertsReferring(conn, ALERTS_PATH, LIST_PAGE_MAX, (a) =>
    lost.some((tile) => sitsOnDashboard(a, id, tile)),
  );
  if (alerts.length === 0) return;
  notify(
    `pulumi-alertpipe: warning: ${what} (id ${id}) drops, or turns into a chart that takes no alert, a tile that ${alerts.length} ` +
      `alert(s) sit on: ${alerts.join(", ")}. The service deletes those alerts with this update; this stack's own alerts on ` +
      "them are replaced on another tile when their tileId changes.",
  );
}

/** One GET, then the PUT: the PUT replaces every tile whole. */
async function update(id: string, olds: State, news: Args): Promise<State> {
  const conn = connectionFor("alerting");
  return put(conn, id, olds, news, await DASHBOARDS.held(conn, id));
}

async function put(conn: AreaConnection, id: string, olds: State, news: Args, held: Obj | undefined): Promise<State> {
  const kept = keptTileIds(olds.tiles ?? [], news.tiles);
  await warnOfDeletedAlerts(conn, id, lostTileIds(olds, news, kept), describe(news));
  const body = withKeptTileMembers(bodyOf(news, kept, olds), held);
  const res = await send(conn, { method: "PUT", path: DASHBOARDS.path(id), body });
  return outputsOf(answered(res), news, olds);
}

/** A tile's config keeps its unnamed members (colorRules, backgroundChart, onClick) while it is the same chart. */
const sameChart = (ours: Obj, held: Obj): boolean =>
  ours.displayType === held.displayType && (ours.configType ?? undefined) === (held.configType ?? undefined);

/**
 * What the service holds that Dashboard does not name, sent back: each tile's (matched by the id it
 * keeps) and each filter's unnamed members. Both wire form.
 */
function withKeptTileMembers(body: Obj, held: Obj | undefined): Obj {
  return withKept(DASHBOARD, body, held, { [TILE_CONFIG.name]: sameChart });
}

/** The stack's own alerts are deleted before it, or by this run: any others would go with it. */
async function del(id: string): Promise<void> {
  if (keptByReplacement("dashboard", id)) return;
  const conn = connectionFor("alerting");
  const path = DASHBOARDS.path(id);
  const own = partsClaimedThisRun(ALERTS_DELETED_THIS_RUN);
  const alerts = await alertsStillReferring(
    conn,
    ALERTS_PATH,
    LIST_PAGE_MAX,
    (a) => sitsOnDashboard(a, id) && !(typeof a.id === "string" && own.has(a.id)),
  );
  if (alerts.length > 0) throw new StillReferencedError({ method: "DELETE", path }, "dashboard", alerts);
  // A missing dashboard answers 200 as well.
  await send(conn, { method: "DELETE", path });
}

/** The language the service answers with a savedQuery set and none said. */
const withLanguage = (args: Args): Args =>
  typeof args.savedQuery === "string" && (args.savedQueryLanguage ?? undefined) === undefined
    ? { ...args, savedQueryLanguage: "lucene" }
    : args;

function previewUpdate(olds: State, news: Args): State {
  const kept = keptTileIds(olds.tiles ?? [], news.tiles);
  const tiles = news.tiles.map((t, i) => ({ ...t, id: kept[i] ?? UNKNOWN }));
  const preview = WHOLE.previewUpdate(olds, { ...withLanguage(news), tiles });
  return { ...preview, tileIds: tileIdsOf(tiles), tileIndex: tileIndexOrUnknown(news) };
}

/** Known in preview from the program's tiles, whenever their names and display types are. */
const tileIndexOrUnknown = (args: Args): State["tileIndex"] =>
  tileIndexOf(args.name, args.tiles) ?? (UNKNOWN as unknown as State["tileIndex"]);

function previewCreate(args: Args): State {
  const preview: State = WHOLE.previewCreate(args);
  return { ...preview, tileIds: UNKNOWN as unknown as Record<string, string>, tileIndex: tileIndexOrUnknown(args) };
}

/** A listed or read dashboard as its outputs: the program's spelling, with tileIds (the lookups'). */
export const dashboardAsLookedUp = (dashboard: unknown): State =>
  outputsOf(answered({ body: { data: dashboard } }), {}, {});

export const behaviour = behaviourOf(DASHBOARD, {
  check,
  diff: async (_id, olds, news) => WHOLE.diff(olds, withLanguage(news)),
  create,
  read,
  readImported: async (importId) =>
    read(importIdParts("dashboard", importId, importIdFormOf(DASHBOARD), "opaque")[0] ?? "", {}),
  update,
  delete: del,
  previewCreate,
  previewUpdate: (_id, olds, news) => previewUpdate(olds, news),
});
