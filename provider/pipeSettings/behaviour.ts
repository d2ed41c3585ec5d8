// A pipe is never created or deleted here: "create" puts the managed settings, "delete" leaves
// them live unless resetOnDelete asks to unset them.

import { connectionFor, type AreaConnection } from "../runtime/connection";
import { checkedWithCredential } from "../http/credentials";
import type { CloudDialect } from "../serviceFacts/cloudDialects";
import { send } from "../http/client";
import { unlessGone } from "../http/gone";
import { behaviourOf, type Found } from "../protocol/behaviour";
import type { CheckFailure } from "../protocol/check";
import { comparedForm, namesWith } from "../protocol/definition";
import { deepEqual, diffProperties, hasChanged, type Diff } from "../protocol/diff";
import { managedIn, managedInState } from "../protocol/managed";
import { importIdParts } from "../creation/importing";
import { previewOutputs } from "../protocol/preview";
import { UNKNOWN, pick, type RawInputs, type Values } from "../protocol/properties";
import { claimForThisRun, clickPipeSettingsKey, partsClaimedThisRun } from "../creation/runClaims";
import { SETTING_NAMES, unsetValue, type SettingName } from "../serviceFacts/pipeSettings";
import { PIPE_SETTINGS_RESOURCE as DEF } from "./definition";
import {
  effectiveSettings,
  fromWire,
  settingsIn,
  settingsPath,
  toWire,
  type Args,
  type EffectiveSettings,
  type Settings,
  type State,
} from "./wire";

/** Another path names another pipe: a new resource. */
const REPLACE_ON = namesWith(DEF, "replaces");
const compared = comparedForm(DEF);

interface PipeRef {
  organizationId: string;
  serviceId: string;
  pipeId: string;
}

/** The recorded path, else the id's parts (a read by id). */
function pipeRef(id: string, props: Pick<State, keyof PipeRef>): PipeRef {
  const [organizationId = "", serviceId = "", pipeId = ""] = id.split("/");
  return {
    organizationId: props.organizationId ?? organizationId,
    serviceId: props.serviceId ?? serviceId,
    pipeId: props.pipeId ?? pipeId,
  };
}

function pipeKey(ref: PipeRef): string {
  return `${ref.organizationId}/${ref.serviceId}/${ref.pipeId}`.toLowerCase();
}

/**
 * A delete with resetOnDelete never unsets a setting claimed in this run, so a rename without an
 * alias (create the new, delete the old) keeps the new resource's settings.
 */
function claimSettings(ref: PipeRef, names: readonly SettingName[]): void {
  if ([ref.organizationId, ref.serviceId, ref.pipeId].some((v) => v === UNKNOWN || v === "")) return;
  claimForThisRun(pipeKey(ref), names);
}

function managedOf(props: State): SettingName[] {
  return managedInState(SETTING_NAMES, props, "managedSettings");
}

/** The connection and the pipe's path, in the connection's dialect. */
function reach(ref: PipeRef): { conn: AreaConnection; dialect: CloudDialect; path: string } {
  const conn = connectionFor("cloud");
  const dialect = conn.cloudDialect ?? "contract";
  return { conn, dialect, path: settingsPath(ref.organizationId, ref.serviceId, ref.pipeId, dialect) };
}

/** The answer's settings under the contract's wire names, so the caller needs no dialect. */
async function put(ref: PipeRef, values: Values): Promise<EffectiveSettings | undefined> {
  const { conn, dialect, path } = reach(ref);
  const res = await send(conn, { method: "PUT", path, body: toWire(values, dialect) });
  const result = settingsIn(res.body);
  return result === undefined ? undefined : fromWire(result, dialect);
}

/** An empty 2xx says the values were taken: they are laid over `before`. */
async function putSettings(ref: PipeRef, values: Settings, before: State = {}): Promise<EffectiveSettings> {
  const result = await put(ref, values);
  return result === undefined ? { ...effectiveSettings(before), ...values } : result;
}

/** The live settings; undefined when the answer held none; "gone" on a 404. */
async function getSettings(ref: PipeRef): Promise<EffectiveSettings | undefined | "gone"> {
  const { conn, dialect, path } = reach(ref);
  const res = await unlessGone(() => send(conn, { method: "GET", path }));
  if (res === undefined) return "gone";
  const result = settingsIn(res.body);
  return result === undefined ? undefined : fromWire(result, dialect);
}

/** In preview `resetOnDelete` may be unknown: recorded once it is a boolean. */
function outputs(ref: PipeRef, effective: EffectiveSettings, managed: SettingName[], resetOnDelete: unknown): State {
  return {
    ...ref,
    ...effective,
    managedSettings: managed,
    ...(typeof resetOnDelete === "boolean" ? { resetOnDelete } : {}),
  };
}

/** Where a ClickPipe of this run names the pipe's setting in its own `settings`. */
function claimedByClickPipe(ref: PipeRef): ReadonlySet<string> {
  return partsClaimedThisRun(clickPipeSettingsKey(ref.organizationId, ref.serviceId, ref.pipeId));
}

/**
 * A setting is one resource's: one that this pipe's ClickPipe names in `settings` is refused here,
 * else the two would put back each other's value on every `up --refresh`. Seen when the ClickPipe
 * was diffed or created first in this process (the PipeSettings waits on its clickPipeId).
 */
function ownedByClickPipe(inputs: RawInputs): CheckFailure[] {
  const ref = pipeRef("", inputs);
  if ([ref.organizationId, ref.serviceId, ref.pipeId].some((v) => typeof v !== "string" || v === "" || v === UNKNOWN))
    return [];
  const claimed = claimedByClickPipe(ref);
  return managedIn(SETTING_NAMES, inputs)
    .filter((n) => claimed.has(n))
    .map((n) => ({
      property: n,
      reason:
        `${n} is also set by a ClickPipe of this program: the ClickPipe ${ref.pipeId} sets it in its settings. ` +
        "Name each setting in one of them, the ClickPipe's settings or this PipeSettings, not both",
    }));
}

async function check(_olds: RawInputs, news: RawInputs) {
  return checkedWithCredential<Args>("cloud", DEF, news, ownedByClickPipe);
}

async function diff(id: string, olds: State, news: Args): Promise<Diff> {
  const managed = managedIn(SETTING_NAMES, news);
  // Not in check, which may see inputs never applied. In time: the engine diffs every resource
  // before any delete, and an unchanged one is never updated: only this claim keeps another's reset off.
  claimSettings(pipeRef(id, news), managed);
  // A PUT of the managed settings leaves the others as they are.
  const unmanaged = SETTING_NAMES.filter((n) => !managed.includes(n));
  return diffProperties(
    olds,
    { ...news, managedSettings: managed },
    [...REPLACE_ON, ...managed, "managedSettings", "resetOnDelete"],
    REPLACE_ON,
    compared,
    unmanaged,
  );
}

async function create(args: Args) {
  const ref = pipeRef("", args);
  const managed = managedIn(SETTING_NAMES, args);
  // Before sending: a PUT whose answer is lost may still apply.
  claimSettings(ref, managed);
  const effective = await putSettings(ref, pick(args, managed));
  return { id: idOf(ref), outputs: outputs(ref, effective, managed, args.resetOnDelete) };
}

const idOf = (ref: PipeRef) => `${ref.organizationId}/${ref.serviceId}/${ref.pipeId}`;

async function read(id: string, stored: State): Promise<Found<typeof DEF> | undefined> {
  const ref = pipeRef(id, stored);
  const live = await getSettings(ref);
  if (live === "gone") return undefined;
  // A 2xx without settings tells nothing.
  const effective: EffectiveSettings = live ?? effectiveSettings(stored);
  const managed = managedOf(stored);
  // Only managed inputs carry live values: their drift is put back, others never show as drift.
  const reset = stored.resetOnDelete;
  const inputs = {
    ...ref,
    ...pick(effective, managed),
    ...(reset === undefined || reset === null ? {} : { resetOnDelete: reset }),
  };
  return { id: idOf(ref), outputs: outputs(ref, effective, managed, stored.resetOnDelete), inputs };
}

/** No program says which are managed: those set live are. */
async function readImported(importId: string): Promise<Found<typeof DEF> | undefined> {
  const [organizationId = "", serviceId = "", pipeId = ""] = importIdParts(
    "pipe settings",
    importId,
    DEF.importIdForm,
    "uuid",
  ).map((p) => p.toLowerCase());
  const found = await read(`${organizationId}/${serviceId}/${pipeId}`, {
    organizationId,
    serviceId,
    pipeId,
    managedSettings: [...SETTING_NAMES],
  });
  if (found === undefined) return found;
  const inputs = { ...found.inputs };
  const managed = SETTING_NAMES.filter((n) => found.outputs[n] !== null && found.outputs[n] !== undefined);
  for (const n of SETTING_NAMES) if (!managed.includes(n)) delete inputs[n];
  return { ...found, outputs: { ...found.outputs, managedSettings: managed }, inputs };
}

function previewCreate(args: Args): State {
  const managed = managedIn(SETTING_NAMES, args);
  const known = outputs(pipeRef("", args), pick(args, managed), managed, args.resetOnDelete);
  return previewOutputs<State>(known, SETTING_NAMES);
}

function previewUpdate(id: string, olds: State, news: Args): State {
  const managed = managedIn(SETTING_NAMES, news);
  const effective = { ...effectiveSettings(olds), ...pick(news, managed) };
  return previewOutputs<State>(outputs(pipeRef(id, news), effective, managed, news.resetOnDelete), []);
}

async function update(id: string, olds: State, news: Args): Promise<State> {
  const ref = pipeRef(id, news);
  const before = managedOf(olds);
  const managed = managedIn(SETTING_NAMES, news);
  // A setting dropped from the program is left as it is live.
  const changed = managed.filter((n) => !before.includes(n) || hasChanged(n, olds[n], news[n]));
  claimSettings(ref, managed);
  const effective = changed.length > 0 ? await putSettings(ref, pick(news, changed), olds) : effectiveSettings(olds);
  return outputs(ref, effective, managed, news.resetOnDelete);
}

/**
 * Unsets only what is still this resource's doing: live as recorded, and claimed by no resource of
 * this run. A value someone changed since is theirs.
 */
async function del(id: string, stored: State): Promise<void> {
  if (stored.resetOnDelete !== true) return;
  const ref = pipeRef(id, stored);
  const claimed = new Set([...partsClaimedThisRun(pipeKey(ref)), ...claimedByClickPipe(ref)]);
  const candidates = managedOf(stored).filter((n) => !claimed.has(n) && stored[n] !== null && stored[n] !== undefined);
  if (candidates.length === 0) return;
  const live = await getSettings(ref);
  // Gone, or without settings: nothing is known to be ours.
  if (live === "gone" || live === undefined) return;
  const ours = candidates.filter((n) => deepEqual(live[n], stored[n]));
  if (ours.length === 0) return;
  // Null, or the value that stands for unset where null is refused (kafkaReadCommitted).
  await unlessGone(() => put(ref, Object.fromEntries(ours.map((n) => [n, unsetValue(n)]))));
}

const verbs = { check, diff, create, read, readImported, update, delete: del, previewCreate, previewUpdate };
export const behaviour = behaviourOf(DEF, verbs);
