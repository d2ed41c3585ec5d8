// A scenario: requests sent to HyperDX's API and recorded as test/recorded/hyperdx-b52a6fa/<name>.json.
// One file per scenario under scenarios/, listed in scenarios/index.ts.

import type { Session } from "./session";

export interface Scenario {
  /** The recording's file name, without `.json`. */
  readonly name: string;
  /** What it records, in a sentence. */
  readonly about: string;
  /** Sends its requests through the session; deletes what it made at the end (`session.cleanup()` runs after it). */
  run(session: Session): Promise<void>;
}
