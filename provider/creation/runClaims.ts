// One provider process serves the whole deployment, so its memory is the run's. A replacement or an
// unaliased rename creates the successor before deleting the predecessor, in the same process: the
// delete must leave alone what the successor holds of the same service object.

import { runtime } from "../runtime/runtime";

export function claimForThisRun(key: string, parts: readonly string[]): void {
  const claims = runtime().runClaims;
  const held = claims.get(key) ?? new Set<string>();
  for (const part of parts) held.add(part);
  claims.set(key, held);
}

export function partsClaimedThisRun(key: string): ReadonlySet<string> {
  return runtime().runClaims.get(key) ?? new Set<string>();
}

/**
 * The settings a ClickPipe's own `settings` names, by pipe: a PipeSettings of that pipe must name
 * none of them (docs/design/clickpipes.md, "PipeSettings and ClickPipe.settings").
 */
export function clickPipeSettingsKey(organizationId: string, serviceId: string, pipe: string): string {
  return `ClickPipe.settings ${organizationId}/${serviceId}/${pipe}`.toLowerCase();
}
