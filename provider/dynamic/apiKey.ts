// The ApiKey resource class that programs instantiate.

import * as pulumi from "@pulumi/pulumi";
import { unsetOutputs } from "./unsetOutputs";
import { warnPlainTextInProgram } from "./plainTextConfig";
import shim = require("../apiKey/shim");
import type { KeyRole, KeyState } from "../serviceFacts/apiKeys";
import type { KEY_MATERIALS } from "../apiKey/args";
import { SECRET_PROPERTIES } from "../apiKey/docs";

export type ApiKeyRole = KeyRole;
export type ApiKeyState = KeyState;
/** Who makes an ApiKey's key ID and secret: the service, or the provider on this machine. */
export type ApiKeyMaterial = (typeof KEY_MATERIALS)[number];

export interface IpAccessEntry {
  /** An IPv4 address or CIDR range, e.g. "203.0.113.7" or "10.0.0.0/8". */
  source: string;
  description: string;
}

export interface ApiKeyHashData {
  keyIdHash: string;
  keyIdSuffix: string;
  keySecretHash: string;
}

export interface ApiKeyArgs {
  /** Organization that owns the key (uuid). Changing it makes a new key. */
  organizationId: pulumi.Input<string>;
  /** At least one of "admin", "developer", "query_endpoints". */
  roles: pulumi.Input<pulumi.Input<ApiKeyRole>[]>;
  name?: pulumi.Input<string>;
  /** ISO 8601 date-time with a time zone; null or "" (or unset) for a key that never expires. */
  expireAt?: pulumi.Input<string | null>;
  /** Default "enabled". */
  state?: pulumi.Input<ApiKeyState>;
  /** Addresses allowed to use the key; unset allows any. An empty list is refused (it would lock every caller out). */
  ipAccessList?: pulumi.Input<pulumi.Input<IpAccessEntry>[]>;
  /** Pre-hashed credentials; stored as a secret. Changing it makes a new key. Cannot go with keyMaterial "local" or importId. */
  hashData?: pulumi.Input<ApiKeyHashData>;
  /**
   * Names mapped to strings, never sent to the service: any change (a value, a name added or
   * removed) makes a new key, created before the old one is deleted, so what uses the key's outputs
   * moves to the new key in the same `pulumi up` while the old one still works. Give it a value
   * that changes on a schedule (e.g. the current quarter) to rotate the key. No keepers and `{}`
   * are the same.
   */
  keepers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Who makes the key ID and secret. "service" (default): the service, which returns them once.
   * "local": the provider, with a CSPRNG (a 20-character key ID of A–Z and 0–9, a 43-character
   * URL-safe secret), sending only their hashes (hashData), so the secret never crosses the
   * network; both are outputs, the secret a Pulumi secret. Changing it makes a new key. Cannot go
   * with hashData or importId.
   */
  keyMaterial?: pulumi.Input<ApiKeyMaterial>;
  /**
   * The id (uuid, the `/keys/{id}` one, not the key ID) of an existing key to take over instead of
   * creating one. The create reads it (failing, with nothing created, when there is none) and
   * PATCHes the arguments the program sets only when they differ; it never creates a key. The
   * service showed the key's secret only to whoever made it, so `keyId` and `keySecret` are null.
   * Once taken over, changing or removing importId changes nothing, and the key is this stack's: a
   * destroy deletes it unless the resource has `retainOnDelete`. Cannot go with hashData or
   * keyMaterial "local".
   */
  importId?: pulumi.Input<string>;
}

/** An organization API key. Its secret is returned once, at creation, and kept as a Pulumi secret. */
export class ApiKey extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  /** The name as the service returns it; null when it answers none. */
  declare readonly name: pulumi.Output<string | null>;
  declare readonly roles: pulumi.Output<ApiKeyRole[]>;
  /** The expiry as the service returns it, or null for never. */
  declare readonly expireAt: pulumi.Output<string | null>;
  declare readonly state: pulumi.Output<ApiKeyState>;
  /** The list as the service returns it; null when it answers none. */
  declare readonly ipAccessList: pulumi.Output<IpAccessEntry[] | null>;
  declare readonly hashData: pulumi.Output<ApiKeyHashData | undefined>;
  /**
   * The key ID: the user name of Basic authentication (not the resource id, which is the key's
   * uuid). Undefined with hashData (the program holds it); null for a key taken over with importId
   * or read by id (get, pulumi import), since the service shows it only to whoever made the key.
   */
  declare readonly keyId: pulumi.Output<string | null | undefined>;
  /** The key secret, a Pulumi secret. Undefined with hashData; null for a key taken over with importId or read by id. */
  declare readonly keySecret: pulumi.Output<string | null | undefined>;
  declare readonly keySuffix: pulumi.Output<string | null>;
  declare readonly createdAt: pulumi.Output<string | null>;
  declare readonly usedAt: pulumi.Output<string | null>;
  /** Names of the patchable arguments this program sets; drift and updates act on these alone. */
  declare readonly managedArgs: pulumi.Output<string[]>;
  declare readonly keepers: pulumi.Output<Record<string, string> | undefined>;
  declare readonly keyMaterial: pulumi.Output<ApiKeyMaterial | undefined>;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = unsetOutputs([
      "organizationId",
      "roles",
      "name",
      "expireAt",
      "state",
      "ipAccessList",
      "hashData",
      "keyId",
      "keySecret",
      "keySuffix",
      "createdAt",
      "usedAt",
      "managedArgs",
      "keepers",
      "keyMaterial",
    ]);
    const secretOutputs: pulumi.CustomResourceOptions = { additionalSecretOutputs: [...SECRET_PROPERTIES] };
    // additionalSecretOutputs covers outputs only; the engine stores inputs as they come, so
    // hashData is made secret here too, or it would sit in the state's inputs in plain text.
    const inputs = args.hashData === undefined ? args : { ...args, hashData: pulumi.secret(args.hashData) };
    super(shim, name, { ...outputs, ...inputs }, pulumi.mergeOptions(opts, secretOutputs), "alertpipe", "ApiKey");
    warnPlainTextInProgram();
  }

  /**
   * An existing key, read by its uuid (`result.key.id`, not the key ID used to log in) and never
   * created, changed or deleted by this stack. Its path needs the organization. The secret is never
   * returned again, so a key read this way has none.
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state: { organizationId: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): ApiKey {
    return new ApiKey(name, { organizationId: state.organizationId } as ApiKeyArgs, { ...opts, id });
  }
}
