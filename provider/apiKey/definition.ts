// The ApiKey, each property once, in the state's order, which `managedArgs` follows.

import type { OutputRule } from "../protocol/outputRules";
import { objectList } from "../protocol/commonProperties";
import type { ResourceDefinition } from "../protocol/definition";
import { KEY_ROLES, KEY_STATES, NEW_KEY_STATE, ROLE_TYPES } from "../serviceFacts/apiKeys";
import { KEY_ID_SUFFIX_LENGTH, SHA256_BASE64_RULE, isSha256Base64 } from "../serviceFacts/hashData";

/** Who makes the key ID and secret; the service returns its pair once, from POST. */
export const KEY_MATERIALS = ["service", "local"] as const;

const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const IPV4_CIDR = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}/(?:3[0-2]|[12]?[0-9])$`);

const EXPIRE_AT_RULE =
  'an ISO 8601 date-time with seconds and a time zone, such as "2030-01-31T00:00:00Z" or "2030-01-31T09:00:00+09:00", or null or "" for a key that never expires';

const quotedRoles = KEY_ROLES.map((r) => `"${r}"`).join(", ");

/** The service keeps it across calls, so a missing value is the stored one. */
const FROM_STATE_ELSE_NULL: OutputRule = { nullMeans: "absent", whenAbsent: ["stored", { value: null }] };

/** The service may answer another order. */
const asSet = (value: unknown, item: (v: unknown) => string) =>
  Array.isArray(value) ? (value as unknown[]).map(item).sort() : value;

const STRING = { kind: "string" } as const;
const SERVICE_TIME = { type: STRING, role: "output", whenAbsent: FROM_STATE_ELSE_NULL, outputMay: ["null"] } as const;

export const API_KEY = {
  name: "ApiKey",
  description: "An organization API key. Its secret is returned once, at creation, and kept as a Pulumi secret.",
  // Its path needs the organization, and no state holds one yet.
  importIdForm: ["organizationId", "id"],
  properties: {
    organizationId: {
      type: STRING,
      description: "Organization that owns the key (uuid). Changing it makes a new key.",
      role: "both",
      required: true,
      replaces: true,
      caseless: true,
      check: ({ uuid }) => uuid("organizationId"),
    },
    name: {
      type: STRING,
      description: "The key's name; null when the service answers none.",
      role: "both",
      whenAbsent: { nullMeans: "cleared", whenAbsent: ["program", "stored", { value: "" }] },
      outputMay: ["null"],
    },
    roles: {
      type: {
        kind: "array",
        items: { kind: "enum", name: "ApiKeyRole", description: "A role an API key grants.", values: KEY_ROLES },
      },
      description:
        "The key's roles: at least one, none repeated. Give roles, assignedRoleIds or both. The service freezes it for organizations " +
        "that moved to custom roles.",
      deprecated: "Use assignedRoleIds; the service reports a key's roles as assignedRoles.",
      role: "both",
      required: "output",
      whenAbsent: { nullMeans: "absent", whenAbsent: ["program", "stored"] },
      compared: (v) => asSet(v, String),
      check: ({ z, oneOf }) =>
        z
          .array(oneOf("roles[]", KEY_ROLES), { error: `roles must be a list of at least one of ${quotedRoles}` })
          .min(1, {
            error: `roles needs at least one of ${quotedRoles}; or leave roles out and give assignedRoleIds (role uuids), which replaces the deprecated roles`,
          })
          .refine((roles) => new Set(roles).size === roles.length, { error: "roles must not repeat a role" }),
    },
    assignedRoleIds: {
      type: { kind: "array", items: STRING },
      description:
        "The uuids of the organization's roles (system or custom) the key is assigned: at least one, none repeated. Give roles, " +
        "assignedRoleIds or both.",
      role: "both",
      whenAbsent: { nullMeans: "absent", whenAbsent: ["program", "stored"] },
      compared: (v) => asSet(v, (id) => String(id).toLowerCase()),
      check: ({ z, uuid }) =>
        z
          .array(uuid("assignedRoleIds[]"), { error: "assignedRoleIds must be a list of role uuids" })
          .min(1, { error: "assignedRoleIds needs at least one role uuid (leave it out to give roles alone)" })
          .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
            error: "assignedRoleIds must not repeat a role",
          }),
    },
    expireAt: {
      type: STRING,
      description:
        'When the key expires: an ISO 8601 date-time with a time zone; null or "" (or unset) for a key that never expires.',
      role: "both",
      nullable: true,
      whenAbsent: { nullMeans: "cleared", whenAbsent: ["program", "stored", { value: null }] },
      outputMay: ["null"],
      sent: (v) => (v === "" ? null : v),
      // The service may answer another form of the same instant.
      compared: (v) => {
        if (v === undefined || v === null || v === "") return null;
        const at = typeof v === "string" ? Date.parse(v) : NaN;
        return Number.isNaN(at) ? v : at;
      },
      // RFC 3339 "date-time": seconds, upper-case T and Z, a real calendar date.
      check: ({ z }) =>
        z.union(
          [z.null(), z.literal(""), z.iso.datetime({ offset: true, error: `expireAt must be ${EXPIRE_AT_RULE}` })],
          { error: `expireAt must be ${EXPIRE_AT_RULE}` },
        ),
    },
    state: {
      type: {
        kind: "enum",
        name: "ApiKeyState",
        description: "Whether an API key can be used.",
        values: KEY_STATES,
      },
      description: 'Whether the key can be used. Default "enabled".',
      role: "both",
      whenAbsent: { nullMeans: "absent", whenAbsent: ["program", "stored", { value: NEW_KEY_STATE }] },
      outputMay: [],
    },
    ipAccessList: {
      type: objectList("IpAccessEntry", "An address allowed to use an API key.", {
        source: { type: STRING, description: 'An IPv4 address or CIDR range, e.g. "203.0.113.7" or "10.0.0.0/8".' },
        description: { type: STRING, description: "What the address is, for people." },
      }),
      description:
        "Addresses allowed to use the key; unset allows any. An empty list is refused (it would lock every caller out).",
      role: "both",
      whenAbsent: { nullMeans: "cleared", whenAbsent: ["program", "stored", { value: Object.freeze([]) }] },
      outputMay: ["null"],
      compared: (v) =>
        asSet(v, (e) => {
          const entry = e as { source?: unknown; description?: unknown } | null | undefined;
          const description: unknown = entry?.description ?? "";
          return `${String(entry?.source)}\u0000${String(description)}`;
        }),
      check: ({ z, strictObject }) =>
        z
          .array(
            strictObject(
              {
                source: z
                  .string({ error: "source must be an IPv4 address or CIDR range, such as 203.0.113.7 or 10.0.0.0/8" })
                  .refine((s) => IPV4.test(s) || IPV4_CIDR.test(s), {
                    error:
                      "source must be an IPv4 address or CIDR range (prefix 0 to 32), such as 203.0.113.7 or 10.0.0.0/8",
                  }),
                description: z.string({ error: "description must be a string" }),
              },
              {
                unknownProperty: "an entry has only source and description",
                notAnObject: "each entry must be an object {source, description}",
              },
            ),
            { error: "ipAccessList must be a list of {source, description}" },
          )
          .min(1, {
            error:
              "ipAccessList must not be empty: an empty list would lock every caller out; leave it unset to allow any address",
          }),
    },
    hashData: {
      type: {
        kind: "object",
        name: "ApiKeyHashData",
        description:
          'Pre-hashed credentials: the program\'s own pair, of which the service is sent only hashes. Secret. Changing it makes a new key. Cannot go with keyMaterial "local" or importId.',
        fields: {
          keyIdHash: {
            type: STRING,
            description: "The standard base64 (padded, 44 characters) of the SHA-256 of the key ID.",
          },
          keyIdSuffix: { type: STRING, description: "The last 4 characters of the key ID." },
          keySecretHash: {
            type: STRING,
            description: "The standard base64 (padded, 44 characters) of the SHA-256 of the key secret.",
          },
        },
      },
      description:
        'Pre-hashed credentials: the program\'s own pair, of which the service is sent only hashes. Secret. Changing it makes a new key. Cannot go with keyMaterial "local" or importId.',
      role: "both",
      secret: true,
      replaces: true,
      wire: false,
      check: ({ z, strictObject }) =>
        strictObject(
          {
            // The service refuses anything else at create (400): refuse it in preview.
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
        ),
    },
    keepers: {
      type: { kind: "map", values: STRING },
      description:
        "Names mapped to strings, never sent to the service: any change (a value, a name added or removed) makes a new key, created before " +
        "the old one is deleted, so what uses the key's outputs moves to the new key in the same `pulumi up` while the old one still works. " +
        "Give it a value that changes on a schedule (e.g. the current quarter) to rotate the key. No keepers and `{}` are the same.",
      role: "both",
      replaces: true,
      wire: false,
      compared: (v) => (typeof v === "object" && v !== null && Object.keys(v).length === 0 ? null : v),
      check: ({ z }) =>
        z.record(
          z.string(),
          // Zod's path names the keeper: "keepers.quarter is 3: ...".
          z.string({ error: "a keeper's value must be a string (turn a number or date into text, e.g. String(n))" }),
          { error: 'keepers must be a map of names to strings, e.g. { rotation: "2025-Q1" }' },
        ),
    },
    keyMaterial: {
      type: {
        kind: "enum",
        name: "ApiKeyMaterial",
        description: "Who makes an API key's ID and secret.",
        values: KEY_MATERIALS,
        meanings: {
          service: "The service makes the pair and returns it once.",
          local: "The provider makes the pair and sends only its hashes.",
        },
      },
      description:
        'Who makes the key ID and secret. "service" (default): the service, which returns them once. "local": the provider, with a CSPRNG ' +
        "(a 20-character key ID of A-Z and 0-9, a 43-character URL-safe secret), sending only their hashes, so the secret never crosses the " +
        "network. Changing it makes a new key. Cannot go with hashData or importId.",
      role: "both",
      replaces: true,
      wire: false,
      compared: (v) => (v === undefined || v === null ? "service" : v),
    },
    importId: {
      type: STRING,
      description:
        "The id (uuid, the `/keys/{id}` one, not the key ID) of an existing key to take over instead of creating one. The create reads it " +
        "(failing, with nothing created, when there is none) and PATCHes the arguments the program sets only when they differ; it never " +
        "creates a key. The service showed the key's secret only to whoever made it, so `keyId` and `keySecret` are null. Cannot go with " +
        'hashData or keyMaterial "local".',
      role: "input",
      wire: false,
      check: ({ uuid }) => uuid("importId"),
    },
    assignedRoles: {
      type: objectList("ApiKeyAssignedRole", "A role an API key is assigned, as the service reports it.", {
        roleId: { type: STRING, description: "The role's uuid." },
        roleName: { type: STRING, description: "The role's name, for people." },
        roleType: {
          type: {
            kind: "enum",
            name: "ApiKeyRoleType",
            description: "Whether a role is predefined or the organization's own.",
            values: ROLE_TYPES,
            meanings: { system: "A predefined role.", custom: "A role the organization defined." },
          },
          description: '"system" (predefined) or "custom" (the organization\'s own).',
        },
      }),
      description:
        "The roles the key has, system and custom, as the service reports them (a role may also be given to the key from the role's side).",
      role: "output",
      whenAbsent: { nullMeans: "absent", whenAbsent: ["stored"] },
    },
    keySuffix: {
      type: STRING,
      description: "The last characters of the key ID, as the service shows them.",
      role: "output",
      stable: true,
      whenAbsent: { nullMeans: "absent", whenAbsent: ["stored", "program", { value: null }] },
      outputMay: ["null"],
    },
    createdAt: { ...SERVICE_TIME, description: "When the key was made (ISO 8601, set by the service).", stable: true },
    usedAt: {
      ...SERVICE_TIME,
      description: "When the key was last used (ISO 8601, set by the service); null when never.",
    },
    keyId: {
      type: STRING,
      description:
        "The key ID: the user name of Basic authentication (not the resource id, which is the key's uuid). None with hashData (the program " +
        "holds it); null for a key taken over or imported.",
      role: "output",
      stable: true,
      outputMay: ["null", "absent"],
    },
    keySecret: {
      type: STRING,
      description: "The key secret, a Pulumi secret. None with hashData; null for a key taken over or imported.",
      role: "output",
      secret: true,
      outputMay: ["null", "absent"],
    },
    managedArgs: {
      type: { kind: "array", items: STRING },
      description: "Names of the patchable arguments this program sets; drift and updates act on these alone.",
      role: "output",
      required: true,
    },
  },
} as const satisfies ResourceDefinition;
