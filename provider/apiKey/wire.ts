// The ApiKey's wire; a create's answer is read once, in createResult.

import type { Created } from "../protocol/behaviour";
import { z } from "../protocol/zod";
import { wireObject } from "../protocol/validation";
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

/** The outputs with a rule for an answer that nulls or leaves them out. */
export type Answered = {
  [K in keyof Properties]: Properties[K] extends { readonly whenAbsent: object } ? K : never;
}[keyof Properties];

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

const KEY_OUTPUTS = outputRules(API_KEY);
export const KEY_FIELDS = Object.keys(KEY_OUTPUTS).filter(isAnswered);

/** In the order `managedArgs` lists them. */
export const PATCHABLE_ARGS = inputNames(API_KEY).filter(isPatchable);

// Answers are read liberally: members may be missing, null or unknown; values are kept as they came.
// Only a create answer without the key's id is broken.

export type WireKey = { readonly [K in Answered | "id"]?: unknown };

export const isWireKey = (item: unknown): item is WireKey => typeof item === "object" && item !== null;

const keyAnswer = z.object({ result: wireObject });

/** Credentials are absent with hashData; only the id is needed. */
export const createdKeyAnswer = z.object({
  result: z.object({
    key: z.looseObject({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
  }),
});

const credential = z.string().min(1).optional().catch(undefined);
const createdCredentials = z.object({ result: z.object({ keyId: credential, keySecret: credential }) });

/** Undefined for an empty 2xx. */
export function keyIn(body: unknown): WireKey | undefined {
  const parsed = keyAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

export function credentialsIn(body: unknown): { keyId: string | undefined; keySecret: string | undefined } {
  const parsed = createdCredentials.safeParse(body);
  const result = parsed.success ? parsed.data.result : {};
  return { keyId: result.keyId, keySecret: result.keySecret };
}

/** Null asks the service for "none". */
export function toWire(args: Args, names: readonly string[]): Record<string, unknown> {
  return mapping(API_KEY, args, names, "send");
}

type Sent = { readonly [K in Patchable]?: Args[K] };

/** A PATCH's arguments go under their own names, so what is sent is the output. */
export function asSent(args: Args, names: readonly Patchable[]): Sent {
  // The mapping keeps each value's type (expireAt's "" goes as null), though typed as unknown.
  return toWire(args, names);
}

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

/** The service answers `assignedRoles` objects but takes `assignedRoleIds`. */
export function keyAsRead(key: WireKey): WireKey {
  const roles = key.assignedRoles;
  if (key.assignedRoleIds !== undefined || !Array.isArray(roles)) return key;
  return { ...key, assignedRoleIds: roles.flatMap((r) => roleRef.safeParse(r).data?.roleId ?? []) };
}

const roleRef = z.looseObject({ roleId: z.string() });

/** For an answer without keySuffix. */
export function hashedSuffix(hashData: HashData | null | undefined): string | undefined {
  return hashData?.keyIdSuffix;
}

/** Null when unknown by design, absent when none. */
export type Credentials = Pick<State, "keyId" | "keySecret">;

function answered(key: WireKey, program: WireKey, stored: WireKey): State {
  // Unchecked: an odd answered value is recorded as it came, whatever type State says.
  return outputsFrom(KEY_OUTPUTS, KEY_FIELDS, keyAsRead(key), { program, stored }) as State;
}

/** What stands in for members an answer leaves out. */
export interface Known {
  readonly before?: State;
  /** A take-over's live key, before the PATCH. */
  readonly live?: WireKey | undefined;
  /** Its suffix stands in for a missing one. */
  readonly sent?: HashData | undefined;
}

/** The key as returned, what only a create takes, and the pair when the answer or "local" gave it. */
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
    // Never sent; kept so diff sees a change.
    keepers: args.keepers ?? before.keepers,
    keyMaterial: args.keyMaterial ?? before.keyMaterial,
  });
}

/** `patched` is undefined when the live key already held what the program manages. */
export type CreateAnswer =
  | { readonly kind: "posted"; readonly res: ApiResponse }
  | { readonly kind: "found"; readonly id: string; readonly key: WireKey }
  | {
      readonly kind: "takenOver";
      readonly id: string;
      readonly live: WireKey | undefined;
      readonly patched: ApiResponse | undefined;
    };

export interface CreatedKey {
  /** Kept whole in the state of a key nobody can use. */
  readonly inputs: Args;
  readonly args: Args;
  readonly path: string;
  readonly description: string;
  readonly hashData?: HashData | undefined;
  /** The service never sees it. */
  readonly local?: LocalMaterial | undefined;
}

/** A key whose answer lacks its pair cannot be used: kept in state, so not orphaned, and the error says why. */
export function createResult(plan: CreatedKey, answer: CreateAnswer): Created<State> {
  const { id, key, credentials, live } = readCreateAnswer(plan, answer);
  const outs = keyOutputs(plan.args, key, credentials, { live, sent: plan.hashData });
  // Only a POST without hashData can lack the pair: a take-over's is unknown, a found key holds ours.
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

/** The service showed them once, to whoever made the key. */
const UNKNOWN_PAIR: Credentials = { keyId: null, keySecret: null };

function readCreateAnswer(
  plan: CreatedKey,
  answer: CreateAnswer,
): { id: string; key: WireKey; credentials: Credentials; live?: WireKey | undefined } {
  const ours: Credentials = { keyId: plan.local?.id, keySecret: plan.local?.secret };
  if (answer.kind === "found") return { id: answer.id, key: answer.key, credentials: ours };
  if (answer.kind === "takenOver") {
    return answer.patched === undefined
      ? { id: answer.id, key: answer.live ?? {}, credentials: UNKNOWN_PAIR }
      : { id: answer.id, key: keyIn(answer.patched.body) ?? {}, credentials: UNKNOWN_PAIR, live: answer.live };
  }
  // Without an id the key cannot be recorded; a 2xx without one is no lost answer (no look for it).
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
