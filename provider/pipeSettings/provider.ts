// The PipeSettings provider methods. A pipe is never created or deleted here: "create" puts the
// settings the program manages, "delete" leaves them live unless resetOnDelete asks to unset them.

import type * as pulumi from "@pulumi/pulumi";
import { configure as configureConnection, connectionFor } from "../connection";
import { decode, send } from "../http/client";
import { isNotFound } from "../http/errors";
import { checkInputs, deepEqual, diffProperties, containsUnknown, type PropertyMap } from "../lifecycle";
import { SETTING_NAMES, type SettingName } from "./settings";
import { fromWire, managedIn, pipeSettingsArgs, settingsEnvelope, settingsPath, toWire, type EffectiveSettings } from "./wire";

const REPLACE_ON = ["organizationId", "serviceId", "pipeId"] as const;

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

function managedOf(props: PropertyMap): SettingName[] {
  const m = props.managedSettings;
  return Array.isArray(m) ? SETTING_NAMES.filter((n) => m.includes(n)) : managedIn(props);
}

async function putSettings(ref: PipeRef, values: Partial<Record<SettingName, unknown>>): Promise<EffectiveSettings> {
  const res = await send(connectionFor("cloud"), {
    method: "PUT",
    path: settingsPath(ref.organizationId, ref.serviceId, ref.pipeId),
    body: toWire(values),
  });
  return fromWire(decode(settingsEnvelope, res).result);
}

function outputs(ref: PipeRef, effective: EffectiveSettings, managed: SettingName[], resetOnDelete: unknown): PropertyMap {
  return {
    ...ref,
    ...effective,
    managedSettings: managed,
    ...(typeof resetOnDelete === "boolean" ? { resetOnDelete } : {}),
  };
}

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureConnection(req.config);
}

export async function check(_olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  return checkInputs(pipeSettingsArgs, news);
}

export async function diff(_id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.DiffResult> {
  const managed = managedIn(news);
  // A PUT of the managed settings leaves the others as they are. They are not carried in the inputs
  // (see carryStableOutputs), because a setting among the inputs is one the program manages.
  const unmanaged = SETTING_NAMES.filter((n) => !managed.includes(n));
  return diffProperties(olds, { ...news, managedSettings: managed }, [...REPLACE_ON, ...managed, "managedSettings", "resetOnDelete"], REPLACE_ON, undefined, unmanaged);
}

export async function create(inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  const ref = pipeRef("", inputs);
  const managed = managedIn(inputs);
  const effective = await putSettings(ref, Object.fromEntries(managed.map((n) => [n, inputs[n]])));
  return { id: `${ref.organizationId}/${ref.serviceId}/${ref.pipeId}`, outs: outputs(ref, effective, managed, inputs.resetOnDelete) };
}

export async function read(id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult> {
  const ref = pipeRef(id, props);
  let effective: EffectiveSettings;
  try {
    const res = await send(connectionFor("cloud"), { method: "GET", path: settingsPath(ref.organizationId, ref.serviceId, ref.pipeId) });
    effective = fromWire(decode(settingsEnvelope, res).result);
  } catch (err) {
    if (isNotFound(err)) return {};
    throw err;
  }
  const managed = managedOf(props);
  // Inputs show the live value of what the program manages, so the next preview proposes to put
  // drifted settings back; settings the program does not manage never show as drift.
  const inputs: PropertyMap = { ...ref, ...Object.fromEntries(managed.map((n) => [n, effective[n]])) };
  if (typeof props.resetOnDelete === "boolean") inputs.resetOnDelete = props.resetOnDelete;
  return { id: `${ref.organizationId}/${ref.serviceId}/${ref.pipeId}`, props: outputs(ref, effective, managed, props.resetOnDelete), inputs };
}

export async function update(id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult> {
  const ref = pipeRef(id, news);
  const before = managedOf(olds);
  const managed = managedIn(news);
  // Only what the program changes is sent; a setting dropped from the program is left as it is live.
  const changed = managed.filter((n) => containsUnknown(news[n]) || !before.includes(n) || !deepEqual(olds[n], news[n]));
  const effective =
    changed.length > 0
      ? await putSettings(ref, Object.fromEntries(changed.map((n) => [n, news[n]])))
      : (Object.fromEntries(SETTING_NAMES.map((n) => [n, (olds[n] as number | boolean | null | undefined) ?? null])) as EffectiveSettings);
  return { outs: outputs(ref, effective, managed, news.resetOnDelete) };
}

export async function del(id: string, props: PropertyMap): Promise<void> {
  if (props.resetOnDelete !== true) return;
  const managed = managedOf(props);
  if (managed.length === 0) return;
  try {
    await putSettings(pipeRef(id, props), Object.fromEntries(managed.map((n) => [n, null])));
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
}

export { del as delete };
