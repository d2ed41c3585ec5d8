// The ApiKey resource's wire: what the service answers, how each answered member becomes an
// output, and the request body.

import { z } from "zod";
import type { OutputRule, OutputRules } from "../protocol/outputRules";
import type { PropertyMap } from "../protocol/properties";
import { NEW_KEY_STATE } from "../serviceFacts/apiKeys";

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

type KeyField = "name" | "roles" | "expireAt" | "state" | "ipAccessList" | "keySuffix" | "createdAt" | "usedAt";

/** Kept by the service across calls: the stored value stands, else none. */
const KEPT: OutputRule = { nullMeans: "absent", whenAbsent: ["stored", { value: null }] };

/**
 * Each output read from the returned key, when the answer says null or leaves it out (read by
 * outputsFrom). A name or IP list answered as null is the live value, so refresh shows it as
 * drift; `state`, which the spec does not list among a key's members, falls back when null too.
 * The program's value is as sent (an expiry of "" is null); a suffix is the one its hashData names.
 */
export const KEY_OUTPUTS: OutputRules<KeyField> = {
  name: { nullMeans: "cleared", whenAbsent: ["program", "stored", { value: "" }] },
  roles: { nullMeans: "absent", whenAbsent: ["program", "stored"] },
  expireAt: { nullMeans: "cleared", whenAbsent: ["program", "stored", { value: null }] },
  state: { nullMeans: "absent", whenAbsent: ["program", "stored", { value: NEW_KEY_STATE }] },
  ipAccessList: { nullMeans: "cleared", whenAbsent: ["program", "stored", { value: Object.freeze([]) }] },
  keySuffix: { nullMeans: "absent", whenAbsent: ["stored", "program", { value: null }] },
  createdAt: KEPT,
  usedAt: KEPT,
};

export const KEY_FIELDS = Object.keys(KEY_OUTPUTS) as KeyField[];

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

/** The request body: the arguments the program sets, "" expiry sent as null (never expires). */
export function toWire(args: PropertyMap, names: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const n of names) {
    if (args[n] === undefined) continue;
    body[n] = n === "expireAt" && args[n] === "" ? null : args[n];
  }
  return body;
}

export function keysPath(organizationId: string, id?: string): string {
  const base = `/v1/organizations/${encodeURIComponent(organizationId)}/keys`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}
