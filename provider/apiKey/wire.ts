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
import { compact, type PropertyMap } from "../protocol/properties";
import type { HashData } from "../serviceFacts/hashData";
import { inputNames, outputRules, toWire as mapping, type PropertyDef } from "../protocol/definition";
import { API_KEY } from "./definition";
import type { LocalMaterial } from "./material";

// What the service answers, read liberally: members may be missing or null, unknown members are
// ignored, and each value is kept as it came. Only a create answer without the key's id is broken.

/** A key in an answer: any object, members unchecked. */
export type WireKey = Record<string, unknown>;

/** GET and PATCH answer the key itself in `result`. */
const keyAnswer = z.object({ result: z.record(z.string(), z.unknown()) });

/** POST …/keys answers the key (whose id we need) with its credentials, which hashData leaves out. */
export const createdKeyAnswer = z.object({
  result: z.object({
    key: z.looseObject({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
  }),
});

/** The outputs read from the returned key, each by its rule when the answer nulls or leaves it out. */
const KEY_OUTPUTS = outputRules(API_KEY);
export const KEY_FIELDS = Object.keys(KEY_OUTPUTS);

/** Arguments PATCH can change, in the order `managedArgs` lists them: sent, and not replacing. */
export const PATCHABLE_ARGS = inputNames(API_KEY).filter((n) => {
  const p: PropertyDef = API_KEY.properties[n as keyof typeof API_KEY.properties];
  return p.role === "both" && p.wire !== false && p.replaces !== true;
});

function member(obj: unknown, name: string): unknown {
  return typeof obj === "object" && obj !== null && !Array.isArray(obj)
    ? (obj as Record<string, unknown>)[name]
    : undefined;
}

/** The key of a GET or PATCH answer, or undefined when its body holds none (an empty 2xx). */
export function keyIn(body: unknown): WireKey | undefined {
  const parsed = keyAnswer.safeParse(body);
  return parsed.success ? parsed.data.result : undefined;
}

/** The credentials of a create answer: each a non-empty string, else undefined. */
export function credentialsIn(body: unknown): { keyId: string | undefined; keySecret: string | undefined } {
  const result = member(body, "result");
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  return { keyId: text(member(result, "keyId")), keySecret: text(member(result, "keySecret")) };
}

/** The request body: the arguments `names` the program sets (null asks for "none"). */
export function toWire(args: PropertyMap, names: readonly string[]): Record<string, unknown> {
  return mapping(API_KEY, args, names, "send");
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
  return { ...key, assignedRoleIds: roles.map((r) => member(r, "roleId")).filter((id) => typeof id === "string") };
}

/** The suffix the program gave in hashData, for a key whose answer leaves keySuffix out. */
export function hashedSuffix(hashData: unknown): unknown {
  return typeof hashData === "object" && hashData !== null
    ? (hashData as { keyIdSuffix?: unknown }).keyIdSuffix
    : undefined;
}

/**
 * Outputs: what the program set that only the create call takes, the key as returned (each value
 * as it came; KEY_OUTPUTS says what a null or missing member gives, from the program's value or
 * the stored one, `before`), and its credentials when the answer had them (a hashData key's never
 * does: the program made the pair) or the provider made them ("local"). `sent` is the hashData a
 * create sent, whose suffix stands in for one the answer leaves out.
 */
export function keyOutputs(
  args: PropertyMap,
  key: WireKey,
  credentials: { keyId: unknown; keySecret: unknown },
  before: PropertyMap = {},
  sent?: HashData,
): PropertyMap {
  const hashData = args.hashData ?? before.hashData;
  const program = { ...toWire(args, PATCHABLE_ARGS), keySuffix: hashedSuffix(sent ?? hashData) };
  return compact({
    organizationId: args.organizationId ?? before.organizationId,
    ...outputsFrom(KEY_OUTPUTS, KEY_FIELDS, keyAsRead(key), { program, stored: before }),
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
  readonly inputs: PropertyMap;
  readonly args: PropertyMap;
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
export function createResult(plan: CreatedKey, answer: CreateAnswer): Created<PropertyMap> {
  const { id, key, credentials, before } = readCreateAnswer(plan, answer);
  const outs = keyOutputs(plan.args, key, credentials, before, plan.hashData);
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
const UNKNOWN_PAIR = { keyId: null, keySecret: null };

/** The key an answer holds, its id, the pair to record and what stands for a member it leaves out. */
function readCreateAnswer(
  plan: CreatedKey,
  answer: CreateAnswer,
): { id: string; key: WireKey; credentials: { keyId: unknown; keySecret: unknown }; before: PropertyMap } {
  // The pair the provider made is the one the service holds hashes of; else the answer's, if any.
  const ours = { keyId: plan.local?.id, keySecret: plan.local?.secret };
  if (answer.kind === "found") return { id: answer.id, key: answer.key, credentials: ours, before: {} };
  if (answer.kind === "takenOver") {
    // What the PATCH answered leaves out, the live key it changed stands for.
    return answer.patched === undefined
      ? { id: answer.id, key: answer.live ?? {}, credentials: UNKNOWN_PAIR, before: {} }
      : { id: answer.id, key: keyIn(answer.patched.body) ?? {}, credentials: UNKNOWN_PAIR, before: answer.live ?? {} };
  }
  // Only the key's id is needed here: without it Pulumi cannot record the key the service made,
  // and a 2xx without one is no lost answer (recovery.ts does not look for it).
  let key: WireKey;
  try {
    key = decode(createdKeyAnswer, answer.res).result.key;
  } catch (err) {
    if (!(err instanceof UnexpectedResponseError)) throw err;
    throw createdWithoutId(answer.res, plan.description, err);
  }
  const credentials = plan.local === undefined ? credentialsIn(answer.res.body) : ours;
  return { id: String(key.id), key, credentials, before: {} };
}
