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

/** The type may be `parent$type`. Sliced, not split: every call of a run asks. */
export function typeOfUrn(urn: string): string {
  const first = urn.indexOf("::");
  const second = first < 0 ? -1 : urn.indexOf("::", first + 2);
  if (second < 0) return "";
  const end = urn.indexOf("::", second + 2);
  const qualified = urn.slice(second + 2, end < 0 ? urn.length : end);
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}
