// The secret comes back once, from POST, so state keeps it (a Pulumi secret). "local" material sends
// only hashes. A lost create answer is found by listing; importId takes over an existing key.

import { connectionFor, type AreaConnection } from "../runtime/connection";
import { checkedWithCredential } from "../http/credentials";
import { send, type ApiRequest } from "../http/client";
import { unlessGone } from "../http/gone";
import { IdFormError, UnusableKeyLeftError, ImportIdOnReplaceError } from "../errors";
import { importIdParts, keptByReplacement, readForImport } from "../creation/importing";
import { createRecovering } from "../creation/recovery";
import { readListed } from "../reading/listedReads";
import { notify } from "../runtime/notices";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import type { CheckFailure } from "../protocol/check";
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

/** Inputs as check gets them: names known, values unchecked. */
type Unchecked = { readonly [K in keyof Args]?: unknown };

/** What only a create takes, and `keepers` (never sent) to rotate the key. */
const REPLACE_ON = namesWith(API_KEY, "replaces");
const compared = comparedForm(API_KEY);

/** Who makes the pair is one choice: the service (also for importId), the provider ("local") or hashData. */
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

/** Whether a live key already holds every managed value. */
function matchesManaged(args: Args, names: readonly Patchable[], key: WireKey): boolean {
  const live = keyAsRead(key);
  return names.every((n) => !hasChanged(n, live[n], args[n], compared));
}

/** The service lists neither key IDs nor hashes: a key is told by name and roles, or by its suffix. */
interface SentKey {
  /** Undefined when none was sent: the service names it, so any name matches. */
  readonly name?: string | undefined;
  /** Compared as a set; undefined when the suffix decides. */
  readonly roles?: readonly KeyRole[] | undefined;
  readonly assignedRoleIds?: readonly string[] | undefined;
  readonly keySuffix?: string;
}

/** Whether a listed key is one a POST of `sent` may have made. */
function matchesSent(sent: SentKey, key: WireKey): boolean {
  const live = keyAsRead(key);
  if (sent.name !== undefined && (key.name ?? "") !== sent.name) return false;
  if (sent.roles !== undefined && hasChanged("roles", key.roles, sent.roles, compared)) return false;
  const ids = sent.assignedRoleIds;
  // A role may be added from its own side, so the listing holds at least the sent ones.
  const liveIds = new Set(
    (Array.isArray(live.assignedRoleIds) ? live.assignedRoleIds : []).map((id) => String(id).toLowerCase()),
  );
  if (ids !== undefined && !ids.every((id) => liveIds.has(id.toLowerCase()))) return false;
  // A key whose answer was lost was never used: its secret was only in that answer.
  const byRoles = sent.roles !== undefined || ids !== undefined;
  if (byRoles && key.usedAt !== undefined && key.usedAt !== null) return false;
  return sent.keySuffix === undefined || key.keySuffix === sent.keySuffix;
}

/** The live value when the program leaves the argument out; an import manages only the others. */
function asIfLeftOut(name: Patchable, value: unknown): boolean {
  if (name === "roles") return Array.isArray(value) && value.length === 0;
  if (name === "state") return value === NEW_KEY_STATE || value === undefined || value === null;
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/** Names the key in an error whose outcome is unknown. */
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

/** Besides the credentials; the HTTP layer scrubs them from errors. */
function secretsOf(props: Pick<State, "keySecret" | "hashData">): unknown[] {
  // Not the suffix: the service lists it, and keySuffix is a plain output.
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
  return checkedWithCredential<Args>("cloud", API_KEY, news, (inputs) => [
    ...crossFieldFailures(inputs),
    ...expiredOnArrival(olds, inputs),
  ]);
}

/** Undefined when none or not a date-time (the check says why). */
function expiryOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const at = compared("expireAt", value);
  return typeof at === "number" ? at : undefined;
}

/** A key born expired fails; one expired since (same expireAt as stored) does not: diff says so. */
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

function noticeExpired(id: string, olds: State, news: Args): void {
  const at = expiryOf(olds.expireAt);
  if (at === undefined || at > Date.now() || expiryOf(news.expireAt) !== at) return;
  notify(
    `pulumi-alertpipe: the API key ${id} has expired (expireAt ${String(olds.expireAt)}): the service refuses it. ` +
      'Set a later expireAt (changed in place) or null or "" to keep using it.',
  );
}

/** A create answer lacked the pair the service made. Taken-over or imported keys hold null by design. */
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
  // A patchable argument dropped is no longer managed: not a change.
  const found = diffProperties(olds, news, [...REPLACE_ON, ...managed], REPLACE_ON, compared, STABLE_OUTPUTS);
  const result = madeWithoutPair(olds) ? replacedForItsPair(id, found) : found;
  // importId is never compared, but a replacement's create would take over this same key again,
  // which the replaced one's delete then removes.
  if (result.replaces.length > 0 && news.importId !== undefined)
    throw new ImportIdOnReplaceError("API key", id, result.replaces);
  // The managed set is state: a change to it alone is an (empty) update.
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
 * A key nobody can use is replaced, create before delete: no update returns the secret again, and
 * without this the next run would keep the key silently.
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

/** Plan, send, build the outputs: each step once, in this order. */
async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("cloud");
  const plan = planCreate(args);
  const answer = plan.kind === "new" ? await postRecovering(conn, plan) : await takeOver(conn, plan);
  return createResult(plan, answer);
}

/** Decided before any request, so every POST of one create is the same. */
type CreatePlan = TakeOverPlan | NewKeyPlan;

interface PlanBase {
  /** Kept whole in the state of a key nobody can use. */
  readonly inputs: Args;
  readonly args: Args;
  readonly description: string;
  readonly path: string;
}

interface TakeOverPlan extends PlanBase {
  readonly kind: "takeOver";
  readonly importId: string;
  /** Then no PATCH. */
  readonly holdsManaged: (key: WireKey) => boolean;
  readonly patch: Record<string, unknown>;
}

interface NewKeyPlan extends PlanBase {
  readonly kind: "new";
  readonly organizationId: string;
  /** Undefined when the service makes the pair. */
  readonly hashData: HashData | undefined;
  /** The service never sees it. */
  readonly local: LocalMaterial | undefined;
  readonly request: ApiRequest;
  readonly secrets: readonly unknown[];
  readonly matches: (key: WireKey) => boolean;
}

function planCreate(args: Args): CreatePlan {
  const inputs = args;
  const organizationId = organizationOf(args);
  const programSecrets = secretsOf(args);
  // Who makes the pair decides what is sent and how a lost POST's key is told apart.
  const local = args.keyMaterial === "local" ? makeLocalMaterial() : undefined;
  // Either way the service gets only hashes.
  const hashData: HashData | undefined = args.hashData ?? local?.hashes;
  const description = describeKey(args);
  const importId = args.importId ?? undefined;
  const managed = managedIn(PATCHABLE_ARGS, args);
  const name = args.name ?? undefined;
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
    // Errors quote the answer's requestId; the new key's secret must not go with it.
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

/** One GET, a PATCH only when the live key differs, never a POST. */
async function takeOver(conn: AreaConnection, plan: TakeOverPlan): Promise<CreateAnswer> {
  const got = await readForImport("API key", plan.importId, () => send(conn, { method: "GET", path: plan.path }));
  const live = keyIn(got.body);
  if (live !== undefined && plan.holdsManaged(live))
    return { kind: "takenOver", id: plan.importId, live, patched: undefined };
  const patched = await send(conn, { method: "PATCH", path: plan.path, body: plan.patch });
  return { kind: "takenOver", id: plan.importId, live, patched };
}

function postRecovering(conn: AreaConnection, plan: NewKeyPlan): Promise<CreateAnswer> {
  const look = (sentAt: number) => keysMadeBy(conn, plan.organizationId, plan.matches, sentAt, plan.secrets);
  const post = async (): Promise<CreateAnswer> => ({ kind: "posted", res: await send(conn, plan.request) });
  if (plan.hashData === undefined) {
    // Its secret was only in the lost answer: delete it and POST again.
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

/** Only a create takes these, so a read carries them over. */
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
  // A 2xx without a key tells nothing.
  const key: WireKey = keyIn(res.body) ?? stored;
  const managed = managedInState(PATCHABLE_ARGS, stored, "managedArgs");
  const args: Args = { organizationId, ...pick(stored, managed) };
  // The secret is never returned again.
  const live = keyOutputs(args, key, { keyId: stored.keyId, keySecret: stored.keySecret }, { before: stored });
  // Only managed inputs carry live values, so drift shows there alone.
  const inputs: Inputs = { organizationId: stored.organizationId };
  Object.assign(inputs, pick(stored, CARRIED), pick(live, managed));
  return { id, outputs: live, inputs };
}

type Inputs = { -readonly [K in keyof Found<typeof API_KEY>["inputs"]]: Found<typeof API_KEY>["inputs"][K] };

/**
 * With no program, the arguments whose live value differs from leaving them out are managed. The pair
 * was shown once, to whoever made the key: null, as for a take-over.
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

const PAIR: readonly (keyof State)[] = ["keyId", "keySecret"];

/** The service's parts are unknown; the pair too, unless hashData (none) or a take-over (null). */
function previewCreate(args: Args): State {
  const managed = managedIn(PATCHABLE_ARGS, args);
  const sent: readonly string[] = managed;
  const pair: Credentials = args.importId !== undefined ? { keyId: null, keySecret: null } : {};
  const decided = [...KEY_FIELDS.filter((n) => !sent.includes(n)), ...(args.hashData === undefined ? PAIR : [])];
  const known = { ...kept(args, managed), keySuffix: hashedSuffix(args.hashData), ...pair };
  return previewOutputs<State>(known, decided);
}

/** As a create, with the key's identity and pair as stored. */
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

/** The outputs that are the program's own. */
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
    // Only the managed set changed.
    return { ...before, managedArgs: managed, ...(args.hashData !== undefined ? { hashData: args.hashData } : {}) };
  }
  // Every managed field, so a change by hand the state has not seen yet is put back too.
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
