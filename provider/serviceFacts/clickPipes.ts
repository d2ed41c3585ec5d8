// What a ClickPipe's state means, for the provider and the emulator (docs/design/clickpipes.md, the
// table of `stopped`): the Cloud description's `ClickPipe.state` enum.

export const CLICK_PIPE_STATES = [
  "Unknown",
  "Provisioning",
  "Running",
  "Degraded",
  "Stopping",
  "Stopped",
  "Failed",
  "Completed",
  "InternalError",
  "Setup",
  "Snapshot",
  "Paused",
  "Pausing",
  "Modifying",
  "Resync",
] as const;

export type ClickPipeState = (typeof CLICK_PIPE_STATES)[number];

/** What refresh reports for `stopped`; undefined: the service does not know, the recorded value stands. */
export const STOPPED_BY_STATE: Readonly<Record<ClickPipeState, boolean | undefined>> = {
  Provisioning: false,
  Setup: false,
  Snapshot: false,
  Running: false,
  Modifying: false,
  Resync: false,
  Degraded: false,
  Completed: false,
  Stopping: true,
  Stopped: true,
  Pausing: true,
  Paused: true,
  Failed: true,
  InternalError: undefined,
  Unknown: undefined,
};

/** Where a wait after `stop` ends well. */
export const STOPPED_STATES: readonly ClickPipeState[] = ["Stopped", "Paused"];
/** Where a wait after `start` ends well: a snapshot may take hours, it is never waited out. */
export const STARTED_STATES: readonly ClickPipeState[] = ["Running", "Setup", "Snapshot", "Completed"];
/** A scaling change is done once the pipe is in neither (the peer's #221). */
export const CHANGING_STATES: readonly ClickPipeState[] = ["Modifying", "Provisioning"];
/** A wait ends badly here: never looped on. */
export const BROKEN_STATES: readonly ClickPipeState[] = ["Failed", "InternalError"];

/** The recorded value where the state tells nothing (InternalError, Unknown, a state this list lacks). */
export function stoppedOf(state: string | undefined, recorded: boolean): boolean {
  const known = (CLICK_PIPE_STATES as readonly string[]).includes(state ?? "");
  return known ? (STOPPED_BY_STATE[state as ClickPipeState] ?? recorded) : recorded;
}
