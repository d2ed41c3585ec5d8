// What this `pulumi up` has made its own. One dynamic-provider host process serves the whole
// deployment, so a module's memory is the run's. A replacement or a rename without an alias creates
// the successor first and deletes the predecessor afterwards, in the same process: the delete must
// leave alone whatever the successor holds of the same service object. PipeSettings notes the
// settings of a pipe that a resource of the run manages; Alert and ApiKey note an object a
// replacement took over again with importId.

const claims = new Map<string, Set<string>>();

/** Notes that a resource of this run holds these parts of the service object named `key`. */
export function claim(key: string, parts: readonly string[]): void {
  const held = claims.get(key) ?? new Set<string>();
  for (const part of parts) held.add(part);
  claims.set(key, held);
}

/** The parts of the service object named `key` that a resource of this run holds; empty when none. */
export function claimedThisRun(key: string): ReadonlySet<string> {
  return claims.get(key) ?? new Set<string>();
}

/** Forgets the run's claims, as a new process would (tests play several runs in one). */
export function forgetRun(): void {
  claims.clear();
}
