// The one error a provider method throws for an object that exists although the method failed.

import type { PropertyMap } from "./properties";

/**
 * An error from create/update after the object exists. The host turns `id` and `properties` into
 * ErrorResourceInitFailed, so the engine keeps the object in state instead of orphaning it.
 */
export class PartialFailure extends Error {
  constructor(
    readonly id: string,
    readonly properties: PropertyMap,
    cause: Error,
  ) {
    super(cause.message, { cause });
    this.name = "PartialFailure";
  }

  get reasons(): string[] {
    return [this.message];
  }
}
