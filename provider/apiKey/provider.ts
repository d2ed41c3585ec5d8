// The ApiKey provider methods. The key's secret comes back once, from POST; it is kept in state
// (as a Pulumi secret, see resource.ts) because no later call returns it. With keyMaterial "local"
// the provider makes the pair and sends only its hashes (material.ts). A create whose answer is
// lost finds what it made by listing (recovery.ts, lookup.ts); one with importId takes over an
// existing key instead.

import type * as pulumi from "@pulumi/pulumi";
import { connectionFailures, connectionFor, type AreaConnection } from "../runtime/connection";
import { decode, send, type ApiResponse } from "../http/client";
import { UnexpectedResponseError, UnusableKeyLeftError, createdWithoutId, unlessGone, ImportIdOnReplaceError, PartialFailure } from "../errors";
import { importIdParts, keptByReplacement, readForImport } from "../creation/importing";
import { createRecovering } from "../creation/recovery";
import { checkInputs } from "../protocol/check";
import { carryStableOutputs, changeOf, deepEqual, diffProperties, hasChanged, stableOutputsOf, type Diff } from "../protocol/diff";
import { managedIn, managedInState } from "../protocol/managed";
import { outputsFrom } from "../protocol/outputRules";
import { previewOutputs } from "../protocol/preview";
import { compact, withoutProvider, type PropertyMap } from "../protocol/properties";
import { IMPORT_ID, PATCHABLE_ARGS, REPLACE_ON, apiKeyArgsSchema, asIfLeftOut, comparedForm, crossFieldFailures, describeKey } from "./args";
import { matchesManaged, keysMadeBy, type KeyCandidate, type SentKey } from "./lookup";
import type { HashData } from "../serviceFacts/hashData";
import { makeLocalMaterial, type LocalMaterial } from "./material";
import { KEY_FIELDS, KEY_OUTPUTS, createdKeyAnswer, credentialsIn, keyIn, keysPath, toWire, type WireKey } from "./wire";

/** What a PATCH cannot change: the key's identity. */
const STABLE_OUTPUTS = ["keyId", "keySuffix", "createdAt"] as const;

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
 * does: the program made the pair) or the provider made them ("local"). `sent` is the hashData a
 * create sent, whose suffix stands in for one the answer leaves out.
 */
function outputs(args: PropertyMap, key: WireKey, credentials: { keyId: unknown; keySecret: unknown }, before: PropertyMap = {}, sent?: HashData): PropertyMap {
  const hashData = args.hashData ?? before.hashData;
  const program = { ...toWire(args, PATCHABLE_ARGS), keySuffix: hashedSuffix(sent ?? hashData) };
  return compact({
    organizationId: args.organizationId ?? before.organizationId,
    ...outputsFrom(KEY_OUTPUTS, KEY_FIELDS, key, { program, stored: before }),
    keyId: credentials.keyId,
    keySecret: credentials.keySecret,
    managedArgs: managedIn(PATCHABLE_ARGS, args),
    hashData,
    // Kept so diff can tell when they change; never sent.
    keepers: args.keepers ?? before.keepers,
    keyMaterial: args.keyMaterial ?? before.keyMaterial,
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

export { configureProvider as configure } from "../runtime/connection";

export async function check(olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  const result = checkInputs(apiKeyArgsSchema, news, ["hashData"]);
  const failures = [...result.failures];
  for (const f of crossFieldFailures(withoutProvider(news))) {
    if (!failures.some((x) => x.property === f.property)) failures.push(f);
  }
  failures.push(...connectionFailures("cloud"));
  // importId stays among the inputs after the take-over, so diff can refuse a replacement while it is set.
  const checked = result.inputs;
  if (failures.length > 0) return { inputs: checked, failures };
  // A uuid's letter case is no change: the service treats them alike, so only lower case is kept.
  const inputs = typeof checked.organizationId === "string" ? { ...checked, organizationId: checked.organizationId.toLowerCase() } : checked;
  return { inputs: carryStableOutputs(olds, inputs, STABLE_OUTPUTS, REPLACE_ON, comparedForm), failures: [] };
}

export async function diff(id: string, olds: PropertyMap, news: PropertyMap): Promise<Diff> {
  const managed = managedIn(PATCHABLE_ARGS, news);
  // A patchable argument dropped from the program is simply no longer managed: not a change.
  const result = diffProperties(olds, news, [...REPLACE_ON, ...managed], REPLACE_ON, comparedForm, STABLE_OUTPUTS);
  // importId is never compared: after the take-over, changing or removing it is no change. But a
  // replacement's create sees it again (the engine checks the program's inputs afresh, without the
  // stored ones) and would take over this same key, which the delete of the replaced one removes.
  if (result.replaces.length > 0 && news[IMPORT_ID] !== undefined) throw new ImportIdOnReplaceError("API key", id, result.replaces);
  // Which arguments are managed is itself state: a change to the set alone is an (empty) update.
  if (!deepEqual(olds.managedArgs ?? [], managed)) {
    return { ...result, changes: true, detailedDiff: { ...result.detailedDiff, managedArgs: changeOf(olds.managedArgs, managed, false) } };
  }
  return { ...result, stables: result.replaces.length > 0 ? [] : [...result.stables, "managedArgs"] };
}

export async function create(inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  const args = withoutProvider(inputs);
  const conn = connectionFor("cloud");
  const importId = args[IMPORT_ID];
  if (typeof importId === "string") return takeOver(conn, importId, args);
  const local = args.keyMaterial === "local" ? makeLocalMaterial() : undefined;
  // The program's pair (hashData) or the provider's (local): either way the service is sent only hashes.
  const hashData = (args.hashData as HashData | undefined) ?? local?.hashData;
  const plan: CreatePlan = {
    description: describeKey(args),
    hashData,
    local,
    secrets: [...secretsOf(args), ...(local === undefined ? [] : [local.keySecret, local.hashData.keyIdHash, local.hashData.keySecretHash])],
  };
  const name = typeof args.name === "string" ? args.name : undefined;
  // The listing shows neither key IDs nor hashes: a key whose pair we hold is told by its suffix.
  const sent: SentKey = hashData === undefined ? { name, roles: args.roles as string[] } : { name, keySuffix: hashData.keyIdSuffix };
  // Taken before the first POST: what a lost one made was created after it (recovery.ts).
  const sentAt = Date.now();
  const post = () => postKey(conn, inputs, plan);
  return createRecovering<pulumi.dynamic.CreateResult, KeyCandidate>({
    description: plan.description,
    post,
    look: () => keysMadeBy(conn, organizationOf(args), sent, sentAt, plan.secrets),
    ...(hashData === undefined
      ? {
          // Its secret was only in the lost answer, so nobody can use it: replaced, once (a plain POST).
          adopt: async (found: KeyCandidate) => {
            const path = keysPath(organizationOf(args), found.id);
            try {
              await unlessGone(() => send(conn, { method: "DELETE", path, secrets: plan.secrets }));
            } catch (err) {
              throw new UnusableKeyLeftError({ method: "DELETE", path }, found.id, err);
            }
            return post();
          },
          adoption: "but its secret was in the lost answer, so nobody can use it: deleting it and making the key again, once",
        }
      : {
          // We hold the pair: the key as listed is the key as a create answers it.
          adopt: async (found: KeyCandidate) => ({ id: found.id, outs: outputs(args, found.key, credentialsOf(local), {}, hashData) }),
        }),
  });
}

/** What one create sends and holds, the same for its first POST and any other. */
interface CreatePlan {
  readonly description: string;
  /** Sent instead of a pair: the program's, or made from `local`; undefined when the service makes the pair. */
  readonly hashData: HashData | undefined;
  readonly local: LocalMaterial | undefined;
  /** For the HTTP layer to scrub from errors. */
  readonly secrets: readonly unknown[];
}

/** The pair to record when the service does not answer one: the provider's, or none (the program's own pair). */
function credentialsOf(local: LocalMaterial | undefined): { keyId: unknown; keySecret: unknown } {
  return { keyId: local?.keyId, keySecret: local?.keySecret };
}

async function postKey(conn: AreaConnection, inputs: PropertyMap, plan: CreatePlan): Promise<pulumi.dynamic.CreateResult> {
  const args = withoutProvider(inputs);
  const path = keysPath(organizationOf(args));
  const res: ApiResponse = await send(conn, {
    method: "POST",
    path,
    body: { ...toWire(args, PATCHABLE_ARGS), ...(plan.hashData === undefined ? {} : { hashData: plan.hashData }) },
    creates: plan.description,
    secrets: plan.secrets,
    // The answer carries the new key's secret, which its requestId (quoted by errors below) must not.
    secretsInAnswer: (body) => [...plan.secrets, credentialsIn(body).keySecret],
  });
  // Only the key's id is needed: without it Pulumi cannot record the key the service made.
  let key: WireKey;
  try {
    key = decode(createdKeyAnswer, res).result.key;
  } catch (err) {
    if (!(err instanceof UnexpectedResponseError)) throw err;
    throw createdWithoutId(res, plan.description, err);
  }
  const id = String(key.id);
  // The pair the provider made is the one the service holds hashes of; else the answer's, if any.
  const credentials = plan.local === undefined ? credentialsIn(res.body) : credentialsOf(plan.local);
  const outs = outputs(args, key, credentials, {}, plan.hashData);
  // With hashData the answer carries no credentials: the program or the provider made the pair and holds it.
  if (plan.hashData !== undefined || (credentials.keyId !== undefined && credentials.keySecret !== undefined)) return { id, outs };
  // Without them a key is made that nobody can use (its secret is never returned again). Keep it
  // in state by its id, so it is not orphaned, and say what to do.
  const reason = new Error(
    `POST ${path} answered ${res.status} without the new key's ${credentials.keyId === undefined ? "keyId" : "keySecret"}` +
      `${res.requestId === undefined ? "" : ` (requestId ${res.requestId})`}. The API key ${id} was created and is kept in the stack's state. ` +
      "Its key ID or secret was not in the answer and is never returned again, so the key cannot be used: replace it (pulumi up --replace) or delete it.",
  );
  throw new PartialFailure(id, { ...inputs, ...outs }, reason);
}

/**
 * Makes an existing key the resource's (importId): one GET; one PATCH of the arguments the program
 * manages only when the live key does not already hold them; never a POST. The id is the one given.
 * Its key ID and secret are unknown to us (the service showed them once, to whoever made it): null.
 */
async function takeOver(conn: AreaConnection, importId: string, args: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  const path = keysPath(organizationOf(args), importId);
  const got = await readForImport("API key", importId, () => send(conn, { method: "GET", path }));
  const live = keyIn(got.body);
  const managed = managedIn(PATCHABLE_ARGS, args);
  const unknownPair = { keyId: null, keySecret: null };
  if (live !== undefined && matchesManaged(args, managed, live)) return { id: importId, outs: outputs(args, live, unknownPair) };
  const res = await send(conn, { method: "PATCH", path, body: toWire(args, managed) });
  return { id: importId, outs: outputs(args, keyIn(res.body) ?? {}, unknownPair, live ?? {}) };
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
  for (const n of ["hashData", "keepers", "keyMaterial"]) if (props[n] !== undefined) inputs[n] = props[n];
  for (const n of managed) inputs[n] = live[n];
  return { id, props: live, inputs };
}

/** How an import names a key: its path needs the organization, and no state holds one yet. */
export const IMPORT_ID_FORM = ["organizationId", "id"] as const;

/**
 * An existing key by `<organizationId>/<id>` alone, as an import reads it. The resource id is the
 * key's own id, as for a key this provider made. With no program to say which arguments it
 * manages, those whose live value is not what leaving them out gives are recorded as managed. Its
 * key ID and secret were shown once, to whoever made it: null, as for a take-over.
 */
export async function readImported(importId: string): Promise<pulumi.dynamic.ReadResult> {
  const [organizationId = "", id = ""] = importIdParts("API key", importId, IMPORT_ID_FORM);
  const found = await read(id, { organizationId: organizationId.toLowerCase(), managedArgs: [...PATCHABLE_ARGS] });
  if (found.props === undefined) return found;
  const props = found.props as PropertyMap;
  const inputs = (found.inputs ?? {}) as PropertyMap;
  const managed = PATCHABLE_ARGS.filter((n) => !asIfLeftOut(n, props[n]));
  for (const n of PATCHABLE_ARGS) if (!managed.includes(n)) delete inputs[n];
  return { id, props: { ...props, keyId: null, keySecret: null, managedArgs: managed }, inputs };
}

/**
 * What a create records, as far as a preview knows: the program's arguments as sent; the key as
 * the service makes it and the pair, not yet (none with the program's hashData; null on a take-over).
 */
export function previewCreate(inputs: PropertyMap): PropertyMap {
  const args = withoutProvider(inputs);
  const managed: readonly string[] = managedIn(PATCHABLE_ARGS, args);
  const pair = args[IMPORT_ID] !== undefined ? { keyId: null, keySecret: null } : {};
  const decided = [...KEY_FIELDS.filter((n) => !managed.includes(n)), ...(args.hashData === undefined ? ["keyId", "keySecret"] : [])];
  const known = { ...kept(args, managed), keySuffix: hashedSuffix(args.hashData), ...pair };
  return previewOutputs(known, decided);
}

/** What an update records, as far as a preview knows: as a create, and the key's identity and pair as stored. */
export function previewUpdate(_id: string, olds: PropertyMap, news: PropertyMap): PropertyMap {
  const args = withoutProvider(news);
  const before = withoutProvider(olds);
  const managed: readonly string[] = managedIn(PATCHABLE_ARGS, args);
  const stable = { keyId: before.keyId, keySecret: before.keySecret, keySuffix: before.keySuffix, createdAt: before.createdAt };
  const decided = KEY_FIELDS.filter((n) => !managed.includes(n) && !(n in stable));
  return previewOutputs({ ...stable, ...kept({ ...args, hashData: args.hashData ?? before.hashData }, managed) }, decided);
}

/** The outputs that are the program's own: its organization, the managed arguments as sent, and what only a create takes. */
function kept(args: PropertyMap, managed: readonly string[]): PropertyMap {
  return compact({
    organizationId: args.organizationId,
    ...toWire(args, managed),
    managedArgs: managed,
    hashData: args.hashData,
    keepers: args.keepers,
    keyMaterial: args.keyMaterial,
  });
}

export async function update(id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult> {
  const args = withoutProvider(news);
  const before = withoutProvider(olds);
  const managed = managedIn(PATCHABLE_ARGS, args);
  const changed = managed.filter((n) => hasChanged(n, olds[n], args[n], comparedForm));
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
  if (keptByReplacement("API key", id)) return;
  // Already gone is done.
  await unlessGone(() => send(connectionFor("cloud"), { method: "DELETE", path: keysPath(organizationOrFail(id, props), id), secrets: secretsOf(props) }));
}

export { del as delete };
