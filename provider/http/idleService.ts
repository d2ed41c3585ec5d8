// A ClickPipes call that ClickHouse Cloud refuses because its service is idle (424): woken once, when
// the owner lets the provider (alertpipe:wakeIdleServices), and sent again; else the 424 as it came.

import { z } from "../protocol/zod";
import { ApiError, ServiceNotAwakeError } from "../errors";
import { quotedId } from "../protocol/ids";
import { notify } from "../runtime/notices";
import { wakeIdleServices, type AreaConnection } from "../runtime/connection";
import { DEFAULT_TIMINGS, runtime } from "../runtime/runtime";
import { RUNNING, WAKEABLE, stateIn424 } from "../serviceFacts/services";
import { formatSeconds } from "../words";
import { send } from "./client";
import { apiPath } from "./paths";

export interface ServiceRef {
  readonly organizationId: string;
  readonly serviceId: string;
}

/** On the way to running after `awake`: worth another read. */
const WAKING = new Set(["idle", "awaking", "starting", "provisioning", "partially_running"]);

const stateAnswer = z.object({ result: z.object({ state: z.string() }) });

function servicePath(service: ServiceRef): string {
  return apiPath(
    "service",
    "/v1/organizations/",
    { name: "organizationId", value: service.organizationId, form: "uuid" },
    "/services/",
    { name: "serviceId", value: service.serviceId, form: "uuid" },
  );
}

/** The answer's `result.state`, undefined when it holds none. */
function stateOf(body: unknown): string | undefined {
  const parsed = stateAnswer.safeParse(body);
  return parsed.success ? parsed.data.result.state.toLowerCase() : undefined;
}

/**
 * Runs `op`; on a 424 of an idle service, with alertpipe:wakeIdleServices true, sends the service's
 * `awake` command, waits until it runs (reads paced in the key's budget, bounded) and runs `op` once
 * more. A 424 answers before anything is done, so the second send cannot make a thing twice.
 */
export async function withIdleServiceWake<T>(
  conn: AreaConnection,
  service: ServiceRef,
  op: () => Promise<T>,
): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "SERVICE_IDLE" || !wakeIdleServices()) throw err;
    const state = stateIn424(err.serviceMessage);
    // A stopped (or failed) service is its owner's decision: never started from here.
    if (state !== undefined && state !== WAKEABLE) throw err;
    await wake(conn, service, err);
  }
  return op();
}

async function wake(conn: AreaConnection, service: ServiceRef, refused: ApiError): Promise<void> {
  const timings = runtime().timings;
  const pollMs = timings.servicePollMs ?? DEFAULT_TIMINGS.servicePollMs ?? 5_000;
  const timeoutMs = timings.serviceWaitMs ?? DEFAULT_TIMINGS.serviceWaitMs ?? 600_000;
  const path = servicePath(service);
  const who = `service ${quotedId(service.serviceId)}`;
  notify(
    `pulumi-alertpipe: ${refused.method} ${refused.path} was refused because ${who} is idle; ` +
      "waking it (alertpipe:wakeIdleServices is true)",
  );
  const started = Date.now();
  const woken = await send(conn, { method: "PATCH", path: `${path}/state`, body: { command: "awake" } });
  let state = stateOf(woken.body) ?? "awaking";
  while (state !== RUNNING) {
    const waited = Date.now() - started;
    if (!WAKING.has(state) || waited + pollMs > timeoutMs)
      throw new ServiceNotAwakeError({ method: "GET", path }, service.serviceId, state, waited, refused);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    state = stateOf((await send(conn, { method: "GET", path })).body) ?? state;
  }
  notify(
    `pulumi-alertpipe: woke ${who}: running after ${formatSeconds(Date.now() - started)}; ` +
      `sending ${refused.method} ${refused.path} again`,
  );
}
