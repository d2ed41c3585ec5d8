// The ApiKey resource's arguments: what a program may pass (check's schema), which take effect only
// when the key is made, which cannot go together, and how values compare (the service may
// normalise an expiry or reorder a list we sent), so also when a live or listed key matches them.

import type * as pulumi from "@pulumi/pulumi";
import { z } from "../protocol/zod";
import { KEY_ID_SUFFIX_LENGTH, SHA256_BASE64_RULE, isSha256Base64 } from "../serviceFacts/hashData";
import { KEY_ROLES as ROLES, KEY_STATES, NEW_KEY_STATE } from "../serviceFacts/apiKeys";
import { hasChanged } from "../protocol/diff";
import type { PropertyMap } from "../protocol/properties";
import { oneOf, strictObject, uuid } from "../protocol/validation";

/** Arguments PATCH can change; each is managed only when the program sets it (roles always is). */
export const PATCHABLE_ARGS = ["name", "roles", "expireAt", "state", "ipAccessList"] as const;

/**
 * Arguments that only take effect when the key is made; changing one makes a new key. `keepers`
 * are never sent: they exist to replace the key when the program says so (rotation), and the new
 * key is made before the old one is deleted, the engine's default.
 */
export const REPLACE_ON = ["organizationId", "hashData", "keepers", "keyMaterial"] as const;

/** Who makes the key ID and secret: the service (default, returned once by POST) or the provider ("local", only hashes sent). */
export const KEY_MATERIALS = ["service", "local"] as const;

/**
 * The id (uuid) of an existing key to take over at create instead of making one. Not an argument of
 * the key: never sent, never compared, never recorded. It stays among the checked inputs so that
 * diff can refuse a replacement while it is set (see provider.ts).
 */
export const IMPORT_ID = "importId";

const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const IPV4_CIDR = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}/(?:3[0-2]|[12]?[0-9])$`);

const EXPIRE_AT_RULE =
  'an ISO 8601 date-time with seconds and a time zone, such as "2030-01-31T00:00:00Z" or "2030-01-31T09:00:00+09:00", or null or "" for a key that never expires';

// RFC 3339, the "date-time" of the spec: seconds and an upper-case T and Z are required, and the
// calendar must be real (no 30 February, no 24:00), as the service is told to expect.
const expireAt = z.union(
  [z.null(), z.literal(""), z.iso.datetime({ offset: true, error: `expireAt must be ${EXPIRE_AT_RULE}` })],
  {
    error: `expireAt must be ${EXPIRE_AT_RULE}`,
  },
);

const ipAccessEntry = strictObject(
  {
    source: z
      .string({ error: "source must be an IPv4 address or CIDR range, such as 203.0.113.7 or 10.0.0.0/8" })
      .refine((s) => IPV4.test(s) || IPV4_CIDR.test(s), {
        error: "source must be an IPv4 address or CIDR range (prefix 0 to 32), such as 203.0.113.7 or 10.0.0.0/8",
      }),
    description: z.string({ error: "description must be a string" }),
  },
  {
    unknownProperty: "an entry has only source and description",
    notAnObject: "each entry must be an object {source, description}",
  },
);

const hashData = strictObject(
  {
    // The service refuses anything else at create (400 "Not a sha256sum"): refuse it in preview.
    keyIdHash: z
      .string({ error: "keyIdHash must be a string" })
      .refine(isSha256Base64, { error: `keyIdHash must be ${SHA256_BASE64_RULE} of the key ID` }),
    keyIdSuffix: z
      .string({ error: "keyIdSuffix must be a string" })
      .refine((v) => [...v].length === KEY_ID_SUFFIX_LENGTH, {
        error: `keyIdSuffix must be the last ${KEY_ID_SUFFIX_LENGTH} characters of the key ID`,
      }),
    keySecretHash: z
      .string({ error: "keySecretHash must be a string" })
      .refine(isSha256Base64, { error: `keySecretHash must be ${SHA256_BASE64_RULE} of the key secret` }),
  },
  {
    unknownProperty: "hashData has keyIdHash, keyIdSuffix and keySecretHash",
    notAnObject: "hashData must be an object {keyIdHash, keyIdSuffix, keySecretHash} of strings",
  },
);

const ARG_NAMES = [
  "organizationId",
  "roles",
  "name",
  "expireAt",
  "state",
  "ipAccessList",
  "hashData",
  "keepers",
  "keyMaterial",
  IMPORT_ID,
];

const keepers = z.record(
  z.string(),
  // Zod's path names the keeper, so the failure reads "keepers.quarter is 3: ...".
  z.string({ error: "a keeper's value must be a string (turn a number or date into text, e.g. String(n))" }),
  { error: 'keepers must be a map of names to strings, e.g. { rotation: "2025-Q1" }' },
);

export const apiKeyArgsSchema = strictObject(
  {
    organizationId: uuid("organizationId"),
    roles: z
      .array(oneOf("roles[]", ROLES), {
        error: `roles must be a list of at least one of ${ROLES.map((r) => `"${r}"`).join(", ")}`,
      })
      .min(1, { error: `roles needs at least one of ${ROLES.map((r) => `"${r}"`).join(", ")}` })
      .refine((roles) => new Set(roles).size === roles.length, { error: "roles must not repeat a role" }),
    name: z.string({ error: "name must be a string" }).optional(),
    expireAt: expireAt.optional(),
    state: oneOf("state", KEY_STATES).optional(),
    ipAccessList: z
      .array(ipAccessEntry, { error: "ipAccessList must be a list of {source, description}" })
      .min(1, {
        error:
          "ipAccessList must not be empty: an empty list would lock every caller out; leave it unset to allow any address",
      })
      .optional(),
    hashData: hashData.optional(),
    keepers: keepers.optional(),
    keyMaterial: oneOf("keyMaterial", KEY_MATERIALS).optional(),
    [IMPORT_ID]: uuid(IMPORT_ID).optional(),
  },
  { unknownProperty: `the properties are ${ARG_NAMES.join(", ")}` },
);

/**
 * Arguments that cannot go together, each failure at the property to change: who made a key's
 * material is one choice. A taken-over key's ID and secret are the service's, made when it was
 * created; "local" material is the provider's; hashData is the program's own pair.
 */
export function crossFieldFailures(inputs: PropertyMap): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const given = (name: string) => inputs[name] !== undefined && inputs[name] !== null;
  const local = inputs.keyMaterial === "local";
  if (local && given("hashData")) {
    failures.push({
      property: "keyMaterial",
      reason:
        'keyMaterial "local" makes the key ID and secret in the provider, so it cannot go with hashData (the program\'s own pair): remove one of them',
    });
  }
  if (given(IMPORT_ID) && (given("hashData") || local)) {
    failures.push({
      property: IMPORT_ID,
      reason: `importId takes over a key whose ID and secret the service made, so it cannot go with ${local ? 'keyMaterial "local"' : "hashData"}: remove importId to create a new key`,
    });
  }
  return failures;
}

/**
 * A value in the form two sides can be compared in: instants for expiry, sorted lists for sets;
 * no keepers and an empty map alike, and no keyMaterial as its default, "service"; an
 * organizationId in any letter case as the same uuid (state may hold one from before check
 * lower-cased it, and the service treats them alike).
 */
export function comparedForm(name: string, value: unknown): unknown {
  if (name === "organizationId" && typeof value === "string") return value.toLowerCase();
  if (name === "keyMaterial") return value === undefined || value === null ? "service" : value;
  if (name === "keepers" && typeof value === "object" && value !== null && Object.keys(value).length === 0) return null;
  if (value === undefined || value === null) return null;
  if (name === "expireAt") {
    if (value === "") return null;
    const at = typeof value === "string" ? Date.parse(value) : NaN;
    return Number.isNaN(at) ? value : at;
  }
  if (name === "roles" && Array.isArray(value)) return [...(value as unknown[])].map(String).sort();
  if (name === "ipAccessList" && Array.isArray(value)) {
    const entries = value as Array<{ source?: unknown; description?: unknown } | null | undefined>;
    return entries
      .map((e) => {
        const description: unknown = e?.description ?? "";
        return `${String(e?.source)}\u0000${String(description)}`;
      })
      .sort();
  }
  return value;
}

/** Whether a live key already holds the program's value of every argument it manages (`names`). */
export function matchesManaged(args: PropertyMap, names: readonly string[], key: PropertyMap): boolean {
  return names.every((n) => !hasChanged(n, key[n], args[n], comparedForm));
}

/**
 * What tells the key a POST made from the others. The service lists neither key IDs nor hashes,
 * so a key it made is known by its name and roles, and one whose pair the program made by the
 * last characters of its key ID (the suffix it was sent), which the listing shows.
 */
export interface SentKey {
  /** The name sent; undefined when none was (the service names it, so any name matches). */
  readonly name?: string;
  /** The roles sent, compared as a set; undefined when the suffix decides. */
  readonly roles?: readonly string[];
  /** The keyIdSuffix sent in hashData. */
  readonly keySuffix?: string;
}

/** Whether a listed key is one a POST of `sent` may have made. */
export function matchesSent(sent: SentKey, key: PropertyMap): boolean {
  if (sent.name !== undefined && (key.name ?? "") !== sent.name) return false;
  if (sent.roles !== undefined && hasChanged("roles", key.roles, sent.roles, comparedForm)) return false;
  // A key the service made for a lost answer was never used: its secret was only in that answer.
  // So a used key of the same name and roles (the one a rotation replaces, say) is not it.
  if (sent.roles !== undefined && key.usedAt !== undefined && key.usedAt !== null) return false;
  return sent.keySuffix === undefined || key.keySuffix === sent.keySuffix;
}

/**
 * Whether a live value is the one a key has when its program leaves the argument out (no name, no
 * expiry, the new key's state, no IP list). An import has no program to say what it manages: it
 * records as managed only the arguments whose live value is not this.
 */
export function asIfLeftOut(name: (typeof PATCHABLE_ARGS)[number], value: unknown): boolean {
  if (name === "roles") return false;
  if (name === "state") return value === NEW_KEY_STATE || value === undefined || value === null;
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/** Words naming the key in an error whose outcome is unknown: its name, else its roles and organization. */
export function describeKey(args: PropertyMap): string {
  if (typeof args.name === "string" && args.name !== "") return `the API key "${args.name}"`;
  const roles = Array.isArray(args.roles) ? args.roles.join(", ") : "";
  return `an unnamed API key (roles ${roles}) in organization ${String(args.organizationId)}`;
}
