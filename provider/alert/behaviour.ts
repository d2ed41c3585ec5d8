// The Alert's behaviour. An alert is created with POST, read with GET, replaced whole with PUT and
// removed with DELETE under /api/v2/alerts; every argument changes in place. A create whose answer
// is lost finds what it made by listing (creation/recovery.ts, lookup.ts); one with importId takes
// over an existing alert instead.

import { connectionFailures, connectionFor, type AreaConnection } from "../runtime/connection";
import { decode, send } from "../http/client";
import { unlessGone } from "../http/gone";
import { UnexpectedResponseError } from "../errors";
import { importIdParts, keptByReplacement, readForImport } from "../creation/importing";
import { createRecovering, createdWithoutId } from "../creation/recovery";
import { readListed } from "../reading/listedReads";
import type { Behaviour, Created, Found } from "../protocol/behaviour";
import { checkArgs, type CheckFailure } from "../protocol/check";
import { comparedForm, namesWith, type ArgsOf, type StateOf, outputNames, outputRules } from "../protocol/definition";
import { diffProperties, type Diff } from "../protocol/diff";
import { managedIn } from "../protocol/managed";
import { outputsFrom } from "../protocol/outputRules";
import { previewOutputs } from "../protocol/preview";
import { UNKNOWN, pick, type PropertyMap } from "../protocol/properties";
import { ALERT } from "./definition";

type Args = ArgsOf<typeof ALERT>;
type State = StateOf<typeof ALERT>;
import { alertCollection, alertsMadeBy, matchesWhatIsSent, type AlertCandidate } from "./lookup";
import { alertIn, alertsPath, createdAlert, fromWire, toWire } from "./wire";

const both = (n: string) => ALERT.properties[n as keyof typeof ALERT.properties].role === "both";
/** Arguments the program must set; always managed. */
const REQUIRED_ARGS = namesWith(ALERT, "required");
/** Arguments the program may set; managed only when it does. */
const OPTIONAL_ARGS = outputNames(ALERT).filter((n) => both(n) && !REQUIRED_ARGS.includes(n));
const ARG_NAMES = [...REQUIRED_ARGS, ...OPTIONAL_ARGS];
/** What the service fills in; never set by the program. */
const OUTPUT_ONLY = outputNames(ALERT).filter((n) => !both(n));
/** Nothing forces a new alert: the service replaces the whole body in place with PUT. */
const REPLACE_ON = namesWith(ALERT, "replaces");
/** What a PUT of the whole body cannot change: when the alert was made, and whose it is. */
const STABLE_OUTPUTS = namesWith(ALERT, "stable");
const RULES = outputRules(ALERT);
const compared = comparedForm(ALERT);

/** The outputs an alert records: its required arguments, the optional ones managed, and what the service fills in. */
function recorded(props: PropertyMap) {
  return [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, props), ...OUTPUT_ONLY];
}

/**
 * Outputs after a write: the returned values of the arguments the program sets (the program's
 * where the answer leaves one out) and what the service fills in, as it came. An optional
 * argument the program leaves out is not recorded, so the service's choice never shows as drift.
 */
function outputsAfterWrite(args: Args, body: unknown, before: PropertyMap = {}): State {
  const alert = alertIn(body);
  // An empty 2xx tells nothing new: what the service filled in before stands.
  return outputsFrom(RULES, recorded(args), alert === undefined ? {} : fromWire(alert), {
    program: args,
    stored: alert === undefined ? before : {},
  });
}

/**
 * Rules between properties, apart from the zod check so they run whatever else is wrong. A source
 * still unknown in preview demands nothing; it is checked again once known.
 */
function crossFieldFailures(inputs: PropertyMap): CheckFailure[] {
  if (inputs.source !== "tile") return [];
  return (["dashboardId", "tileId"] as const)
    .filter((property) => inputs[property] === undefined || inputs[property] === null)
    .map((property) => ({
      property,
      reason: `${property} is required when source is "tile" (the alert watches a tile on a dashboard)`,
    }));
}

/** Words naming the alert for an error whose outcome is unknown. */
function describeAlert(args: Args): string {
  const known = (v: unknown): v is string => typeof v === "string" && v !== "" && v !== UNKNOWN;
  if (known(args.name)) return `the alert "${args.name}"`;
  if (known(args.dashboardId) && known(args.tileId)) return `the alert "${args.dashboardId}/${args.tileId}"`;
  return `the ${String(args.source)} alert "${String(args.thresholdType)} ${String(args.threshold)} every ${String(args.interval)}"`;
}

async function check(_olds: PropertyMap, news: PropertyMap) {
  return checkArgs<Args>(ALERT, news, crossFieldFailures, connectionFailures("alerting"));
}

async function diff(_id: string, olds: State, news: Args): Promise<Diff> {
  return diffProperties(olds, news, ARG_NAMES, REPLACE_ON, compared, STABLE_OUTPUTS);
}

async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("alerting");
  if (typeof args.importId === "string") return takeOver(conn, args.importId.trim(), args);
  const description = describeAlert(args);
  return createRecovering<Created<State>, AlertCandidate>({
    description,
    post: () => post(conn, args, description),
    // sentAt: the lost POST's own send, each one's (recovery.ts).
    look: (sentAt) => alertsMadeBy(conn, args, sentAt),
    // The alert as listed is the alert as a create answers it.
    adopt: async (found) => ({ id: found.id, outputs: outputsAfterWrite(args, { data: found.alert }) }),
  });
}

async function post(conn: AreaConnection, args: Args, description: string): Promise<Created<State>> {
  const res = await send(conn, { method: "POST", path: alertsPath(), body: toWire(args), creates: description });
  // Only the id is needed: without it Pulumi cannot record the alert the service made.
  let id: string;
  try {
    id = decode(createdAlert, res).data.id;
  } catch (err) {
    if (err instanceof UnexpectedResponseError) throw createdWithoutId(res, description, err);
    throw err;
  }
  return { id, outputs: outputsAfterWrite(args, res.body) };
}

/**
 * Makes an existing alert the resource's (importId): one GET; one PUT of the whole body only when
 * the live alert does not already hold what the program sends; never a POST.
 */
async function takeOver(conn: AreaConnection, importId: string, args: Args): Promise<Created<State>> {
  const got = await readForImport("alert", importId, () => send(conn, { method: "GET", path: alertsPath(importId) }));
  const live = alertIn(got.body);
  if (live !== undefined && matchesWhatIsSent(args, live))
    return { id: importId, outputs: outputsAfterWrite(args, got.body) };
  const res = await send(conn, { method: "PUT", path: alertsPath(importId), body: toWire(args) });
  return { id: importId, outputs: outputsAfterWrite(args, res.body, live === undefined ? {} : fromWire(live)) };
}

async function read(id: string, stored: State): Promise<Found<typeof ALERT> | undefined> {
  const conn = connectionFor("alerting");
  const res = await readListed(conn, alertCollection(conn), id, { method: "GET", path: alertsPath(id) });
  if (res === undefined) return undefined;
  const alert = alertIn(res.body);
  const names = recorded(stored);
  // A 2xx without an alert tells nothing: what is stored stands. A managed optional cleared live
  // stays recorded as null, so it is still known to be managed.
  const outputs = alert === undefined ? pick(stored, names) : outputsFrom(RULES, names, fromWire(alert));
  // Inputs are the managed arguments' live values: a preview proposes to put drift back and never
  // reports what the program leaves to the service.
  return { id, outputs, inputs: pick(outputs, [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, stored)]) };
}

/** An import records as managed the optional arguments the live alert holds: no program says which. */
async function readImported(importId: string): Promise<Found<typeof ALERT> | undefined> {
  const [id = ""] = importIdParts("alert", importId, ALERT.importIdForm, "opaque");
  // Every optional argument is asked for; a read records each, the live value or null.
  const found = await read(id, Object.fromEntries(OPTIONAL_ARGS.map((n) => [n, null])));
  if (found === undefined) return found;
  const outputs: PropertyMap = { ...found.outputs };
  const inputs: PropertyMap = { ...found.inputs };
  for (const n of OPTIONAL_ARGS) {
    const held = compared(n, outputs[n]);
    if (held !== undefined && held !== null && held !== "") continue;
    delete outputs[n];
    delete inputs[n];
  }
  return { id, outputs, inputs };
}

/** A create's outputs as a preview knows them: the program's arguments, not what the service fills in. */
function previewCreate(args: Args): State {
  return previewOutputs(pick(args, [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, args)]), OUTPUT_ONLY);
}

/** An update's outputs as a preview knows them: as a create's, and what a PUT cannot change as stored. */
function previewUpdate(_id: string, olds: State, news: Args): State {
  return previewOutputs(
    { ...pick(olds, STABLE_OUTPUTS), ...pick(news, [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, news)]) },
    OUTPUT_ONLY,
  );
}

async function update(id: string, olds: State, news: Args): Promise<State> {
  // The whole body, so an optional argument removed from the program is cleared live.
  const res = await send(connectionFor("alerting"), { method: "PUT", path: alertsPath(id), body: toWire(news) });
  return outputsAfterWrite(news, res.body, olds);
}

async function del(id: string): Promise<void> {
  if (keptByReplacement("alert", id)) return;
  // Already gone is done.
  await unlessGone(() => send(connectionFor("alerting"), { method: "DELETE", path: alertsPath(id) }));
}

export const behaviour: Behaviour<typeof ALERT> = {
  definition: ALERT,
  check,
  diff,
  create,
  read,
  readImported,
  update,
  delete: del,
  previewCreate,
  previewUpdate,
};
