// The ApiKey resource's wire: the request body and path, what the service answers, and what a
// create's answer becomes (createResult): the answer read once, each member an output.

import type { Created } from "../protocol/behaviour";
import { z } from "../protocol/zod";
import { PartialFailure, UnexpectedResponseError } from "../errors";
import { createdWithoutId } from "../creation/recovery";
import { decode, type ApiResponse } from "../http/client";
import { apiPath } from "../http/paths";
import { managedIn } from "../protocol/managed";
import { outputsFrom } from "../protocol/outputRules";
import { compact } from "../protocol/properties";
import type { HashData } from "../serviceFacts/hashData";
import {
  inputNames,
  outputRules,
  toWire as mapping,
  type ArgsOf,
  type ResourceDefinition,
  type StateOf,
} from "../protocol/definition";
import { API_KEY } from "./definition";
import type { LocalMaterial } from "./material";

export type Args = ArgsOf<typeof API_KEY>;
export type State = StateOf<typeof API_KEY>;

type Properties = typeof API_KEY.properties;
const PROPERTIES: ResourceDefinition["properties"] = API_KEY.properties;

/** The outputs an answer holds: those with a rule for an answer that nulls or leaves one out. */
export type Answered = {
  [K in keyof Properties]: Properties[K] extends { readonly whenAbsent: object } ? K : never;
}[keyof Properties];

/** Arguments a PATCH can change: sent, and not replacing. */
export type Patchable = {
  [K in keyof Properties]: Properties[K] extends { readonly role: "both" }
    ? Properties[K] extends { readonly wire: false } | { readonly replaces: true }
      ? never
      : K
    : never;
}[keyof Properties];

const isAnswered = (n: string): n is Answered => PROPERTIES[n]?.whenAbsent !== undefined;
const isPatchable = (n: string): n is Patchable => {
  const p = PROPERTIES[n];
  return p?.role === "both" && p.wire !== false && p.replaces !== true;
};

/** The outputs read from the returned key, each by its rule when the answer nulls or leaves it out. */
const KEY_OUTPUTS = outputRules(API_KEY);
export const KEY_FIELDS = Object.keys(KEY_OUTPUTS).filter(isAnswered);

/** Arguments PATCH can change, in the order `managedArgs` lists them. */
export const PATCHABLE_ARGS = inputNames(API_KEY).filter(isPatchable);

// What the service answers, read liberally: members may be missing or null, unknown members are
// ignored, and each value is kept as it came. Only a create answer without the key's id is broken.

/** A key in an answer: its members under the outputs' names, each value as it came (unchecked). */
export type WireKey = { readonly [K in Answered | "id"]?: unknown };

/** Whether a listed item is a key: any object, its members unchecked. */
export const isWireKey = (item: unknown): item is WireKey => typeof item === "object" && item !== null;

/** GET and PATCH answer the key itself in `result`. */
const keyAnswer = z.object({ result: z.record(z.string(), z.unknown()) });

/** POST …/keys answers the key (whose id we need) with its credentials, which hashData leaves out. */
export const createdKeyAnswer = z.object({
  result: z.object({
    key: z.looseObject({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
  }),
});

/** A credential in a create answer: a non-empty string, else none. */
const credential = z.string().min(1).optional().catch(undefined);
const createdCredentials = z.object({ result: z.object({ keyId: credential, keySecret: credential }) });

/** The key of a GET or PATCH answer, or undefined when its body holds none (an empty 2xx). */
export function keyIn(body: unknown): WireKey | undefined {
  const parsed = keyAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

/** The credentials of a create answer: each a non-empty string, else undefined. */
export function credentialsIn(body: unknown): { keyId: string | undefined; keySecret: string | undefined } {
  const parsed = createdCredentials.safeParse(body);
  const result = parsed.success ? parsed.data.result : {};
  return { keyId: result.keyId, keySecret: result.keySecret };
}

/** The request body: the arguments `names` the program sets (null asks for "none"). */
export function toWire(args: Args, names: readonly string[]): Record<string, unknown> {
  return mapping(API_KEY, args, names, "send");
}

/** The arguments a PATCH can change, as the program sets them. */
type Sent = { readonly [K in Patchable]?: Args[K] };

/** The arguments `names` as a request sends them, under their own names (a PATCH's are): outputs the program sets. */
export function asSent(args: Args, names: readonly Patchable[]): Sent {
  // The mapping keeps each value's type (expireAt's "" is sent as null), though it answers unknowns.
  return toWire(args, names);
}

/** An organization's keys, or one key: both ids uuids. */
export function keysPath(organizationId: string, id?: string): string {
  const one = id === undefined ? [] : ["/", { name: "id", value: id, form: "uuid" } as const];
  return apiPath(
    "API key",
    "/v1/organizations/",
    { name: "organizationId", value: organizationId, form: "uuid" },
    "/keys",
    ...one,
  );
}

/**
 * A key as the outputs read it: the service answers a key's roles as `assignedRoles` objects and
 * takes them as `assignedRoleIds`, so the ids are read from the objects.
 */
export function keyAsRead(key: WireKey): WireKey {
  const roles = key.assignedRoles;
  if (key.assignedRoleIds !== undefined || !Array.isArray(roles)) return key;
  return { ...key, assignedRoleIds: roles.flatMap((r) => roleRef.safeParse(r).data?.roleId ?? []) };
}

/** An assigned role whose id can be read: other members and other items as they came. */
const roleRef = z.looseObject({ roleId: z.string() });

/** The suffix the program gave in hashData, for a key whose answer leaves keySuffix out. */
export function hashedSuffix(hashData: HashData | null | undefined): string | undefined {
  return hashData?.keyIdSuffix;
}

/** The key's ID and secret as a state records them: null when unknown by design, absent when none. */
export type Credentials = Pick<State, "keyId" | "keySecret">;

/**
 * The outputs an answer gives, each by its rule (KEY_OUTPUTS) when the answer nulls or leaves it
 * out: from the program's value, the stored one, or the rule's own.
 */
function answered(key: WireKey, program: WireKey, stored: WireKey): State {
  // Unchecked: an answered value is recorded as it came (issue 8), whatever type State gives it.
  return outputsFrom(KEY_OUTPUTS, KEY_FIELDS, keyAsRead(key), { program, stored }) as State;
}

/** What stands for a member an answer leaves out, and the hashData a create sent. */
export interface Known {
  /** The stored outputs. */
  readonly before?: State;
  /** A take-over's live key, which the PATCH changed: it stands for what the PATCH's answer leaves out. */
  readonly live?: WireKey | undefined;
  /** The hashData a create sent, whose suffix stands in for one the answer leaves out. */
  readonly sent?: HashData | undefined;
}

/**
 * Outputs: what the program set that only the create call takes, the key as returned (each value
 * as it came; KEY_OUTPUTS says what a null or missing member gives, from the program's value or
 * the stored one), and its credentials when the answer had them (a hashData key's never does: the
 * program made the pair) or the provider made them ("local").
 */
export function keyOutputs(args: Args, key: WireKey, credentials: Credentials, known: Known = {}): State {
  const { before = {}, live, sent } = known;
  const hashData = args.hashData ?? before.hashData;
  const program = { ...asSent(args, PATCHABLE_ARGS), keySuffix: hashedSuffix(sent ?? hashData) };
  return compact({
    organizationId: args.organizationId ?? before.organizationId,
    ...answered(key, program, live ?? before),
    keyId: credentials.keyId,
    keySecret: credentials.keySecret,
    managedArgs: managedIn(PATCHABLE_ARGS, args),
    hashData,
    // Kept so diff can tell when they change; never sent.
    keepers: args.keepers ?? before.keepers,
    keyMaterial: args.keyMaterial ?? before.keyMaterial,
  });
}

/**
 * What a create got from the service: the POST's answer; or the key a lost POST made, found by
 * listing (adopted when we hold its pair); or, for a take-over, the live key its GET answered and
 * the PATCH's answer (undefined when the live key already held what the program manages).
 */
export type CreateAnswer =
  | { readonly kind: "posted"; readonly res: ApiResponse }
  | { readonly kind: "found"; readonly id: string; readonly key: WireKey }
  | {
      readonly kind: "takenOver";
      readonly id: string;
      readonly live: WireKey | undefined;
      readonly patched: ApiResponse | undefined;
    };

/** What of a create's plan its result needs. */
export interface CreatedKey {
  /** The program's inputs as given, kept whole in the state of a key nobody can use. */
  readonly inputs: Args;
  readonly args: Args;
  /** The POST's path, which the error for a key nobody can use names. */
  readonly path: string;
  readonly description: string;
  /** The hashData a POST sent (the program's, or made from `local`); none on a take-over. */
  readonly hashData?: HashData | undefined;
  /** The pair the provider made ("local"): the key's credentials, which the service never sees. */
  readonly local?: LocalMaterial | undefined;
}

/**
 * The create's result: the answer read once (the key, its id, the pair to record) and the outputs
 * built from it. A key the service made whose answer lacks its key ID or secret is one nobody can
 * use (its secret is never returned again): it is kept in state by its id, so it is not orphaned,
 * and the error says what to do.
 */
export function createResult(plan: CreatedKey, answer: CreateAnswer): Created<State> {
  const { id, key, credentials, live } = readCreateAnswer(plan, answer);
  const outs = keyOutputs(plan.args, key, credentials, { live, sent: plan.hashData });
  // With hashData the answer carries no credentials: the program or the provider made the pair and holds it.
  // Only a POST's answer can lack the pair: a take-over's is unknown, a key found was adopted with ours.
  if (
    answer.kind !== "posted" ||
    plan.hashData !== undefined ||
    (credentials.keyId !== undefined && credentials.keySecret !== undefined)
  )
    return { id, outputs: outs };
  const { status, requestId } = answer.res;
  const reason = new Error(
    `POST ${plan.path} answered ${status} without the new key's ${credentials.keyId === undefined ? "keyId" : "keySecret"}` +
      `${requestId === undefined ? "" : ` (requestId ${requestId})`}. The API key ${id} was created and is kept in the stack's state. ` +
      "Its key ID or secret was not in the answer and is never returned again, so the key cannot be used: the next pulumi up replaces it " +
      "with a new key (created before this one is deleted), as its preview shows.",
  );
  throw new PartialFailure(id, { ...plan.inputs, ...outs }, reason);
}

/** A taken-over key's ID and secret: the service showed them once, to whoever made it. */
const UNKNOWN_PAIR: Credentials = { keyId: null, keySecret: null };

/** The key an answer holds, its id, the pair to record and, on a take-over, the live key it changed. */
function readCreateAnswer(
  plan: CreatedKey,
  answer: CreateAnswer,
): { id: string; key: WireKey; credentials: Credentials; live?: WireKey | undefined } {
  // The pair the provider made is the one the service holds hashes of; else the answer's, if any.
  const ours: Credentials = { keyId: plan.local?.id, keySecret: plan.local?.secret };
  if (answer.kind === "found") return { id: answer.id, key: answer.key, credentials: ours };
  if (answer.kind === "takenOver") {
    // What the PATCH answered leaves out, the live key it changed stands for.
    return answer.patched === undefined
      ? { id: answer.id, key: answer.live ?? {}, credentials: UNKNOWN_PAIR }
      : { id: answer.id, key: keyIn(answer.patched.body) ?? {}, credentials: UNKNOWN_PAIR, live: answer.live };
  }
  // Only the key's id is needed here: without it Pulumi cannot record the key the service made,
  // and a 2xx without one is no lost answer (recovery.ts does not look for it).
  let created: z.infer<typeof createdKeyAnswer>["result"]["key"];
  try {
    created = decode(createdKeyAnswer, answer.res).result.key;
  } catch (err) {
    if (!(err instanceof UnexpectedResponseError)) throw err;
    throw createdWithoutId(answer.res, plan.description, err);
  }
  const credentials = plan.local === undefined ? credentialsIn(answer.res.body) : ours;
  return { id: created.id, key: created, credentials };
}
