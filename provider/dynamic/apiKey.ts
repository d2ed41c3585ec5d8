import * as pulumi from "@pulumi/pulumi";
import { API_KEY } from "../apiKey/definition";
import type { ApiKeyArgs, ApiKeyOutputs } from "./generated";
import { DefinedResource } from "./resource";
import shim = require("../apiKey/shim");

export interface ApiKey extends ApiKeyOutputs {}

/** An organization API key. Its secret is returned once, at creation, and kept as a Pulumi secret. */
export class ApiKey extends DefinedResource {
  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: API_KEY, shim, type: "ApiKey" }, name, args, opts);
  }

  /**
   * An existing key, read by its uuid (`result.key.id`, not the key ID used to log in) and never
   * written by this stack. Its path needs the organization. The secret is never returned again.
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state: { organizationId: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): ApiKey {
    return new ApiKey(name, { organizationId: state.organizationId }, { ...opts, id });
  }
}
