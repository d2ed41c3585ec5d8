// What this `pulumi up` has made its own. One provider process (the dynamic-provider host, or the
// plugin) serves the whole deployment, so the process's memory (runtime.ts's runClaims) is the
// run's. A replacement or a rename without an alias creates the successor first and deletes the
// predecessor afterwards, in the same process: the delete must leave alone whatever the successor
// holds of the same service object. PipeSettings notes the
// settings of a pipe that a resource of the run manages; Alert and ApiKey note an object a
// replacement took over again with importId.

import { runtime } from "../runtime/runtime";

/** Notes that a resource of this run holds these parts of the service object named `key`. */
export function claimForThisRun(key: string, parts: readonly string[]): void {
  const claims = runtime().runClaims;
  const held = claims.get(key) ?? new Set<string>();
  for (const part of parts) held.add(part);
  claims.set(key, held);
}

/** The parts of the service object named `key` that a resource of this run holds; empty when none. */
export function partsClaimedThisRun(key: string): ReadonlySet<string> {
  return runtime().runClaims.get(key) ?? new Set<string>();
}
