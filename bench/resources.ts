// What the benchmark asks the provider to manage: valid inputs of each kind, the way a program's
// resource class sends them (the host adds nothing but `__provider`), and the engine's two habits
// that shape timing: Check one resource at a time in registration order, and run resource
// operations on a bounded pool of workers (`pulumi up --parallel`).

import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { HostDriver, Props } from "./hostDriver";
import { urnOf } from "./hostDriver";
import { TYPE_TOKENS, type BenchProgram, type Kind, type Reference } from "./program";

export const ORGANIZATION = "0f8fad5b-d9cb-469f-a165-70867728950e";
export const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/**
 * `pulumi up --parallel` defaults to 2147483647, "unbounded" (the CLI reference of `pulumi up`:
 * "-p, --parallel int  Allow P resource operations to run in parallel at once (1 for no
 * parallelism). Defaults to unbounded. (default 2147483647)"); test/harness/engine.ts uses the same.
 */
export const ENGINE_DEFAULT_PARALLEL = 2147483647;

/** The inputs a program would register for the i-th resource of a kind. */
export function inputsFor(kind: Kind, i: number): Props {
  switch (kind) {
    case "PipeSettings":
      return { organizationId: ORGANIZATION, serviceId: SERVICE, pipeId: randomUUID(), dbMaxThreads: 8, dbMaxInsertThreads: 4, resetOnDelete: true };
    case "Alert":
      return {
        name: `bench alert ${i}`,
        threshold: 5 + i,
        interval: "5m",
        source: "search",
        thresholdType: "above",
        channel: { type: "webhook", webhookId: "hook-1" },
      };
    case "ApiKey":
      return { organizationId: ORGANIZATION, name: `bench key ${i}`, roles: ["developer"] };
  }
}

/** Inputs of a reference provider: Noop waits `sleepMs` in create; RawHttp posts an alert body. */
function referenceInputs(kind: Reference, i: number, sleepMs: number): Props {
  if (kind === "Noop") return { value: i, sleepMs };
  const { name, threshold, interval, source, thresholdType, channel } = inputsFor("Alert", i);
  return { body: { name, threshold, interval, source, thresholdType, channel } };
}

export interface PlannedResource {
  readonly kind: Kind | Reference;
  readonly urn: string;
  /** Program inputs, `__provider` included (as the resource class registers them). */
  readonly news: Props;
}

export function plan(program: BenchProgram, kind: Kind | Reference, i: number, prefix: string, sleepMs = 0): PlannedResource {
  const inputs = kind === "Noop" || kind === "RawHttp" ? referenceInputs(kind, i, sleepMs) : inputsFor(kind, i);
  return { kind, urn: urnOf(TYPE_TOKENS[kind], `${prefix}-${i}`), news: { ...inputs, __provider: program.providers[kind] } };
}

export interface CreatedResource {
  readonly planned: PlannedResource;
  readonly id: string;
  readonly outputs: Props;
  readonly inputs: Props;
  readonly ms: number;
}

export interface ApplyResult {
  readonly elapsedMs: number;
  readonly created: CreatedResource[];
  readonly failures: string[];
}

/**
 * `pulumi up` of new resources as the engine runs it: each is checked in registration order, then
 * its create goes to a pool of `parallel` workers (the registration waits for a free worker).
 */
export async function apply(host: HostDriver, resources: readonly PlannedResource[], parallel: number): Promise<ApplyResult> {
  const created: CreatedResource[] = [];
  const failures: string[] = [];
  const running = new Set<Promise<void>>();
  const start = performance.now();
  for (const r of resources) {
    let inputs: Props;
    try {
      inputs = await host.check(r.urn, {}, r.news);
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
      continue;
    }
    while (running.size >= parallel) await Promise.race(running);
    const began = performance.now();
    const op: Promise<void> = host.create(r.urn, inputs).then(
      (res) => {
        created.push({ planned: r, id: res.id, outputs: res.outputs, inputs, ms: performance.now() - began });
      },
      (err: unknown) => {
        failures.push(err instanceof Error ? err.message : String(err));
      },
    );
    const tracked = op.finally(() => running.delete(tracked));
    running.add(tracked);
  }
  await Promise.all(running);
  return { elapsedMs: performance.now() - start, created, failures };
}
