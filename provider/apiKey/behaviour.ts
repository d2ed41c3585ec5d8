// The ApiKey's behaviour. The key's secret comes back once, from POST; it is kept in state (a
// Pulumi secret) because no later call returns it. With keyMaterial "local" the provider makes the
// pair and sends only its hashes (material.ts). A create whose answer is lost finds what it made
// by listing (creation/recovery.ts, lookup.ts); one with importId takes over an existing key.

import { connectionFailures, connectionFor, type AreaConnection } from "../runtime/connection";
import { send, type ApiRequest } from "../http/client";
import { unlessGone } from "../http/gone";
import { IdFormError, UnusableKeyLeftError, ImportIdOnReplaceError } from "../errors";
import { importIdParts, keptByReplacement, readForImport } from "../creation/importing";
import { createRecovering } from "../creation/recovery";
import { readListed } from "../reading/listedReads";
import { notify } from "../runtime/notices";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import { checkArgs, type CheckFailure } from "../protocol/check";
import { comparedForm, namesWith } from "../protocol/definition";
import { changeOf, deepEqual, diffProperties, hasChanged, type Diff } from "../protocol/diff";
import { managedIn, managedInState } from "../protocol/managed";
import { previewOutputs } from "../protocol/preview";
import { compact, containsUnknown, pick } from "../protocol/properties";
import { NEW_KEY_STATE } from "../serviceFacts/apiKeys";
import { quotedId } from "../protocol/ids";
import type { KeyRole } from "../serviceFacts/apiKeys";
import type { HashData } from "../serviceFacts/hashData";
import { API_KEY } from "./definition";
import { keyCollection, keysMadeBy, type KeyCandidate } from "./lookup";
import { makeLocalMaterial, type LocalMaterial } from "./material";
import {
  KEY_FIELDS,
  PATCHABLE_ARGS,
  asSent,
  createResult,
  credentialsIn,
  hashedSuffix,
  keyIn,
  keyAsRead,
  keyOutputs,
  keysPath,
  toWire,
  type Args,
  type CreateAnswer,
  type Credentials,
  type Patchable,
  type State,
  type WireKey,
} from "./wire";

/** The program's inputs as the engine hands them to check: the names known, the values not checked yet. */
type Unchecked = { readonly [K in keyof Args]?: unknown };

/** Changing one makes a new key: what only the create takes, and `keepers`, never sent, to rotate it. */
const REPLACE_ON = namesWith(API_KEY, "replaces");
const compared = comparedForm(API_KEY);

/**
 * Arguments that cannot go together, each failure at the property to change: who made a key's
 * material is one choice. A taken-over key's pair is the service's; "local" is the provider's;
 * hashData is the program's own.
 */
function crossFieldFailures(inputs: Unchecked): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const given = (name: keyof Args) => inputs[name] !== undefined && inputs[name] !== null;
  const local = inputs.keyMaterial === "local";
  if (local && given("hashData")) {
    failures.push({
      property: "keyMaterial",
      reason:
        'keyMaterial "local" makes the key ID and secret in the provider, so it cannot go with hashData (the program\'s own pair): remove one of them',
    });
  }
  if (
    !given("roles") &&
    !given("assignedRoleIds") &&
    !containsUnknown(inputs.roles) &&
    !containsUnknown(inputs.assignedRoleIds)
  ) {
    failures.push({
      property: "assignedRoleIds",
      reason: "give the key assignedRoleIds (role uuids), roles (deprecated), or both: a key needs at least one role",
    });
  }
  if (given("importId") && (given("hashData") || local)) {
    failures.push({
      property: "importId",
      reason: `importId takes over a key whose ID and secret the service made, so it cannot go with ${local ? 'keyMaterial "local"' : "hashData"}: remove importId to create a new key`,
    });
  }
  return failures;
}

/** Whether a live key already holds the program's value of every argument it manages (`names`). */
function matchesManaged(args: Args, names: readonly Patchable[], key: WireKey): boolean {
  const live = keyAsRead(key);
  return names.every((n) => !hasChanged(n, live[n], args[n], compared));
}

/**
 * What tells the key a POST made from the others. The service lists neither key IDs nor hashes:
 * a key it made is known by its name and roles, one whose pair the program made by its suffix.
 */
interface SentKey {
  /** The name sent; undefined when none was (the service names it, so any name matches). */
  readonly name?: string | undefined;
  /** The roles sent, compared as a set; undefined when the suffix decides or none were sent. */
  readonly roles?: readonly KeyRole[] | undefined;
  /** The role uuids sent, compared as a set; likewise. */
  readonly assignedRoleIds?: readonly string[] | undefined;
  /** The keyIdSuffix sent in hashData. */
  readonly keySuffix?: string;
}

/** Whether a listed key is one a POST of `sent` may have made. */
function matchesSent(sent: SentKey, key: WireKey): boolean {
  const live = keyAsRead(key);
  if (sent.name !== undefined && (key.name ?? "") !== sent.name) return false;
  if (sent.roles !== undefined && hasChanged("roles", key.roles, sent.roles, compared)) return false;
  const ids = sent.assignedRoleIds;
  // The listing may name more roles than were sent (given from the role's side): each sent one must be there.
  const liveIds = new Set(
    (Array.isArray(live.assignedRoleIds) ? live.assignedRoleIds : []).map((id) => String(id).toLowerCase()),
  );
  if (ids !== undefined && !ids.every((id) => liveIds.has(id.toLowerCase()))) return false;
  // A key made for a lost answer was never used: its secret was only in that answer.
  const byRoles = sent.roles !== undefined || ids !== undefined;
  if (byRoles && key.usedAt !== undefined && key.usedAt !== null) return false;
  return sent.keySuffix === undefined || key.keySuffix === sent.keySuffix;
}

/**
 * Whether a live value is the one a key has when its program leaves the argument out. An import
 * records as managed only the arguments whose live value is not this.
 */
function asIfLeftOut(name: Patchable, value: unknown): boolean {
  if (name === "roles") return Array.isArray(value) && value.length === 0;
  if (name === "state") return value === NEW_KEY_STATE || value === undefined || value === null;
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/** Words naming the key in an error whose outcome is unknown: its name, else its roles and organization. */
function describeKey(args: Args): string {
  if ((args.name ?? "") !== "") return `the API key "${args.name}"`;
  const roles = [...(args.roles ?? []), ...(args.assignedRoleIds ?? [])].join(", ");
  return `an unnamed API key (roles ${roles}) in organization ${args.organizationId}`;
}

/** What a PATCH cannot change: the key's identity. */
const STABLE_OUTPUTS = namesWith(API_KEY, "stable");

function organizationOf(props: Pick<State, "organizationId">): string {
  return props.organizationId ?? "";
}

/**
 * What this resource holds as secret, besides the connection's credentials: the key secret and hashData. The HTTP layer
 * scrubs them from errors.
 */
function secretsOf(props: Pick<State, "keySecret" | "hashData">): unknown[] {
  // The suffix is no secret: the service lists it, and it is an output in plain text (keySuffix).
  return [props.keySecret, props.hashData?.keyIdHash, props.hashData?.keySecretHash];
}

function organizationOrFail(id: string, props: Pick<State, "organizationId">): string {
  const organizationId = organizationOf(props);
  if (organizationId === "") {
    throw new IdFormError(
      "API key",
      "organizationId",
      "",
      `the key ${quotedId(id)} has no organizationId in its state, so it cannot be addressed (…/organizations/{organizationId}/keys/{id})`,
    );
  }
  return organizationId;
}

async function check(olds: Unchecked, news: Unchecked) {
  return checkArgs<Args>(API_KEY, news, crossFieldFailures, [
    ...expiredOnArrival(olds, news),
    ...connectionFailures("cloud"),
  ]);
}

/** An expiry as an instant (ms), or undefined when there is none or it is not a date-time (the check says why). */
function expiryOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const at = compared("expireAt", value);
  return typeof at === "number" ? at : undefined;
}

/**
 * An expireAt already past, on a key created with it or changed to it: the key would be born
 * expired. A key that has expired since (the same expireAt as stored) is no failure; diff says so.
 */
function expiredOnArrival(olds: Unchecked, news: Unchecked): CheckFailure[] {
  const at = expiryOf(news.expireAt);
  const now = Date.now();
  if (at === undefined || at > now || expiryOf(olds.expireAt) === at) return [];
  return [
    {
      property: "expireAt",
      reason:
        `expireAt ${String(news.expireAt)} is in the past (it is now ${new Date(now).toISOString()}), so the key would be expired from the start: ` +
        'give a later time, or null or "" for a key that never expires',
    },
  ];
}

/** Says, in a preview or an up, that a key's expiry has passed since it was set. */
function noticeExpired(id: string, olds: State, news: Args): void {
  const at = expiryOf(olds.expireAt);
  if (at === undefined || at > Date.now() || expiryOf(news.expireAt) !== at) return;
  notify(
    `pulumi-alertpipe: the API key ${id} has expired (expireAt ${String(olds.expireAt)}): the service refuses it. ` +
      'Set a later expireAt (changed in place) or null or "" to keep using it.',
  );
}

/**
 * A key whose create answer lacked its key ID or secret (createResult, wire.ts): kept in state without them,
 * though the program made no pair (no hashData; "local" keys always hold theirs). Keys taken over
 * (importId) or imported hold null, the pair being unknown by design: not this.
 */
function madeWithoutPair(olds: State): boolean {
  return (
    olds.hashData === undefined &&
    olds.keyMaterial !== "local" &&
    (olds.keyId === undefined || olds.keySecret === undefined)
  );
}

async function diff(id: string, olds: State, news: Args): Promise<Diff> {
  noticeExpired(id, olds, news);
  const managed = managedIn(PATCHABLE_ARGS, news);
  // A patchable argument dropped from the program is simply no longer managed: not a change.
  const found = diffProperties(olds, news, [...REPLACE_ON, ...managed], REPLACE_ON, compared, STABLE_OUTPUTS);
  const result = madeWithoutPair(olds) ? replacedForItsPair(id, found) : found;
  // importId is never compared: after the take-over, changing or removing it is no change. But a
  // replacement's create sees it again (the engine checks the program's inputs afresh, without the
  // stored ones) and would take over this same key, which the delete of the replaced one removes.
  if (result.replaces.length > 0 && news.importId !== undefined)
    throw new ImportIdOnReplaceError("API key", id, result.replaces);
  // Which arguments are managed is itself state: a change to the set alone is an (empty) update.
  if (!deepEqual(olds.managedArgs ?? [], managed)) {
    return {
      ...result,
      changes: true,
      detailedDiff: { ...result.detailedDiff, managedArgs: changeOf(olds.managedArgs, managed, false) },
    };
  }
  return { ...result, stables: result.replaces.length > 0 ? [] : [...result.stables, "managedArgs"] };
}

/**
 * The diff of a key nobody can use, whatever else changed: a replacement, the new key (with its pair)
 * created before this one is deleted, said as a change of keySecret and in a line naming why. An
 * update could not help (the secret is never returned again), and the error of its create is
 * cleared by the next run: without this, that run would keep the key silently.
 */
function replacedForItsPair(id: string, found: Diff): Diff {
  notify(
    `pulumi-alertpipe: the API key ${id} was created without its key ID or secret in the answer, so nobody can use it: ` +
      "replacing it with a new key (created before this one is deleted).",
  );
  return {
    ...found,
    changes: true,
    replaces: [...found.replaces, "keySecret"],
    stables: [],
    deleteBeforeReplace: false,
    detailedDiff: { ...found.detailedDiff, keySecret: { kind: "add", replaces: true } },
  };
}

/**
 * A create is one pipeline, each step once and in this order: plan what to send and what to keep
 * (planCreate), send it (a take-over's GET and PATCH, or a POST that finds what a lost answer
 * made), then read the answer and build the outputs from it (createResult, wire.ts).
 */
async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("cloud");
  const plan = planCreate(args);
  const answer = plan.kind === "new" ? await postRecovering(conn, plan) : await takeOver(conn, plan);
  return createResult(plan, answer);
}

/** What one create sends and keeps, decided before any request: the same for its first POST and any other. */
type CreatePlan = TakeOverPlan | NewKeyPlan;

interface PlanBase {
  /** The program's inputs as given, kept whole in the state of a key nobody can use (createResult). */
  readonly inputs: Args;
  readonly args: Args;
  readonly description: string;
  /** The key's path: the existing key's for a take-over, the organization's keys for a POST. */
  readonly path: string;
}

/** An existing key made the resource's (importId) instead of a new one. */
interface TakeOverPlan extends PlanBase {
  readonly kind: "takeOver";
  readonly importId: string;
  /** Whether the live key already holds every argument the program manages: then no PATCH. */
  readonly holdsManaged: (key: WireKey) => boolean;
  /** The PATCH of the arguments the program manages. */
  readonly patch: Record<string, unknown>;
}

interface NewKeyPlan extends PlanBase {
  readonly kind: "new";
  readonly organizationId: string;
  /** Sent instead of a pair: the program's, or made from `local`; undefined when the service makes the pair. */
  readonly hashData: HashData | undefined;
  /** The pair the provider made ("local"): the key's credentials, which the service never sees. */
  readonly local: LocalMaterial | undefined;
  /** The POST, the same each time it is sent. */
  readonly request: ApiRequest;
  /** For the HTTP layer to scrub from errors. */
  readonly secrets: readonly unknown[];
  /** Whether a listed key is one the POST may have made (lookup.ts filters by it). */
  readonly matches: (key: WireKey) => boolean;
}

function planCreate(args: Args): CreatePlan {
  const inputs = args;
  const organizationId = organizationOf(args);
  const programSecrets = secretsOf(args);
  // Who makes the pair comes first: what is sent and how a key a lost POST made is told apart
  // follow from it. A taken-over key's pair is the service's (check refuses importId with
  // "local"), so a take-over sends and keeps none of it.
  const local = args.keyMaterial === "local" ? makeLocalMaterial() : undefined;
  // The program's pair (hashData) or the provider's (local): either way the service is sent only hashes.
  const hashData: HashData | undefined = args.hashData ?? local?.hashes;
  const description = describeKey(args);
  const importId = args.importId ?? undefined;
  const managed = managedIn(PATCHABLE_ARGS, args);
  const name = args.name ?? undefined;
  // The listing shows neither key IDs nor hashes: a key whose pair we hold is told by its suffix.
  const sent: SentKey =
    hashData === undefined
      ? { name, roles: args.roles ?? undefined, assignedRoleIds: args.assignedRoleIds ?? undefined }
      : { name, keySuffix: hashData.keyIdSuffix };
  const matches = (key: WireKey) => matchesSent(sent, key);
  const holdsManaged = (key: WireKey) => matchesManaged(args, managed, key);
  const path = keysPath(organizationId, importId);
  if (importId !== undefined)
    return { kind: "takeOver", inputs, args, description, path, importId, holdsManaged, patch: toWire(args, managed) };
  const body = { ...toWire(args, PATCHABLE_ARGS), ...(hashData === undefined ? {} : { hashData }) };
  const secrets = [
    ...programSecrets,
    ...(local === undefined ? [] : [local.secret, local.hashes.keyIdHash, local.hashes.keySecretHash]),
  ];
  return {
    kind: "new",
    inputs,
    args,
    description,
    path,
    organizationId,
    hashData,
    local,
    // The answer carries the new key's secret, which its requestId (quoted by errors) must not.
    request: {
      method: "POST",
      path,
      body,
      creates: description,
      secrets,
      secretsInAnswer: (answer) => [...secrets, credentialsIn(answer).keySecret],
    },
    secrets,
    matches,
  };
}

/**
 * Makes an existing key the resource's (importId): one GET; one PATCH of the arguments the program
 * manages only when the live key does not already hold them; never a POST. The id is the one given.
 */
async function takeOver(conn: AreaConnection, plan: TakeOverPlan): Promise<CreateAnswer> {
  const got = await readForImport("API key", plan.importId, () => send(conn, { method: "GET", path: plan.path }));
  const live = keyIn(got.body);
  if (live !== undefined && plan.holdsManaged(live))
    return { kind: "takenOver", id: plan.importId, live, patched: undefined };
  const patched = await send(conn, { method: "PATCH", path: plan.path, body: plan.patch });
  return { kind: "takenOver", id: plan.importId, live, patched };
}

/** The POST, and when its answer is lost, the key it made found by what was sent (recovery.ts). */
function postRecovering(conn: AreaConnection, plan: NewKeyPlan): Promise<CreateAnswer> {
  const look = (sentAt: number) => keysMadeBy(conn, plan.organizationId, plan.matches, sentAt, plan.secrets);
  const post = async (): Promise<CreateAnswer> => ({ kind: "posted", res: await send(conn, plan.request) });
  if (plan.hashData === undefined) {
    // Its secret was only in the lost answer, so nobody can use it: deleted, and the POST sent again.
    return createRecovering<CreateAnswer, KeyCandidate>({
      description: plan.description,
      post,
      look,
      discard: async (found) => {
        const path = keysPath(plan.organizationId, found.id);
        try {
          await unlessGone(() => send(conn, { method: "DELETE", path, secrets: plan.secrets }));
        } catch (err) {
          throw new UnusableKeyLeftError({ method: "DELETE", path }, found.id, err);
        }
      },
      discarding: "but its secret was in the lost answer, so nobody can use it",
      remaking: "making the key again",
    });
  }
  // We hold the pair: the key as listed is the key as a create answers it.
  return createRecovering<CreateAnswer, KeyCandidate>({
    description: plan.description,
    post,
    look,
    adopt: async (found) => ({ kind: "found", id: found.id, key: found.key }),
  });
}

/** What a read carries of the stored inputs besides the organization: what only a create takes. */
const CARRIED: readonly (keyof Args & keyof State)[] = ["hashData", "keepers", "keyMaterial"];

async function read(id: string, stored: State): Promise<Found<typeof API_KEY> | undefined> {
  const conn = connectionFor("cloud");
  const organizationId = organizationOrFail(id, stored);
  const res = await readListed(conn, keyCollection(conn, organizationId), id, {
    method: "GET",
    path: keysPath(organizationId, id),
    secrets: secretsOf(stored),
  });
  if (res === undefined) return undefined;
  // A 2xx without a key in it tells nothing: what is stored stands.
  const key: WireKey = keyIn(res.body) ?? stored;
  const managed = managedInState(PATCHABLE_ARGS, stored, "managedArgs");
  const args: Args = { organizationId, ...valuesOf(stored, managed) };
  // The secret is never returned again: keep the stored credentials.
  const live = keyOutputs(args, key, { keyId: stored.keyId, keySecret: stored.keySecret }, { before: stored });
  // Inputs carry the live value of what the program manages, so drift shows there and only there.
  const inputs: Inputs = { organizationId: stored.organizationId };
  Object.assign(inputs, pick(stored, CARRIED), pick(live, managed));
  return { id, outputs: live, inputs };
}

/** The inputs a read gives the engine: what the live object holds of each argument. */
type Inputs = { -readonly [K in keyof Found<typeof API_KEY>["inputs"]]: Found<typeof API_KEY>["inputs"][K] };

/** The values `from` holds under `names`. */
function valuesOf<T, K extends keyof T>(from: T, names: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const n of names) out[n] = from[n];
  return out;
}

/**
 * An existing key by `<organizationId>/<id>` alone, as an import reads it. The resource id is the
 * key's own id, as for a key this provider made. With no program to say which arguments it
 * manages, those whose live value is not what leaving them out gives are recorded as managed. Its
 * key ID and secret were shown once, to whoever made it: null, as for a take-over.
 */
async function readImported(importId: string): Promise<Found<typeof API_KEY> | undefined> {
  const [organizationId = "", id = ""] = importIdParts("API key", importId, API_KEY.importIdForm, "uuid");
  const found = await read(id, { organizationId: organizationId.toLowerCase(), managedArgs: [...PATCHABLE_ARGS] });
  if (found === undefined) return found;
  const { outputs } = found;
  const inputs: Inputs = { ...found.inputs };
  const managed = PATCHABLE_ARGS.filter((n) => !asIfLeftOut(n, outputs[n]));
  for (const n of PATCHABLE_ARGS) if (!managed.includes(n)) delete inputs[n];
  return { id, outputs: { ...outputs, keyId: null, keySecret: null, managedArgs: managed }, inputs };
}

/** The pair a key records, which a preview knows only as the service's or the program's. */
const PAIR: readonly (keyof State)[] = ["keyId", "keySecret"];

/**
 * What a create records, as far as a preview knows: the program's arguments as sent; the key as
 * the service makes it and the pair, not yet (none with the program's hashData; null on a take-over).
 */
function previewCreate(args: Args): State {
  const managed = managedIn(PATCHABLE_ARGS, args);
  const sent: readonly string[] = managed;
  const pair: Credentials = args.importId !== undefined ? { keyId: null, keySecret: null } : {};
  const decided = [...KEY_FIELDS.filter((n) => !sent.includes(n)), ...(args.hashData === undefined ? PAIR : [])];
  const known = { ...kept(args, managed), keySuffix: hashedSuffix(args.hashData), ...pair };
  return previewOutputs<State>(known, decided);
}

/** What an update records, as far as a preview knows: as a create, and the key's identity and pair as stored. */
function previewUpdate(_id: string, before: State, args: Args): State {
  const managed = managedIn(PATCHABLE_ARGS, args);
  const sent: readonly string[] = managed;
  const stable: State = {
    keyId: before.keyId,
    keySecret: before.keySecret,
    keySuffix: before.keySuffix,
    createdAt: before.createdAt,
  };
  const decided = KEY_FIELDS.filter((n) => !sent.includes(n) && !(n in stable));
  return previewOutputs<State>(
    { ...stable, ...kept({ ...args, hashData: args.hashData ?? before.hashData }, managed) },
    decided,
  );
}

/** The outputs a preview promises (protocol/preview.ts): those it cannot know yet are Pulumi's unknown. */
/**
 * The outputs that are the program's own: its organization, the managed arguments as sent, and what only a create
 * takes.
 */
function kept(args: Args, managed: Patchable[]): State {
  return compact({
    organizationId: args.organizationId,
    ...asSent(args, managed),
    managedArgs: managed,
    hashData: args.hashData,
    keepers: args.keepers,
    keyMaterial: args.keyMaterial,
  });
}

async function update(id: string, olds: State, args: Args): Promise<State> {
  const before = olds;
  const managed = managedIn(PATCHABLE_ARGS, args);
  const changed = managed.filter((n) => hasChanged(n, olds[n], args[n], compared));
  const credentials: Credentials = { keyId: olds.keyId, keySecret: olds.keySecret };
  if (changed.length === 0) {
    // Only the set of managed arguments changed: nothing to send.
    return { ...before, managedArgs: managed, ...(args.hashData !== undefined ? { hashData: args.hashData } : {}) };
  }
  // Every managed field, not only the changed ones: one out-of-band change the state has not
  // seen yet (a key disabled by hand) is put back too, as the program says.
  const res = await send(connectionFor("cloud"), {
    method: "PATCH",
    path: keysPath(organizationOrFail(id, args), id),
    body: toWire(args, managed),
    secrets: secretsOf({ ...olds, ...args }),
  });
  return keyOutputs(args, keyIn(res.body) ?? {}, credentials, { before });
}

async function del(id: string, props: State): Promise<void> {
  if (keptByReplacement("API key", id)) return;
  // Already gone is done.
  await unlessGone(() =>
    send(connectionFor("cloud"), {
      method: "DELETE",
      path: keysPath(organizationOrFail(id, props), id),
      secrets: secretsOf(props),
    }),
  );
}

const verbs = { check, diff, create, read, readImported, update, delete: del, previewCreate, previewUpdate };
export const behaviour = behaviourOf(API_KEY, verbs);
