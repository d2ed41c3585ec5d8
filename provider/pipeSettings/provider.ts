// The PipeSettings provider methods. A pipe is never created or deleted here: "create" puts the
// settings the program manages, "delete" leaves them live unless resetOnDelete asks to unset them.

import type * as pulumi from "@pulumi/pulumi";
import { connectionFailures, connectionFor } from "../runtime/connection";
import { send } from "../http/client";
import { unlessGone } from "../errors";
import { argumentNames, checkInputs } from "../protocol/check";
import { deepEqual, diffProperties, hasChanged, type Diff } from "../protocol/diff";
import { managedIn, managedInState } from "../protocol/managed";
import { importIdParts } from "../creation/importing";
import { previewOutputs } from "../protocol/preview";
import { UNKNOWN, pick, type PropertyMap } from "../protocol/properties";
import { claimForThisRun, partsClaimedThisRun } from "../creation/runClaims";
import { SETTING_NAMES, type SettingName } from "../serviceFacts/pipeSettings";
import { REPLACE_ON, comparedForm, pipeSettingsArgsSchema } from "./args";
import { effectiveSettings, fromWire, settingsIn, settingsPath, toWire, type EffectiveSettings } from "./wire";

interface PipeRef {
  organizationId: string;
  serviceId: string;
  pipeId: string;
}

function pipeRef(id: string, props: PropertyMap): PipeRef {
  const [organizationId = "", serviceId = "", pipeId = ""] = id.split("/");
  return {
    organizationId: typeof props.organizationId === "string" ? props.organizationId : organizationId,
    serviceId: typeof props.serviceId === "string" ? props.serviceId : serviceId,
    pipeId: typeof props.pipeId === "string" ? props.pipeId : pipeId,
  };
}

function pipeKey(ref: PipeRef): string {
  return `${ref.organizationId}/${ref.serviceId}/${ref.pipeId}`.toLowerCase();
}

/**
 * Claims for this run (creation/runClaims.ts) the settings of a pipe that a resource of it manages (seen in
 * diff) or writes (create, update): a delete with resetOnDelete never unsets one of these. That is
 * what keeps a rename without an alias (create the new resource, then delete the old) from wiping
 * the new resource's settings.
 */
function claimSettings(ref: PipeRef, names: readonly SettingName[]): void {
  if ([ref.organizationId, ref.serviceId, ref.pipeId].some((v) => v === UNKNOWN || v === "")) return;
  claimForThisRun(pipeKey(ref), names);
}

/** The settings the stored outputs record as managed. */
function managedOf(props: PropertyMap): SettingName[] {
  return managedInState(SETTING_NAMES, props, "managedSettings");
}

/**
 * PUTs `values` and returns the effective settings. A 2xx without a settings object (an empty body)
 * says the values were taken: they are laid over what was known before (`before`, stored outputs).
 */
async function putSettings(
  ref: PipeRef,
  values: Partial<Record<SettingName, unknown>>,
  before: PropertyMap = {},
): Promise<EffectiveSettings> {
  const res = await send(connectionFor("cloud"), {
    method: "PUT",
    path: settingsPath(ref.organizationId, ref.serviceId, ref.pipeId),
    body: toWire(values),
  });
  const result = settingsIn(res.body);
  return result === undefined ? { ...effectiveSettings(before), ...values } : fromWire(result);
}

function outputs(
  ref: PipeRef,
  effective: EffectiveSettings,
  managed: SettingName[],
  resetOnDelete: unknown,
): PropertyMap {
  return {
    ...ref,
    ...effective,
    managedSettings: managed,
    ...(typeof resetOnDelete === "boolean" ? { resetOnDelete } : {}),
  };
}

export { configureProvider as configure } from "../runtime/connection";

/** The inputs a state may hold, as the native plugin's schema states them. */
export const inputNames: readonly string[] = argumentNames(pipeSettingsArgsSchema);

export async function check(_olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  const result = checkInputs(pipeSettingsArgsSchema, news);
  const failures = [...result.failures, ...connectionFailures("cloud")];
  if (failures.length > 0) return { inputs: result.inputs, failures };
  const inputs: PropertyMap = { ...result.inputs };
  for (const p of REPLACE_ON) inputs[p] = comparedForm(p, inputs[p]);
  return { inputs, failures };
}

export async function diff(id: string, olds: PropertyMap, news: PropertyMap): Promise<Diff> {
  const managed = managedIn(SETTING_NAMES, news);
  // The claim of what this resource manages is made here, not in check: check only validates, and
  // the engine may call it on inputs it never applies (a preview, a step another failure stops).
  // Claimed here it is still in time: the engine diffs every resource of the program that is in
  // the state before it sends any delete of a removed or replaced one, and a resource new to the
  // state claims in its create. An unchanged resource is diffed and never updated, so only this
  // claim keeps a delete with resetOnDelete of an old resource on the same pipe off its settings.
  claimSettings(pipeRef(id, news), managed);
  // A PUT of the managed settings leaves the others as they are. They are not carried in the inputs
  // (see carryStableOutputs), because a setting among the inputs is one the program manages.
  const unmanaged = SETTING_NAMES.filter((n) => !managed.includes(n));
  return diffProperties(
    olds,
    { ...news, managedSettings: managed },
    [...REPLACE_ON, ...managed, "managedSettings", "resetOnDelete"],
    REPLACE_ON,
    comparedForm,
    unmanaged,
  );
}

export async function create(inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  const ref = pipeRef("", inputs);
  const managed = managedIn(SETTING_NAMES, inputs);
  // Noted before sending: a PUT whose answer is lost may still have been applied.
  claimSettings(ref, managed);
  const effective = await putSettings(ref, pick(inputs, managed));
  return {
    id: `${ref.organizationId}/${ref.serviceId}/${ref.pipeId}`,
    outs: outputs(ref, effective, managed, inputs.resetOnDelete),
  };
}

export async function read(id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult> {
  const ref = pipeRef(id, props);
  const res = await unlessGone(() =>
    send(connectionFor("cloud"), { method: "GET", path: settingsPath(ref.organizationId, ref.serviceId, ref.pipeId) }),
  );
  if (res === undefined) return {};
  // A 2xx without settings in it tells nothing: what is stored stands.
  const result = settingsIn(res.body);
  const effective: EffectiveSettings = result === undefined ? effectiveSettings(props) : fromWire(result);
  const managed = managedOf(props);
  // Inputs show the live value of what the program manages, so the next preview proposes to put
  // drifted settings back; settings the program does not manage never show as drift.
  const inputs: PropertyMap = { ...ref, ...pick(effective, managed) };
  if (typeof props.resetOnDelete === "boolean") inputs.resetOnDelete = props.resetOnDelete;
  return {
    id: `${ref.organizationId}/${ref.serviceId}/${ref.pipeId}`,
    props: outputs(ref, effective, managed, props.resetOnDelete),
    inputs,
  };
}

/** How an import names a pipe's settings: the resource id itself. */
export const IMPORT_ID_FORM = ["organizationId", "serviceId", "pipeId"] as const;

/**
 * The settings of an existing pipe by `<organizationId>/<serviceId>/<pipeId>` alone, as an import
 * reads them. With no program to say which settings it manages, those set live are recorded as
 * managed, the unset ones not.
 */
export async function readImported(importId: string): Promise<pulumi.dynamic.ReadResult> {
  const [organizationId = "", serviceId = "", pipeId = ""] = importIdParts(
    "pipe settings",
    importId,
    IMPORT_ID_FORM,
    "uuid",
  ).map((p) => p.toLowerCase());
  const found = await read(`${organizationId}/${serviceId}/${pipeId}`, {
    organizationId,
    serviceId,
    pipeId,
    managedSettings: [...SETTING_NAMES],
  });
  if (found.props === undefined) return found;
  const props = found.props as PropertyMap;
  const inputs = (found.inputs ?? {}) as PropertyMap;
  const managed = SETTING_NAMES.filter((n) => props[n] !== null && props[n] !== undefined);
  for (const n of SETTING_NAMES) if (!managed.includes(n)) delete inputs[n];
  return { ...found, props: { ...props, managedSettings: managed }, inputs };
}

/** What a create records, as far as a preview knows: the program's settings as given; the others as they are live, not yet. */
export function previewCreate(inputs: PropertyMap): PropertyMap {
  const managed = managedIn(SETTING_NAMES, inputs);
  const known = outputs(pipeRef("", inputs), pick(inputs, managed) as EffectiveSettings, managed, inputs.resetOnDelete);
  return previewOutputs(known, SETTING_NAMES);
}

/** What an update records, as far as a preview knows: the program's settings, and the others as stored (a PUT leaves them). */
export function previewUpdate(id: string, olds: PropertyMap, news: PropertyMap): PropertyMap {
  const managed = managedIn(SETTING_NAMES, news);
  const effective = { ...effectiveSettings(olds), ...pick(news, managed) };
  return previewOutputs(outputs(pipeRef(id, news), effective, managed, news.resetOnDelete), []);
}

export async function update(id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult> {
  const ref = pipeRef(id, news);
  const before = managedOf(olds);
  const managed = managedIn(SETTING_NAMES, news);
  // Only what the program changes is sent; a setting dropped from the program is left as it is live.
  const changed = managed.filter((n) => !before.includes(n) || hasChanged(n, olds[n], news[n]));
  claimSettings(ref, managed);
  const effective = changed.length > 0 ? await putSettings(ref, pick(news, changed), olds) : effectiveSettings(olds);
  return { outs: outputs(ref, effective, managed, news.resetOnDelete) };
}

/**
 * With resetOnDelete, unsets only what is still this resource's doing: a setting whose live value
 * is the one state records for it (what this resource last wrote, or last read on refresh), and
 * that no resource of this run manages on the same pipe. One GET, then one PUT of just those (none
 * if none); a value someone changed since is theirs, and is left.
 */
export async function del(id: string, props: PropertyMap): Promise<void> {
  if (props.resetOnDelete !== true) return;
  const ref = pipeRef(id, props);
  const claimed = partsClaimedThisRun(pipeKey(ref));
  const candidates = managedOf(props).filter((n) => !claimed.has(n) && props[n] !== null && props[n] !== undefined);
  if (candidates.length === 0) return;
  // A pipe gone (404 on the GET or the PUT) has nothing left to reset.
  await unlessGone(async () => {
    const res = await send(connectionFor("cloud"), {
      method: "GET",
      path: settingsPath(ref.organizationId, ref.serviceId, ref.pipeId),
    });
    const result = settingsIn(res.body);
    // An answer without settings tells nothing of what is live: nothing is known to be ours.
    if (result === undefined) return;
    const live = fromWire(result);
    const ours = candidates.filter((n) => deepEqual(live[n], props[n]));
    if (ours.length === 0) return;
    await putSettings(ref, Object.fromEntries(ours.map((n) => [n, null])));
  });
}

export { del as delete };
