// The ApiKey resource class that programs instantiate.

import * as pulumi from "@pulumi/pulumi";
import { unsetOutputs } from "../unsetOutputs";
import shim = require("./shim");

export type ApiKeyRole = "admin" | "developer" | "query_endpoints";
export type ApiKeyState = "enabled" | "disabled";

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
  /** Pre-hashed credentials; stored as a secret. Changing it makes a new key. */
  hashData?: pulumi.Input<ApiKeyHashData>;
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
  /** The key ID: the user name of Basic authentication (not the resource id, which is the key's uuid). */
  declare readonly keyId: pulumi.Output<string>;
  /** The key secret, a Pulumi secret. */
  declare readonly keySecret: pulumi.Output<string>;
  declare readonly keySuffix: pulumi.Output<string | null>;
  declare readonly createdAt: pulumi.Output<string | null>;
  declare readonly usedAt: pulumi.Output<string | null>;
  /** Names of the patchable arguments this program sets; drift and updates act on these alone. */
  declare readonly managedArgs: pulumi.Output<string[]>;

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
    ]);
    const secretOutputs: pulumi.CustomResourceOptions = { additionalSecretOutputs: ["keySecret", "hashData"] };
    // additionalSecretOutputs covers outputs only; the engine stores inputs as they come, so
    // hashData is made secret here too, or it would sit in the state's inputs in plain text.
    const inputs = args.hashData === undefined ? args : { ...args, hashData: pulumi.secret(args.hashData) };
    super(shim, name, { ...outputs, ...inputs }, pulumi.mergeOptions(opts, secretOutputs), "alertpipe", "ApiKey");
  }

  /**
   * An existing key, read by its uuid (`result.key.id`, not the key ID used to log in) and never
   * created, changed or deleted by this stack. Its path needs the organization. The secret is never
   * returned again, so a key read this way has none.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state: { organizationId: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions): ApiKey {
    return new ApiKey(name, { organizationId: state.organizationId } as ApiKeyArgs, { ...opts, id });
  }
}
