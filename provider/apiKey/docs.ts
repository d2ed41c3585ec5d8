// What each of the ApiKey's properties means, in the words a user reads, and which are secret: the
// native plugin's schema (and so every generated SDK and the registry docs) takes them from here.
// No zod, no I/O: the resource class can read this file too.

import type { IMPORT_ID, KEY_MATERIALS, PATCHABLE_ARGS, REPLACE_ON } from "./args";
import type { KEY_FIELDS } from "./wire";

type ApiKeyProperty =
  | (typeof PATCHABLE_ARGS)[number]
  | (typeof REPLACE_ON)[number]
  | typeof IMPORT_ID
  | (typeof KEY_FIELDS)[number]
  | "keyId"
  | "keySecret"
  | "managedArgs";

/** Secret whatever the program says: the service shows the key secret once; hashData are the hashes of the pair. */
export const SECRET_PROPERTIES = ["keySecret", "hashData"] as const satisfies readonly ApiKeyProperty[];

export const API_KEY_DOCS = {
  resource: "An organization API key. Its secret is returned once, at creation, and kept as a Pulumi secret.",
  properties: {
    organizationId: "Organization that owns the key (uuid). Changing it makes a new key.",
    roles: "The key's roles: at least one, none repeated.",
    name: "The key's name; null when the service answers none.",
    expireAt:
      'When the key expires: an ISO 8601 date-time with a time zone; null or "" (or unset) for a key that never expires.',
    state: 'Whether the key can be used. Default "enabled".',
    ipAccessList:
      "Addresses allowed to use the key; unset allows any. An empty list is refused (it would lock every caller out).",
    hashData:
      'Pre-hashed credentials: the program\'s own pair, of which the service is sent only hashes. Secret. Changing it makes a new key. Cannot go with keyMaterial "local" or importId.',
    keepers:
      "Names mapped to strings, never sent to the service: any change (a value, a name added or removed) makes a new key, created before " +
      "the old one is deleted, so what uses the key's outputs moves to the new key in the same `pulumi up` while the old one still works. " +
      "Give it a value that changes on a schedule (e.g. the current quarter) to rotate the key. No keepers and `{}` are the same.",
    keyMaterial:
      'Who makes the key ID and secret. "service" (default): the service, which returns them once. "local": the provider, with a CSPRNG ' +
      "(a 20-character key ID of A-Z and 0-9, a 43-character URL-safe secret), sending only their hashes, so the secret never crosses the " +
      "network. Changing it makes a new key. Cannot go with hashData or importId.",
    importId:
      "The id (uuid, the `/keys/{id}` one, not the key ID) of an existing key to take over instead of creating one. The create reads it " +
      "(failing, with nothing created, when there is none) and PATCHes the arguments the program sets only when they differ; it never " +
      "creates a key. The service showed the key's secret only to whoever made it, so `keyId` and `keySecret` are null. Cannot go with " +
      'hashData or keyMaterial "local".',
    keyId:
      "The key ID: the user name of Basic authentication (not the resource id, which is the key's uuid). None with hashData (the program " +
      "holds it); null for a key taken over or imported.",
    keySecret: "The key secret, a Pulumi secret. None with hashData; null for a key taken over or imported.",
    keySuffix: "The last characters of the key ID, as the service shows them.",
    createdAt: "When the key was made (ISO 8601, set by the service).",
    usedAt: "When the key was last used (ISO 8601, set by the service); null when never.",
    managedArgs: "Names of the patchable arguments this program sets; drift and updates act on these alone.",
  } satisfies Record<ApiKeyProperty, string>,
  ipAccessEntry: {
    source: 'An IPv4 address or CIDR range, e.g. "203.0.113.7" or "10.0.0.0/8".',
    description: "What the address is, for people.",
  },
  hashData: {
    keyIdHash: "The standard base64 (padded, 44 characters) of the SHA-256 of the key ID.",
    keyIdSuffix: "The last 4 characters of the key ID.",
    keySecretHash: "The standard base64 (padded, 44 characters) of the SHA-256 of the key secret.",
  },
  material: {
    service: "The service makes the pair and returns it once.",
    local: "The provider makes the pair and sends only its hashes.",
  } satisfies Record<(typeof KEY_MATERIALS)[number], string>,
} as const;
