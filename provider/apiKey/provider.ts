// The ApiKey provider methods. The key's secret comes back once, from POST; it is kept in state
// (as a Pulumi secret, see resource.ts) because no later call returns it.

import type * as pulumi from "@pulumi/pulumi";
import { connectionFailures, connectionFor } from "../connection";
import { decode, send, type ApiResponse } from "../http/client";
import { UnexpectedResponseError, createdWithoutId, unlessGone } from "../http/errors";
import { checkInputs } from "../check";
import { carryStableOutputs, deepEqual, diffProperties, hasChanged, stableOutputsOf } from "../diff";
import { PartialFailure } from "../partialFailure";
import { managedIn, managedInState } from "../managed";
import { outputsFrom } from "../outputRules";
import { compact, withoutProvider, type PropertyMap } from "../properties";
import { PATCHABLE_ARGS, REPLACE_ON, apiKeyArgsSchema, comparable, describeKey } from "./args";
import { KEY_FIELDS, KEY_OUTPUTS, createdKeyAnswer, credentialsIn, keyIn, keysPath, toWire, type WireKey } from "./wire";

/** What a PATCH cannot change: the key's identity. */
const STABLE_OUTPUTS = ["keyId", "keySuffix", "createdAt"] as const;

/** As args.ts compares, and an organizationId in any letter case as the same uuid (state may hold one from before check lower-cased it). */
function uuidComparable(name: string, value: unknown): unknown {
  return name === "organizationId" && typeof value === "string" ? value.toLowerCase() : comparable(name, value);
}

function organizationOf(props: PropertyMap): string {
  return typeof props.organizationId === "string" ? props.organizationId : "";
}

/** The suffix the program gave in hashData, for a key whose answer leaves keySuffix out. */
function hashedSuffix(hashData: unknown): unknown {
  return typeof hashData === "object" && hashData !== null ? (hashData as { keyIdSuffix?: unknown }).keyIdSuffix : undefined;
}

/**
 * Outputs: what the program set that only the create call takes, the key as returned (each value
 * as it came; KEY_OUTPUTS says what a null or missing member gives, from the program's value or
 * the stored one, `before`), and its credentials when the answer had them (a hashData key's never
 * does: the program made the pair).
 */
function outputs(args: PropertyMap, key: WireKey, credentials: { keyId: unknown; keySecret: unknown }, before: PropertyMap = {}): PropertyMap {
  const hashData = args.hashData ?? before.hashData;
  const program = { ...toWire(args, PATCHABLE_ARGS), keySuffix: hashedSuffix(hashData) };
  return compact({
    organizationId: args.organizationId ?? before.organizationId,
    ...outputsFrom(KEY_OUTPUTS, KEY_FIELDS, key, { program, stored: before }),
    keyId: credentials.keyId,
    keySecret: credentials.keySecret,
    managedArgs: managedIn(PATCHABLE_ARGS, args),
    hashData,
  });
}

/** What this resource holds as secret, besides the connection's credentials: the key secret and hashData. The HTTP layer scrubs them from errors. */
function secretsOf(props: PropertyMap): unknown[] {
  const hashData = props.hashData;
  const hashes = typeof hashData === "object" && hashData !== null ? Object.values(hashData as Record<string, unknown>) : [];
  return [props.keySecret, ...hashes];
}

function organizationOrFail(id: string, props: PropertyMap): string {
  const organizationId = organizationOf(props);
  if (organizationId === "") {
    throw new Error(`the API key ${id} has no organizationId in its state, so it cannot be addressed (…/organizations/{organizationId}/keys/${id})`);
  }
  return organizationId;
}

export { configureProvider as configure } from "../connection";

export async function check(olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  const result = checkInputs(apiKeyArgsSchema, news, ["hashData"]);
  const failures = [...result.failures, ...connectionFailures("cloud")];
  if (failures.length > 0) return { inputs: result.inputs, failures };
  // A uuid's letter case is no change: the service treats them alike, so only lower case is kept.
  const inputs =
    typeof result.inputs.organizationId === "string" ? { ...result.inputs, organizationId: result.inputs.organizationId.toLowerCase() } : result.inputs;
  return { inputs: carryStableOutputs(olds, inputs, STABLE_OUTPUTS, REPLACE_ON, uuidComparable), failures: [] };
}

export async function diff(_id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.DiffResult> {
  const managed = managedIn(PATCHABLE_ARGS, news);
  // A patchable argument dropped from the program is simply no longer managed: not a change.
  const result = diffProperties(olds, news, [...REPLACE_ON, ...managed], REPLACE_ON, uuidComparable, STABLE_OUTPUTS);
  // Which arguments are managed is itself state: a change to the set alone is an (empty) update.
  if (!deepEqual(olds.managedArgs ?? [], managed)) return { ...result, changes: true };
  return { ...result, stables: result.replaces.length > 0 ? [] : [...result.stables, "managedArgs"] };
}

export async function create(inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  const args = withoutProvider(inputs);
  const res: ApiResponse = await send(connectionFor("cloud"), {
    method: "POST",
    path: keysPath(organizationOf(args)),
    body: toWire(args, [...PATCHABLE_ARGS, "hashData"]),
    creates: describeKey(args),
    secrets: secretsOf(args),
    // The answer carries the new key's secret, which its requestId (quoted by errors below) must not.
    secretsInAnswer: (body) => secretsOf({ ...args, ...credentialsIn(body) }),
  });
  // Only the key's id is needed: without it Pulumi cannot record the key the service made.
  let key: WireKey;
  try {
    key = decode(createdKeyAnswer, res).result.key;
  } catch (err) {
    if (!(err instanceof UnexpectedResponseError)) throw err;
    throw createdWithoutId(res, describeKey(args), err);
  }
  const id = String(key.id);
  const credentials = credentialsIn(res.body);
  const outs = outputs(args, key, credentials);
  // With hashData the answer carries no credentials: the program made the pair and holds it.
  if (args.hashData !== undefined || (credentials.keyId !== undefined && credentials.keySecret !== undefined)) return { id, outs };
  // Without them a key is made that nobody can use (its secret is never returned again). Keep it
  // in state by its id, so it is not orphaned, and say what to do.
  const reason = new Error(
    `POST ${keysPath(organizationOf(args))} answered ${res.status} without the new key's ${credentials.keyId === undefined ? "keyId" : "keySecret"}` +
      `${res.requestId === undefined ? "" : ` (requestId ${res.requestId})`}. The API key ${id} was created and is kept in the stack's state. ` +
      "Its key ID or secret was not in the answer and is never returned again, so the key cannot be used: replace it (pulumi up --replace) or delete it.",
  );
  throw new PartialFailure(id, { ...inputs, ...outs }, reason);
}

export async function read(id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult> {
  const res = await unlessGone(() =>
    send(connectionFor("cloud"), { method: "GET", path: keysPath(organizationOrFail(id, props), id), secrets: secretsOf(props) }),
  );
  if (res === undefined) return {};
  // A 2xx without a key in it tells nothing: what is stored stands.
  const key: WireKey = keyIn(res.body) ?? withoutProvider(props);
  const managed = managedInState(PATCHABLE_ARGS, props, "managedArgs");
  const args: PropertyMap = { organizationId: props.organizationId };
  for (const n of managed) args[n] = props[n];
  // The secret is never returned again: keep the stored credentials.
  const live = outputs(args, key, { keyId: props.keyId, keySecret: props.keySecret }, withoutProvider(props));
  // Inputs carry the live value of what the program manages, so drift shows there and only there.
  const inputs: PropertyMap = { organizationId: props.organizationId, ...stableOutputsOf(live, STABLE_OUTPUTS) };
  if (props.hashData !== undefined) inputs.hashData = props.hashData;
  for (const n of managed) inputs[n] = live[n];
  return { id, props: live, inputs };
}

export async function update(id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult> {
  const args = withoutProvider(news);
  const before = withoutProvider(olds);
  const managed = managedIn(PATCHABLE_ARGS, args);
  const changed = managed.filter((n) => hasChanged(n, olds[n], args[n], comparable));
  const credentials = { keyId: olds.keyId, keySecret: olds.keySecret };
  if (changed.length === 0) {
    // Only the set of managed arguments changed: nothing to send.
    return { outs: { ...before, managedArgs: managed, ...(args.hashData !== undefined ? { hashData: args.hashData } : {}) } };
  }
  // Every managed field, not only the changed ones: one out-of-band change the state has not
  // seen yet (a key disabled by hand) is put back too, as the program says.
  const res = await send(connectionFor("cloud"), {
    method: "PATCH",
    path: keysPath(organizationOrFail(id, args), id),
    body: toWire(args, managed),
    secrets: secretsOf({ ...olds, ...args }),
  });
  return { outs: outputs(args, keyIn(res.body) ?? {}, credentials, before) };
}

export async function del(id: string, props: PropertyMap): Promise<void> {
  // Already gone is done.
  await unlessGone(() => send(connectionFor("cloud"), { method: "DELETE", path: keysPath(organizationOrFail(id, props), id), secrets: secretsOf(props) }));
}

export { del as delete };
