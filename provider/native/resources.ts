// The registry's resources by type token, `alertpipe:index:<name>`.

import { namesWith } from "../protocol/definition";
import { RESOURCES, type Resource } from "../resources";

export const PACKAGE = "alertpipe";

export interface NativeResource extends Resource {
  /** Otherwise the engine cannot know them secret. */
  readonly secretOutputs: readonly string[];
}

export function tokenOf(resource: Resource): string {
  return `${PACKAGE}:index:${resource.definition.name}`;
}

export const NATIVE_RESOURCES: ReadonlyMap<string, NativeResource> = new Map(
  RESOURCES.map((r) => [tokenOf(r), { ...r, secretOutputs: namesWith(r.definition, "secret") }]),
);

/** The type may be `parent$type`. */
export function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}
