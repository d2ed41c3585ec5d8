// Every argument changes in place: PUT replaces the whole body. A create whose answer is lost
// finds what it made by listing (lookup.ts); one with importId takes over an existing alert.

import { configuredDialect, connectionFor, isManagedClickStack, type AreaConnection } from "../runtime/connection";
import { send } from "../http/client";
import { checkedWithCredential } from "../http/credentials";
import { unlessGone } from "../http/gone";
import { TileNotAlertableError } from "../errors";
import { memberPath } from "../http/paths";
import { DASHBOARDS_PATH, tileIdProblem, tileNameProblem, type TileFacts } from "../serviceFacts/observability";
import { importIdParts, keptByReplacement, readForImport } from "../creation/importing";
import { createRecovering, createdId } from "../creation/recovery";
import { readListed } from "../reading/listedReads";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import { INVALID_INPUT, type CheckFailure } from "../protocol/check";
import { comparedForm, namesWith, outputNames, outputRules, type PropertyDef } from "../protocol/definition";
import { importIdFormOf } from "../protocol/definition";
import { changeOf, deepEqual, diffProperties, hasChanged, type Diff } from "../protocol/diff";
import { managedIn } from "../protocol/managed";
import { outputsFrom } from "../protocol/outputRules";
import { previewOutputs } from "../protocol/preview";
import { UNKNOWN, containsUnknown, pick, type RawInputs, type Values } from "../protocol/properties";
import {
  MANAGED_CHANNEL_MEMBERS,
  RANGE_THRESHOLD_TYPES,
  SCHEDULE_START_WINDOW_DAYS,
  channelKey,
  channelsProblem,
  intervalMinutes,
  scheduleStartProblem,
  thresholdMaxProblem,
  ALERTS_DELETED_THIS_RUN,
} from "../serviceFacts/alertRules";
import { claimForThisRun } from "../creation/runClaims";
import { ALERT } from "./definition";
import { alertCollection, alertsMadeBy, matchesWhatIsSent, type AlertCandidate } from "./lookup";
import { alertIn, alertsPath, createdAlert, fromWire, takesOneChannel, toWire, type Args, type State } from "./wire";
import { dialectFor, dialectOf } from "./dialect";

type Output = keyof State;
/** Every argument but importId. */
type Argument = Output & keyof Args;
const property = (n: Output): PropertyDef => ALERT.properties[n];
const both = (n: Output): n is Argument => property(n).role === "both";
/** Always managed. */
const REQUIRED_ARGS = outputNames(ALERT)
  .filter(both)
  .filter((n) => property(n).required === true);
/** Recorded whenever answered (a 2026 service answers both), compared as one list. */
const CHANNEL_ARGS: readonly Output[] = ["channel", "channels"];
/** Managed only when the program sets them. */
const OPTIONAL_ARGS = outputNames(ALERT)
  .filter(both)
  .filter((n) => !REQUIRED_ARGS.includes(n) && !CHANNEL_ARGS.includes(n));
const ARG_NAMES = [...REQUIRED_ARGS, ...OPTIONAL_ARGS];
const OUTPUT_ONLY = outputNames(ALERT).filter((n) => !both(n));
/** Empty: PUT replaces the whole body in place. */
const REPLACE_ON = namesWith(ALERT, "replaces");
/** What a PUT cannot change: when the alert was made, and whose it is. */
const STABLE_OUTPUTS = namesWith(ALERT, "stable");
const RULES = outputRules(ALERT);
const compared = comparedForm(ALERT);

function recorded(props: Values, managed: readonly Output[] = managedIn(OPTIONAL_ARGS, props)): Output[] {
  return [...REQUIRED_ARGS, ...CHANNEL_ARGS, ...managed, ...OUTPUT_ONLY];
}

type Channels = Pick<State, "channel" | "channels">;

/** `channels`, else `channel`. In preview either may still be Pulumi's unknown, a string. */
function channelList(props: Channels): readonly unknown[] | undefined {
  if (Array.isArray(props.channels)) return props.channels;
  return props.channel === undefined || props.channel === null ? undefined : [props.channel];
}

/** Compared as lists; unknown ones differ. */
function channelsDiffer(olds: Channels, news: Channels): boolean {
  const before = channelList(olds);
  const after = channelList(news);
  // Alike member by member, so alike by key: a refresh finds most so, and keys cost a JSON each.
  if (before !== undefined && after !== undefined && sameObjects(before, after)) return false;
  const keyed = (list: readonly unknown[] | undefined) =>
    list?.map((c) => (typeof c === "object" && c !== null ? channelKey(c) : String(c)));
  return hasChanged("channels", keyed(before), keyed(after));
}

function sameObjects(before: readonly unknown[], after: readonly unknown[]): boolean {
  return (
    before.length === after.length &&
    after.every((c, i) => typeof c === "object" && c !== null && deepEqual(c, before[i]))
  );
}

/**
 * The service keeps these when a PUT leaves them out, so a dropped schedule is cleared outright.
 * thresholdMax has no clear; one left on an alert no longer of a range type is unused and unmanaged.
 */
function clears(olds: State, news: Args): { scheduleStartAt?: null; scheduleOffsetMinutes?: 0 } {
  const out: { scheduleStartAt?: null; scheduleOffsetMinutes?: 0 } = {};
  if (olds.scheduleStartAt !== undefined && news.scheduleStartAt === undefined) out.scheduleStartAt = null;
  if (olds.scheduleOffsetMinutes !== undefined && news.scheduleOffsetMinutes === undefined)
    out.scheduleOffsetMinutes = 0;
  return out;
}

/** An optional argument the program leaves out is not recorded: the service's choice is not drift. */
function outputsAfterWrite(args: Args, body: unknown, before: State = {}): State {
  const alert = alertIn(body);
  // An empty 2xx tells nothing new.
  return outputsFrom<State, Output>(RULES, recorded(args), alert === undefined ? {} : fromWire(alert), {
    program: args,
    stored: alert === undefined ? before : {},
  });
}

// The tile a "tile" alert watches, checked before the alert is sent: by name against the dashboard's
// tileIndex (no request), and by name or id against the dashboard the service holds (one GET, never
// served by a run's listing, so it sees what this run wrote to the dashboard before).

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const known = (v: unknown): v is string => typeof v === "string" && v !== "" && v !== UNKNOWN;

/** What of an alert's arguments names its tile. */
interface TileChoice {
  readonly dashboardId?: unknown;
  readonly tileId?: unknown;
  readonly tileName?: unknown;
  readonly tileIndex?: unknown;
}

/** The problem with `tileName` against a known `tileIndex`, or undefined (also while either is unknown). */
function tileIndexProblem(choice: TileChoice): string | undefined {
  const index = choice.tileIndex;
  if (!known(choice.tileName) || !isObj(index) || containsUnknown(index)) return undefined;
  const tiles = isObj(index.tiles) ? index.tiles : {};
  const facts: TileFacts[] = Object.entries(tiles).map(([name, displayType]) => ({ name, displayType }));
  return tileNameProblem(`the dashboard "${String(index.dashboard)}"`, facts, choice.tileName);
}

/** The dashboard's tiles as the service holds them; undefined when there is no such dashboard. */
async function heldDashboard(
  conn: AreaConnection,
  id: string,
): Promise<{ name: string; tiles: TileFacts[] } | undefined> {
  const res = await unlessGone(() => send(conn, { method: "GET", path: memberPath("dashboard", DASHBOARDS_PATH, id) }));
  const data = res !== undefined && isObj(res.body) && isObj(res.body.data) ? res.body.data : undefined;
  if (data === undefined) return undefined;
  const tiles = Array.isArray(data.tiles) ? data.tiles.filter(isObj) : [];
  return {
    name: typeof data.name === "string" ? data.name : id,
    tiles: tiles.map((t) => ({
      name: t.name,
      id: t.id,
      displayType: isObj(t.config) ? t.config.displayType : undefined,
    })),
  };
}

/**
 * What the dashboard the service holds says of the choice: the tile's id, or the problem (worded
 * with the dashboard's name and id). Undefined problem and id: nothing to check (no known id).
 */
async function tileOnService(
  conn: AreaConnection,
  choice: TileChoice,
): Promise<{ readonly tileId?: string; readonly problem?: string }> {
  const id = choice.dashboardId;
  if (!known(id) || !(known(choice.tileName) || known(choice.tileId))) return {};
  const held = await heldDashboard(conn, id);
  if (held === undefined) return { problem: `dashboardId "${id}" names no dashboard the service holds` };
  const said = `the dashboard "${held.name}" (id ${id})`;
  if (known(choice.tileName)) {
    const problem = tileNameProblem(said, held.tiles, choice.tileName);
    if (problem !== undefined) return { problem };
    const tile = held.tiles.find((t) => t.name === choice.tileName);
    return known(tile?.id) ? { tileId: tile.id } : { problem: `the tile "${choice.tileName}" of ${said} has no id` };
  }
  const problem = tileIdProblem(said, held.tiles, String(choice.tileId));
  return problem === undefined ? { tileId: String(choice.tileId) } : { problem };
}

/** The tile's id, checked on the service before the alert is sent; throws TILE_NOT_ALERTABLE. */
async function watchedTileId(conn: AreaConnection, choice: TileChoice): Promise<string | undefined> {
  const found = await tileOnService(conn, choice);
  if (found.problem !== undefined) throw new TileNotAlertableError(found.problem);
  return found.tileId;
}

/** Apart from zod, so they run whatever else fails; an unknown value is checked once known. */
function crossFieldFailures(inputs: RawInputs, olds: RawInputs = {}): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const set = (n: string) => inputs[n] !== undefined && inputs[n] !== null;
  const unknown = (...names: string[]) => names.some((n) => containsUnknown(inputs[n]));
  if (inputs.source === "tile") {
    if (!set("dashboardId"))
      failures.push({
        property: "dashboardId",
        reason: 'dashboardId is required when source is "tile" (the alert watches a tile on a dashboard)',
      });
    if (!set("tileId") && !set("tileName"))
      failures.push({
        property: "tileId",
        reason:
          'tileId is required when source is "tile" (the alert watches a tile on a dashboard), or tileName: the tile by its ' +
          "name, with the dashboard's tileIndex",
      });
    if (set("tileId") && set("tileName"))
      failures.push({ property: "tileName", reason: "tileName names the tile tileId already gives: set one of them" });
    const problem = tileIndexProblem(inputs);
    if (problem !== undefined)
      failures.push({ property: "tileName", reason: `tileName "${String(inputs.tileName)}": ${problem}` });
    for (const property of ["groupBy", "savedSearchId"] as const)
      if (set(property))
        failures.push({ property, reason: `${property} is for search alerts only; leave it out of a "tile" alert` });
  } else
    for (const property of ["tileName", "tileIndex"] as const)
      if (set(property) && typeof inputs.source === "string" && !unknown("source"))
        failures.push({
          property,
          reason: `${property} is for tile alerts only; leave it out of a "${inputs.source}" alert`,
        });
  if (set("tileIndex") && !set("tileName"))
    failures.push({
      property: "tileIndex",
      reason: "tileIndex goes with tileName, whose name it checks: set tileName",
    });
  // Refused by the 2026 service; in preview only when the config names the dialect.
  if (inputs.source === "search" && !set("savedSearchId") && configuredDialect() === "2026")
    failures.push({
      property: "savedSearchId",
      reason:
        'savedSearchId is required for a search alert when alertpipe:alertingDialect is "2026" or on managed ClickStack: the id of ' +
        "the saved search it watches",
    });
  const email = set("emailRecipients");
  if (email && (set("channel") || set("channels")))
    failures.push({
      property: "emailRecipients",
      reason:
        "emailRecipients is the alert's one channel on managed ClickStack: leave channel and channels out, or emailRecipients",
    });
  failures.push(...managedOnlyFailures(inputs));
  if (!email && !unknown("channel", "channels")) {
    const words = {
      neither: [
        "channel",
        'set channel or channels: an alert notifies at least one channel {type: "webhook", webhookId}',
      ],
      empty: ["channels", "channels needs at least one channel"],
      "too many": ["channels", "channels holds at most 10 channels"],
      duplicate: ["channels", "channels must not hold two alike channels"],
      "channel differs": ["channel", "channel must equal channels[0] when both are set (or set only one of them)"],
    } as const;
    const list = Array.isArray(inputs.channels) ? (inputs.channels as { type?: unknown }[]) : undefined;
    const problem = channelsProblem(set("channel") ? (inputs.channel as { type?: unknown }) : undefined, list);
    if (problem !== undefined) failures.push({ property: words[problem][0], reason: words[problem][1] });
  }
  // Managed ClickStack's alert has one `channel` and no `channels`: never a list cut short.
  if (isManagedClickStack() && Array.isArray(inputs.channels) && inputs.channels.length > 1)
    failures.push({
      property: "channels",
      reason:
        `channels holds ${inputs.channels.length} channels, but managed ClickStack (alertpipe:clickstackOrganizationId and ` +
        "alertpipe:clickstackServiceId) takes one channel per alert: set one, or one alert per channel",
    });
  if (!unknown("thresholdType", "threshold", "thresholdMax") && typeof inputs.thresholdType === "string") {
    const max = typeof inputs.thresholdMax === "number" ? inputs.thresholdMax : undefined;
    const problem = thresholdMaxProblem(inputs.thresholdType, Number(inputs.threshold), max);
    if (problem === "required")
      failures.push({
        property: "thresholdMax",
        reason: `thresholdMax is required when thresholdType is "${inputs.thresholdType}"`,
      });
    else if (problem === "below threshold")
      failures.push({ property: "thresholdMax", reason: "thresholdMax must be at least threshold" });
    else if (max !== undefined && !RANGE_THRESHOLD_TYPES.includes(inputs.thresholdType))
      // Stricter than the service, which stores it and never reads it.
      failures.push({
        property: "thresholdMax",
        reason: `thresholdMax is only for thresholdType "between" or "not_between", not "${inputs.thresholdType}"`,
      });
  }
  const offset = inputs.scheduleOffsetMinutes;
  if (typeof offset === "number" && !unknown("interval", "scheduleStartAt")) {
    const minutes = intervalMinutes(String(inputs.interval));
    if (set("scheduleStartAt") && offset !== 0)
      failures.push({
        property: "scheduleOffsetMinutes",
        reason: "scheduleOffsetMinutes must be 0 when scheduleStartAt is set",
      });
    else if (minutes !== undefined && offset >= minutes)
      failures.push({
        property: "scheduleOffsetMinutes",
        reason: `scheduleOffsetMinutes must be less than the interval's ${minutes} minutes`,
      });
  }
  // Checked only when set or changed: a start that falls out of the window later stays valid.
  const startAt = inputs.scheduleStartAt;
  if (
    typeof startAt === "string" &&
    !unknown("scheduleStartAt") &&
    hasChanged("scheduleStartAt", olds.scheduleStartAt, startAt, compared)
  ) {
    const problem = scheduleStartProblem(startAt, Date.now());
    const { ahead, back } = SCHEDULE_START_WINDOW_DAYS;
    if (problem === "ahead" || problem === "back")
      failures.push({
        property: "scheduleStartAt",
        reason: `scheduleStartAt must be within ${ahead} days ahead and ${back} days back (10 years) of now`,
      });
  }
  return failures;
}

/** What only managed ClickStack takes, refused on a self-hosted alerting API: nothing it would drop. */
function managedOnlyFailures(inputs: RawInputs): CheckFailure[] {
  if (isManagedClickStack()) return [];
  const only = "is for managed ClickStack only (alertpipe:clickstackOrganizationId and alertpipe:clickstackServiceId)";
  const failures: CheckFailure[] = [];
  if (inputs.emailRecipients !== undefined && inputs.emailRecipients !== null)
    failures.push({
      property: "emailRecipients",
      reason: `emailRecipients ${only}: a self-hosted service notifies webhooks`,
    });
  const listed = Array.isArray(inputs.channels) ? inputs.channels : [];
  const channels: [string, unknown][] = [
    ["channel", inputs.channel],
    ...listed.map((c, i): [string, unknown] => [`channels[${i}]`, c]),
  ];
  for (const [at, channel] of channels) {
    if (typeof channel !== "object" || channel === null) continue;
    for (const member of MANAGED_CHANNEL_MEMBERS)
      if (
        (channel as Record<string, unknown>)[member] !== undefined &&
        (channel as Record<string, unknown>)[member] !== null
      )
        failures.push({ property: `${at}.${member}`, reason: `${at}.${member} ${only}` });
  }
  return failures;
}

/** For an error whose outcome is unknown. */
function describeAlert(args: Args): string {
  const known = (v: unknown): v is string => typeof v === "string" && v !== "" && v !== UNKNOWN;
  if (known(args.name)) return `the alert "${args.name}"`;
  if (known(args.dashboardId) && known(args.tileId)) return `the alert "${args.dashboardId}/${args.tileId}"`;
  return `the ${args.source} alert "${args.thresholdType} ${args.threshold} every ${args.interval}"`;
}

async function check(olds: RawInputs, news: RawInputs) {
  const checked = await checkedWithCredential<Args>("alerting", ALERT, news, (inputs) =>
    crossFieldFailures(inputs, olds),
  );
  if (!checked.ok) return checked;
  const problem = await tileProblemOnService(olds, checked.inputs);
  if (problem === undefined) return checked;
  const property = set(checked.inputs.tileName) ? "tileName" : "tileId";
  return {
    ok: false as const,
    inputs: news,
    failures: [{ property, reason: `${INVALID_INPUT}${property}: ${problem}` }],
  };
}

const set = (v: unknown) => v !== undefined && v !== null;

/** Dashboards are the service's where it is HyperDX's or managed ClickStack; the contract has none to read. */
async function holdsDashboards(conn: AreaConnection): Promise<boolean> {
  return conn.gateway !== undefined || (await dialectOf(conn)) !== "contract";
}

/**
 * In a check (preview, and again at up): a tile alert whose tile is newly named, on a dashboard the
 * service already holds and with no tileIndex to check against, is checked on the service (one GET),
 * where the config says the service holds dashboards (alertingDialect "2026", or managed ClickStack).
 * A read that fails says nothing here: the write checks again.
 */
async function tileProblemOnService(olds: RawInputs, news: Args): Promise<string | undefined> {
  if (news.source !== "tile" || set(news.tileIndex)) return undefined;
  if ((["dashboardId", "tileId", "tileName"] as const).every((n) => olds[n] === news[n])) return undefined;
  try {
    const conn = connectionFor("alerting");
    // Said by the config (or managed ClickStack), never asked here: a preview of creates sends nothing else.
    if (conn.dialect === undefined && conn.gateway === undefined) return undefined;
    if (!(await holdsDashboards(conn))) return undefined;
    return (await tileOnService(conn, news)).problem;
  } catch {
    return undefined;
  }
}

/** The args with the watched tile's id, checked on the service before the alert is sent (HyperDX's, ClickStack). */
async function withWatchedTile(conn: AreaConnection, args: Args, olds?: State): Promise<Args> {
  if (args.source !== "tile") return args;
  if (olds !== undefined && sameTile(olds, args) && olds.tileId !== undefined) return { ...args, tileId: olds.tileId };
  if (!(await holdsDashboards(conn))) return args;
  const tileId = await watchedTileId(conn, args);
  return tileId === undefined ? args : { ...args, tileId };
}

/** Whether the program names the tile the state holds, the same way: then the stored tileId stands. */
function sameTile(olds: State, news: Args): boolean {
  if (olds.dashboardId !== news.dashboardId) return false;
  return set(news.tileName) ? olds.tileName === news.tileName : !set(olds.tileName) && olds.tileId === news.tileId;
}

/** A tileName alert's stored tileId stands for the name while the name and the dashboard stay. */
function resolvedNews(olds: State, news: Args): Args {
  if (!set(news.tileName) || set(news.tileId)) return news;
  return sameTile(olds, news) && olds.tileId !== undefined
    ? { ...news, tileId: olds.tileId }
    : { ...news, tileId: UNKNOWN };
}

/**
 * HyperDX deletes a tile's alerts with a dashboard update that drops the tile, so an alert moved to
 * another tile is made anew there before the old one's delete (a 404 counts as done), on managed
 * ClickStack too. The contract has no such deletion: its alerts move in place, as before.
 */
async function movesTile(olds: State, news: Args): Promise<boolean> {
  if (news.source !== "tile" || olds.source !== "tile") return false;
  const moved = (["dashboardId", "tileId"] as const).some((n) => hasChanged(n, olds[n], news[n], compared));
  if (!moved) return false;
  const conn = connectionFor("alerting");
  return conn.gateway !== undefined || (await dialectOf(conn)) !== "contract";
}

async function diff(_id: string, olds: State, given: Args): Promise<Diff> {
  const news = resolvedNews(olds, given);
  const replaceOn = (await movesTile(olds, news)) ? [...REPLACE_ON, "dashboardId", "tileId"] : REPLACE_ON;
  const found = diffProperties(olds, news, ARG_NAMES, replaceOn, compared, STABLE_OUTPUTS);
  if (!channelsDiffer(olds, news)) return found;
  // Named at what the program sets.
  const at = news.channels !== undefined ? "channels" : "channel";
  return {
    ...found,
    changes: true,
    stables: found.stables.filter((n) => n !== at),
    detailedDiff: { ...found.detailedDiff, [at]: changeOf(olds[at], news[at], false) },
  };
}

async function create(given: Args): Promise<Created<State>> {
  const conn = connectionFor("alerting");
  if (typeof given.importId === "string") return takeOver(conn, given.importId.trim(), given);
  const args = await withWatchedTile(conn, given);
  const description = describeAlert(args);
  return createRecovering<Created<State>, AlertCandidate>({
    description,
    post: () => post(conn, args, description),
    // sentAt: each lost POST's own send (recovery.ts).
    look: (sentAt) => alertsMadeBy(conn, args, sentAt),
    // Listed as a create answers it.
    adopt: async (found) => ({ id: found.id, outputs: outputsAfterWrite(args, { data: found.alert }) }),
  });
}

async function post(conn: AreaConnection, args: Args, description: string): Promise<Created<State>> {
  const body = toWire(args, await dialectFor(conn, args), takesOneChannel(conn));
  const res = await send(conn, { method: "POST", path: alertsPath(), body, creates: description });
  // Without the id Pulumi cannot record the alert the service made.
  const id = createdId(res, description, createdAlert);
  return { id, outputs: outputsAfterWrite(args, res.body) };
}

/** One GET; a PUT only when the live alert differs from what the program sends; never a POST. */
async function takeOver(conn: AreaConnection, importId: string, given: Args): Promise<Created<State>> {
  const got = await readForImport("alert", importId, () => send(conn, { method: "GET", path: alertsPath(importId) }));
  const args = await withWatchedTile(conn, given);
  const live = alertIn(got.body);
  if (live !== undefined && matchesWhatIsSent(args, live, takesOneChannel(conn)))
    return { id: importId, outputs: outputsAfterWrite(args, got.body) };
  const body = toWire(args, await dialectFor(conn, args), takesOneChannel(conn));
  const res = await send(conn, { method: "PUT", path: alertsPath(importId), body });
  return { id: importId, outputs: outputsAfterWrite(args, res.body, live === undefined ? {} : fromWire(live)) };
}

async function read(id: string, stored: State): Promise<Found<typeof ALERT> | undefined> {
  const conn = connectionFor("alerting");
  const res = await readListed(conn, alertCollection(conn), id, { method: "GET", path: alertsPath(id) });
  if (res === undefined) return undefined;
  const alert = alertIn(res.body);
  const managed = managedIn(OPTIONAL_ARGS, stored);
  const names = recorded(stored, managed);
  // A 2xx without an alert tells nothing. A managed optional cleared live stays, as null.
  const answered: State = alert === undefined ? pick(stored, names) : outputsFrom(RULES, names, fromWire(alert));
  // Never on the wire: the program's name for the tile stays.
  const outputs: State = set(stored.tileName) ? { ...answered, tileName: stored.tileName } : answered;
  // Managed arguments only: what the program leaves to the service is never drift.
  return {
    id,
    outputs,
    inputs: { ...pick(outputs, [...REQUIRED_ARGS, ...managed]), ...channelInputs(outputs) },
  };
}

/** `channels` only where it says more than `channel`: a read never turns one channel into a list. */
function channelInputs(outputs: State): Channels {
  const inputs: Channels = pick(outputs, ["channel"]);
  const list = outputs.channels;
  if (Array.isArray(list) && !(list.length === 1 && !channelsDiffer({ channels: list }, { channel: outputs.channel })))
    inputs.channels = list;
  return inputs;
}

/** Managed: the optional arguments the live alert holds, since no program says which. */
async function readImported(importId: string): Promise<Found<typeof ALERT> | undefined> {
  const [id = ""] = importIdParts("alert", importId, importIdFormOf(ALERT), "opaque");
  // Every optional argument is asked for: a read records each, live value or null.
  const found = await read(id, Object.fromEntries(OPTIONAL_ARGS.map((n) => [n, null])));
  if (found === undefined) return found;
  const outputs: State = { ...found.outputs };
  const inputs = { ...found.inputs };
  // Unused on an alert of another type, and the program would be refused it.
  const unused = (n: Output) => n === "thresholdMax" && !RANGE_THRESHOLD_TYPES.includes(String(outputs.thresholdType));
  for (const n of OPTIONAL_ARGS) {
    const held = compared(n, outputs[n]);
    if (held !== undefined && held !== null && held !== "" && !unused(n)) continue;
    delete outputs[n];
    delete inputs[n];
  }
  return { id, outputs, inputs };
}

function previewCreate(args: Args): State {
  return previewOutputs<State>(pick(args, [...REQUIRED_ARGS, ...CHANNEL_ARGS, ...managedIn(OPTIONAL_ARGS, args)]), [
    ...CHANNEL_ARGS,
    ...OUTPUT_ONLY,
  ]);
}

function previewUpdate(_id: string, olds: State, given: Args): State {
  const news = resolvedNews(olds, given);
  return previewOutputs<State>(
    {
      ...pick(olds, STABLE_OUTPUTS),
      ...pick(news, [...REQUIRED_ARGS, ...CHANNEL_ARGS, ...managedIn(OPTIONAL_ARGS, news)]),
    },
    [...CHANNEL_ARGS, ...OUTPUT_ONLY],
  );
}

async function update(id: string, olds: State, given: Args): Promise<State> {
  // The whole body, so an argument removed from the program is cleared live.
  const conn = connectionFor("alerting");
  const news = await withWatchedTile(conn, given, olds);
  const body = { ...toWire(news, await dialectFor(conn, news), takesOneChannel(conn)), ...clears(olds, news) };
  const res = await send(conn, { method: "PUT", path: alertsPath(id), body });
  return outputsAfterWrite(news, res.body, olds);
}

async function del(id: string): Promise<void> {
  if (keptByReplacement("alert", id)) return;
  claimForThisRun(ALERTS_DELETED_THIS_RUN, [id]);
  await unlessGone(() => send(connectionFor("alerting"), { method: "DELETE", path: alertsPath(id) }));
}

const verbs = { check, diff, create, read, readImported, update, delete: del, previewCreate, previewUpdate };
export const behaviour = behaviourOf(ALERT, verbs);
