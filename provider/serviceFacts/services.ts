// A ClickHouse Cloud service's state, as the Cloud's `Service.state` and its 424 word it: what the
// idle-service wake (http/idleService.ts) and the emulator both read.

/** `Service.state`'s values in the Cloud's description. */
export const SERVICE_STATES = [
  "starting",
  "stopping",
  "terminating",
  "softdeleting",
  "awaking",
  "partially_running",
  "provisioning",
  "running",
  "stopped",
  "terminated",
  "softdeleted",
  "degraded",
  "failed",
  "idle",
] as const;

export type ServiceState = (typeof SERVICE_STATES)[number];

/** The state in which ClickPipes calls are taken. */
export const RUNNING: ServiceState = "running";

/** The state the `awake` command leaves: others (stopped, failed) are the owner's to change. */
export const WAKEABLE: ServiceState = "idle";

/** `ServiceStatePatchRequest.command`'s values. */
export const SERVICE_COMMANDS = ["start", "stop", "awake"] as const;

/** How the Cloud words a 424's state: `… Current state: idle`. */
export function idleAnswer(what: string, state: string): string {
  return `FAILED_DEPENDENCY: ${what} is allowed only when the ClickHouse service is running. Current state: ${state}`;
}

/** The state a 424's words name; undefined when they name none. */
export function stateIn424(serviceMessage: string): string | undefined {
  return /Current state:\s*([A-Za-z_]+)/.exec(serviceMessage)?.[1]?.toLowerCase();
}

/** The service a path addresses: `/v1/organizations/{org}/services/{service}/…`. */
export function serviceOfPath(path: string): { organizationId: string; serviceId: string } | undefined {
  const m = /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)/.exec(path);
  if (m === null) return undefined;
  return { organizationId: decodeURIComponent(m[1] ?? ""), serviceId: decodeURIComponent(m[2] ?? "") };
}
