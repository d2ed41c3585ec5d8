// The ApiKey provider methods. The key's secret comes back once, from POST; it is kept in state
// (as a Pulumi secret, see resource.ts) because no later call returns it.

import type * as pulumi from "@pulumi/pulumi";
import { configure as configureConnection, connectionFor } from "../connection";
import { decode, send, type ApiResponse } from "../http/client";
import { ApiError } from "../http/errors";
import { PROVIDER_KEY, PartialFailure, checkInputs, containsUnknown, deepEqual, type PropertyMap } from "../lifecycle";
import {
  PATCHABLE_ARGS,
  REPLACE_ON,
  apiKeyArgs,
  comparable,
  createdKeyEnvelope,
  describeKey,
  keyEnvelope,
  keysPath,
  managedArgs,
  toWire,
  type WireKey,
} from "./wire";

function withoutProvider(props: PropertyMap): PropertyMap {
  const { [PROVIDER_KEY]: _provider, ...rest } = props;
  return rest;
}

function organizationOf(props: PropertyMap): string {
  return typeof props.organizationId === "string" ? props.organizationId : "";
}

function differs(name: string, before: unknown, after: unknown): boolean {
  return containsUnknown(after) || !deepEqual(comparable(name, before), comparable(name, after));
}

/** Outputs: what the program set that only the create call takes, the key as returned, and its credentials. */
function outputs(args: PropertyMap, key: WireKey, credentials: { keyId: unknown; keySecret: unknown }): PropertyMap {
  const out: PropertyMap = {
    organizationId: args.organizationId,
    name: key.name ?? args.name ?? "",
    roles: key.roles,
    expireAt: key.expireAt ?? null,
    state: key.state ?? args.state ?? "enabled",
    ipAccessList: key.ipAccessList ?? [],
    keyId: credentials.keyId,
    keySecret: credentials.keySecret,
    keySuffix: key.keySuffix ?? null,
    createdAt: key.createdAt ?? null,
    usedAt: key.usedAt ?? null,
    managedArgs: managedArgs(args),
  };
  if (args.hashData !== undefined) out.hashData = args.hashData;
  return out;
}

function keyIdIn(body: unknown): string | undefined {
  const result = typeof body === "object" && body !== null ? (body as { result?: { key?: { id?: unknown } } }).result : undefined;
  const id = result?.key?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureConnection(req.config);
}

export async function check(_olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  return checkInputs(apiKeyArgs, news);
}

export async function diff(_id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.DiffResult> {
  const managed = managedArgs(news);
  // A patchable argument dropped from the program is simply no longer managed: not a change.
  const compared: string[] = [...REPLACE_ON, ...managed];
  const changed = compared.filter((n) => differs(n, olds[n], news[n]));
  if (!deepEqual(olds.managedArgs ?? [], managed)) changed.push("managedArgs");
  return {
    changes: changed.length > 0,
    replaces: changed.filter((n) => (REPLACE_ON as readonly string[]).includes(n)),
    stables: [...compared, "managedArgs"].filter((n) => !changed.includes(n)),
    deleteBeforeReplace: false,
  };
}

export async function create(inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  const args = withoutProvider(inputs);
  const res: ApiResponse = await send(connectionFor("cloud"), {
    method: "POST",
    path: keysPath(organizationOf(args)),
    body: toWire(args, [...PATCHABLE_ARGS, "hashData"]),
    creates: describeKey(args),
  });
  try {
    const { key, keyId, keySecret } = decode(createdKeyEnvelope, res).result;
    return { id: key.id, outs: outputs(args, key, { keyId, keySecret }) };
  } catch (err) {
    // The key exists; without its id in state it would be orphaned, so keep what we know.
    const id = keyIdIn(res.body);
    if (id === undefined || !(err instanceof Error)) throw err;
    throw new PartialFailure(id, { ...inputs, managedArgs: managedArgs(args) }, err);
  }
}

export async function read(id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult> {
  let key: WireKey;
  try {
    const res = await send(connectionFor("cloud"), { method: "GET", path: keysPath(organizationOf(props), id) });
    key = decode(keyEnvelope, res).result;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return {};
    throw err;
  }
  const managed = Array.isArray(props.managedArgs) ? PATCHABLE_ARGS.filter((n) => (props.managedArgs as unknown[]).includes(n)) : managedArgs(props);
  const args: PropertyMap = { organizationId: props.organizationId, hashData: props.hashData };
  for (const n of managed) args[n] = props[n];
  // The secret is never returned again: keep the stored credentials.
  const live = outputs(args, key, { keyId: props.keyId, keySecret: props.keySecret });
  // Inputs carry the live value of what the program manages, so drift shows there and only there.
  const inputs: PropertyMap = { organizationId: props.organizationId };
  if (props.hashData !== undefined) inputs.hashData = props.hashData;
  for (const n of managed) inputs[n] = live[n];
  return { id, props: live, inputs };
}

export async function update(id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult> {
  const args = withoutProvider(news);
  const changed = managedArgs(args).filter((n) => differs(n, olds[n], args[n]));
  const credentials = { keyId: olds.keyId, keySecret: olds.keySecret };
  if (changed.length === 0) {
    // Only the set of managed arguments changed: nothing to send.
    return { outs: { ...withoutProvider(olds), managedArgs: managedArgs(args), ...(args.hashData !== undefined ? { hashData: args.hashData } : {}) } };
  }
  const res = await send(connectionFor("cloud"), {
    method: "PATCH",
    path: keysPath(organizationOf(args), id),
    body: toWire(args, changed),
  });
  return { outs: outputs(args, decode(keyEnvelope, res).result, credentials) };
}

export async function del(id: string, props: PropertyMap): Promise<void> {
  try {
    await send(connectionFor("cloud"), { method: "DELETE", path: keysPath(organizationOf(props), id) });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return;
    throw err;
  }
}

export { del as delete };
