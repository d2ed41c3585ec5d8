// ClickHouse Cloud mode: a service's state (running unless a test made it idle or stopped; `awake`
// runs it after a settable delay), the 424 ClickPipes writes meet on a service that is not running,
// and the service's CDC scaling (`…/clickpipesCdcScaling`, GET and PATCH, no delete).

import { z } from "zod";
import { CDC_CPU_MILLICORES, CDC_MEMORY_GB, cdcPairProblem, stepsProblem } from "../provider/serviceFacts/cdcScaling";
import { RUNNING, SERVICE_COMMANDS, idleAnswer, type ServiceState } from "../provider/serviceFacts/services";
import { cloudError, cloudOk, parseJson, type Incoming, type Reply, type Services } from "./replies";
import { parseWith } from "./schemas";
import type { CdcScaling } from "./store";

/** What a service never scaled answers: the Cloud document's example values. */
export const DEFAULT_CDC_SCALING: CdcScaling = { replicaCpuMillicores: 2000, replicaMemoryGb: 8 };

/** How long `awake` takes unless a test says otherwise. */
export const DEFAULT_WAKE_DELAY_MS = 1_000;

const key = (organizationId: string, serviceId: string) => `${organizationId}/${serviceId}`.toLowerCase();

/** The state now: an awaking or starting service whose time has come runs (and is forgotten). */
export function serviceState(services: Services, organizationId: string, serviceId: string): string {
  const states = services.state.serviceStates;
  const held = states?.[key(organizationId, serviceId)];
  if (states === undefined || held === undefined) return RUNNING;
  if (held.runningAt !== undefined && Date.parse(held.runningAt) <= Date.now()) {
    delete states[key(organizationId, serviceId)];
    services.persist();
    return RUNNING;
  }
  return held.state;
}

/** The test hook: a service idle, stopped, or running again; `wakeDelayMs` is how long its `awake` will take. */
export function setServiceState(
  services: Services,
  organizationId: string,
  serviceId: string,
  state: ServiceState,
  wakeDelayMs: number = DEFAULT_WAKE_DELAY_MS,
): void {
  const states = (services.state.serviceStates ??= {});
  if (state === RUNNING) delete states[key(organizationId, serviceId)];
  else states[key(organizationId, serviceId)] = { state, wakeDelayMs };
  services.persist();
}

/**
 * For a ClickPipes write: undefined when the service runs, else the Cloud's 424 (#376 of its Terraform
 * provider: `ClickPipe creation is allowed only when the ClickHouse service is running. Current state: idle`).
 */
export function serviceRunningOr424(
  services: Services,
  organizationId: string,
  serviceId: string,
  what = "ClickPipe creation",
): Reply | undefined {
  const state = serviceState(services, organizationId, serviceId);
  return state === RUNNING ? undefined : cloudError(424, idleAnswer(what, state));
}

/** The Cloud's `Service`, with what its document requires and the state. */
function serviceAnswer(services: Services, organizationId: string, serviceId: string): Reply {
  return cloudOk({
    id: serviceId,
    name: `service-${serviceId.slice(0, 8)}`,
    state: serviceState(services, organizationId, serviceId),
    idleScaling: true,
    autoscalingMode: "vertical",
    currentScaling: { effectiveAutoscalingMode: "vertical", effectiveIdleScaling: true },
  });
}

const commandBody = z.object({ command: z.enum(SERVICE_COMMANDS) });

/** `awake` wakes an idle service, `start` a stopped or idle one (each after its delay); `stop` stops it. */
function stateCommand(services: Services, req: Incoming, organizationId: string, serviceId: string): Reply {
  const json = parseJson(req.rawBody);
  if (!json.ok) return cloudError(400, json.message);
  const parsed = parseWith(commandBody, json.value);
  if (!parsed.ok) return cloudError(400, parsed.message);
  const now = serviceState(services, organizationId, serviceId);
  const states = (services.state.serviceStates ??= {});
  const held = states[key(organizationId, serviceId)];
  const delay = held?.wakeDelayMs ?? DEFAULT_WAKE_DELAY_MS;
  const command = parsed.value.command;
  if (command === "stop") states[key(organizationId, serviceId)] = { state: "stopped", wakeDelayMs: delay };
  else if ((command === "awake" && now === "idle") || (command === "start" && (now === "stopped" || now === "idle")))
    states[key(organizationId, serviceId)] = {
      state: command === "awake" ? "awaking" : "starting",
      wakeDelayMs: delay,
      runningAt: new Date(Date.now() + delay).toISOString(),
    };
  else if (command === "awake" && now === "stopped")
    return cloudError(400, `Service ${serviceId} is stopped: an awake command wakes an idle service only; start it`);
  services.persist();
  return serviceAnswer(services, organizationId, serviceId);
}

const scalingBody = z.strictObject({
  replicaCpuMillicores: z.number().optional(),
  replicaMemoryGb: z.number().optional(),
});

function currentScaling(services: Services, organizationId: string, serviceId: string): CdcScaling {
  return { ...(services.state.cdcScaling?.[key(organizationId, serviceId)] ?? DEFAULT_CDC_SCALING) };
}

/** A PATCH keeps what it leaves out; the pair must hold four GiB a core; a service not running answers 424. */
function patchScaling(services: Services, req: Incoming, organizationId: string, serviceId: string): Reply {
  const json = parseJson(req.rawBody);
  if (!json.ok) return cloudError(400, json.message);
  const parsed = parseWith(scalingBody, json.value);
  if (!parsed.ok) return cloudError(400, parsed.message);
  const idle = serviceRunningOr424(services, organizationId, serviceId, "ClickPipes CDC scaling");
  if (idle !== undefined) return idle;
  const next = { ...currentScaling(services, organizationId, serviceId), ...parsed.value };
  const problem =
    stepsProblem(next.replicaCpuMillicores, CDC_CPU_MILLICORES)?.replace(/^/, "replicaCpuMillicores ") ??
    stepsProblem(next.replicaMemoryGb, CDC_MEMORY_GB)?.replace(/^/, "replicaMemoryGb ") ??
    cdcPairProblem(next.replicaCpuMillicores, next.replicaMemoryGb);
  if (problem !== undefined) return cloudError(400, problem);
  (services.state.cdcScaling ??= {})[key(organizationId, serviceId)] = next;
  services.persist();
  return cloudOk(next);
}

/** `…/services/{serviceId}`: the service; `/state`: its command; `/clickpipesCdcScaling`: its CDC scaling. */
export function serviceRoute(
  services: Services,
  req: Incoming,
  [organizationId = "", serviceId = ""]: string[],
  what: "service" | "state" | "cdcScaling",
): Reply {
  if (what === "service") return serviceAnswer(services, organizationId, serviceId);
  if (what === "state") return stateCommand(services, req, organizationId, serviceId);
  return req.method === "GET"
    ? cloudOk(currentScaling(services, organizationId, serviceId))
    : patchScaling(services, req, organizationId, serviceId);
}
