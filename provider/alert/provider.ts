// The Alert provider methods. An alert is created with POST, read with GET, replaced whole with
// PUT and removed with DELETE under /api/v2/alerts; every argument changes in place. A create whose
// answer is lost finds what it made by listing (recovery.ts, lookup.ts); one with importId takes
// over an existing alert instead.

import type * as pulumi from "@pulumi/pulumi";
import { connectionFailures, connectionFor, type AreaConnection } from "../runtime/connection";
import { decode, send } from "../http/client";
import { UnexpectedResponseError, createdWithoutId, unlessGone } from "../errors";
import { importIdParts, keptByReplacement, readForImport } from "../creation/importing";
import { createRecovering } from "../creation/recovery";
import { readAnswer } from "../reading/listedReads";
import { argumentNames, checkInputs } from "../protocol/check";
import { carryStableOutputs, diffProperties, stableOutputsOf, type Diff } from "../protocol/diff";
import { managedIn } from "../protocol/managed";
import { outputsFrom } from "../protocol/outputRules";
import { previewOutputs } from "../protocol/preview";
import { pick, withoutProvider, type PropertyMap } from "../protocol/properties";
import {
  ARG_NAMES,
  IMPORT_ID,
  OPTIONAL_ARGS,
  REQUIRED_ARGS,
  alertArgsSchema,
  comparedForm,
  crossFieldFailures,
  describeAlert,
} from "./args";
import { alertCollection, alertsMadeBy, matchesWhatIsSent, type AlertCandidate } from "./lookup";
import { OUTPUTS, OUTPUT_ONLY, alertIn, alertsPath, createdAlert, fromWire, toWire } from "./wire";

/** Nothing forces a new alert: the service replaces the whole body in place with PUT. */
const REPLACE_ON: readonly string[] = [];

/** What a PUT of the whole body cannot change: when the alert was made, and whose it is. */
const STABLE_OUTPUTS = ["createdAt", "team"] as const;

/** The outputs an alert records: its required arguments, the optional ones the program manages, and what the service fills in. */
function recorded(props: PropertyMap) {
  return [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, props), ...OUTPUT_ONLY];
}

/**
 * Outputs after a write the program asked for: the returned values of the arguments the program
 * sets (so a later refresh compares like with like; the program's where the answer leaves one
 * out), and what the service fills in, as it came. Optional arguments the program leaves out are
 * not recorded, so a value the service chooses for them never shows as a change to undo.
 */
function outputsAfterWrite(args: PropertyMap, body: unknown, before: PropertyMap = {}): PropertyMap {
  const alert = alertIn(body);
  // An answer with no alert at all (an empty 2xx) tells nothing new: what the service filled in
  // before (`before`, the stored outputs) stands.
  return outputsFrom(OUTPUTS, recorded(args), alert === undefined ? {} : fromWire(alert), {
    program: args,
    stored: alert === undefined ? before : {},
  });
}

export { configureProvider as configure } from "../runtime/connection";

/** The inputs a state may hold, as the native plugin's schema states them. */
export const inputNames: readonly string[] = argumentNames(alertArgsSchema);

export async function check(olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  const result = checkInputs(alertArgsSchema, news);
  const failures = [...result.failures];
  for (const f of crossFieldFailures(withoutProvider(news))) {
    if (!failures.some((x) => x.property === f.property)) failures.push(f);
  }
  failures.push(...connectionFailures("alerting"));
  if (failures.length > 0) return { inputs: result.inputs, failures };
  return { inputs: carryStableOutputs(olds, result.inputs, STABLE_OUTPUTS, REPLACE_ON), failures };
}

export async function diff(_id: string, olds: PropertyMap, news: PropertyMap): Promise<Diff> {
  return diffProperties(olds, news, ARG_NAMES, REPLACE_ON, comparedForm, STABLE_OUTPUTS);
}

export async function create(inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  const args = withoutProvider(inputs);
  const conn = connectionFor("alerting");
  const importId = args[IMPORT_ID];
  if (typeof importId === "string") return takeOver(conn, importId.trim(), args);
  const description = describeAlert(args);
  return createRecovering<pulumi.dynamic.CreateResult, AlertCandidate>({
    description,
    post: () => post(conn, args, description),
    // sentAt: the lost POST's own send, each one's (recovery.ts).
    look: (sentAt) => alertsMadeBy(conn, args, sentAt),
    // The alert as listed is the alert as a create answers it.
    adopt: async (found) => ({ id: found.id, outs: outputsAfterWrite(args, { data: found.alert }) }),
  });
}

async function post(
  conn: AreaConnection,
  args: PropertyMap,
  description: string,
): Promise<pulumi.dynamic.CreateResult> {
  const res = await send(conn, { method: "POST", path: alertsPath(), body: toWire(args), creates: description });
  // Only the id is needed: without it Pulumi cannot record the alert the service made.
  let id: string;
  try {
    id = decode(createdAlert, res).data.id;
  } catch (err) {
    if (err instanceof UnexpectedResponseError) throw createdWithoutId(res, description, err);
    throw err;
  }
  return { id, outs: outputsAfterWrite(args, res.body) };
}

/**
 * Makes an existing alert the resource's (importId): one GET; one PUT of the whole body only when
 * the live alert does not already hold what the program sends; never a POST. The id is the one given.
 */
async function takeOver(
  conn: AreaConnection,
  importId: string,
  args: PropertyMap,
): Promise<pulumi.dynamic.CreateResult> {
  const got = await readForImport("alert", importId, () => send(conn, { method: "GET", path: alertsPath(importId) }));
  const live = alertIn(got.body);
  if (live !== undefined && matchesWhatIsSent(args, live))
    return { id: importId, outs: outputsAfterWrite(args, got.body) };
  const res = await send(conn, { method: "PUT", path: alertsPath(importId), body: toWire(args) });
  return { id: importId, outs: outputsAfterWrite(args, res.body, live === undefined ? {} : fromWire(live)) };
}

export async function read(id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult> {
  const conn = connectionFor("alerting");
  const res = await readAnswer(conn, alertCollection(conn), id, { method: "GET", path: alertsPath(id) });
  if (res === undefined) return {};
  const alert = alertIn(res.body);
  const names = recorded(props);
  // A 2xx without an alert in it tells nothing: what is stored stands. A managed optional cleared
  // live stays recorded as null, so it is still known to be managed.
  const outputs = alert === undefined ? pick(props, names) : outputsFrom(OUTPUTS, names, fromWire(alert));
  // Inputs are the arguments the program manages with their live values, so the next preview
  // proposes to put drifted values back and never reports what the program leaves to the service.
  const inputs: PropertyMap = {
    ...stableOutputsOf(outputs, STABLE_OUTPUTS),
    ...pick(outputs, [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, props)]),
  };
  return { id, props: outputs, inputs };
}

/**
 * An existing alert by its id alone, as an import reads it: with no program to say which optional
 * arguments it manages, those the live alert holds are recorded as managed, the others not.
 */
export async function readImported(importId: string): Promise<pulumi.dynamic.ReadResult> {
  const [id = ""] = importIdParts("alert", importId, ["id"], "opaque");
  // Every optional argument is asked for; a read records each, the live value or null.
  const found = await read(id, Object.fromEntries(OPTIONAL_ARGS.map((n) => [n, null])));
  if (found.props === undefined) return found;
  const props = found.props as PropertyMap;
  const inputs = (found.inputs ?? {}) as PropertyMap;
  for (const n of OPTIONAL_ARGS) {
    const held = comparedForm(n, props[n]);
    if (held !== undefined && held !== null && held !== "") continue;
    delete props[n];
    delete inputs[n];
  }
  return { id, props, inputs };
}

/** What a create records, as far as a preview knows: the program's arguments as given, not what the service fills in. */
export function previewCreate(inputs: PropertyMap): PropertyMap {
  const args = withoutProvider(inputs);
  return previewOutputs(pick(args, [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, args)]), OUTPUT_ONLY);
}

/** What an update records, as far as a preview knows: as a create, and what a PUT cannot change as stored. */
export function previewUpdate(_id: string, olds: PropertyMap, news: PropertyMap): PropertyMap {
  const args = withoutProvider(news);
  return previewOutputs(
    { ...pick(olds, STABLE_OUTPUTS), ...pick(args, [...REQUIRED_ARGS, ...managedIn(OPTIONAL_ARGS, args)]) },
    OUTPUT_ONLY,
  );
}

export async function update(id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult> {
  const args = withoutProvider(news);
  // The whole body, so an optional argument removed from the program is cleared live.
  const res = await send(connectionFor("alerting"), { method: "PUT", path: alertsPath(id), body: toWire(args) });
  return { outs: outputsAfterWrite(args, res.body, olds) };
}

export async function del(id: string, _props: PropertyMap): Promise<void> {
  if (keptByReplacement("alert", id)) return;
  // Already gone is done.
  await unlessGone(() => send(connectionFor("alerting"), { method: "DELETE", path: alertsPath(id) }));
}

export { del as delete };
