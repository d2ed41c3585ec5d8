// What the benchmark asks the provider to manage: valid inputs of each kind, as a program would
// write them. Shared by the engine runs and the host-driven ones, so both measure the same payloads.

import { randomUUID } from "node:crypto";
import type { AlertArgs, ApiKeyArgs, PipeSettingsArgs } from "../provider";

export type Kind = "PipeSettings" | "Alert" | "ApiKey";
export const KINDS: readonly Kind[] = ["PipeSettings", "Alert", "ApiKey"];

export type Props = Record<string, unknown>;

export const ORGANIZATION = "0f8fad5b-d9cb-469f-a165-70867728950e";
export const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

export interface ArgsOf {
  PipeSettings: PipeSettingsArgs;
  Alert: AlertArgs;
  ApiKey: ApiKeyArgs;
}

/** The i-th resource's inputs, for each kind. */
export type Args = { readonly [K in Kind]: (i: number) => ArgsOf[K] };

export const ARGS: Args = {
  PipeSettings: () => ({
    organizationId: ORGANIZATION,
    serviceId: SERVICE,
    pipeId: randomUUID(),
    dbMaxThreads: 8,
    dbMaxInsertThreads: 4,
    resetOnDelete: true,
  }),
  Alert: (i) => ({
    name: `bench alert ${i}`,
    threshold: 5 + i,
    interval: "5m",
    source: "search",
    thresholdType: "above",
    channel: { type: "webhook", webhookId: "hook-1" },
  }),
  ApiKey: (i) => ({ organizationId: ORGANIZATION, name: `bench key ${i}`, roles: ["developer"] }),
};

/** The i-th resource's inputs as plain data, the form they take on the wire to the provider host. */
export function inputsFor(kind: Kind, i: number): Props {
  return JSON.parse(JSON.stringify(ARGS[kind](i))) as Props;
}

/** 200 PipeSettings, 200 Alerts, 100 ApiKeys in 500, interleaved as a program might declare them. */
export function mixedKind(i: number): Kind {
  return (["PipeSettings", "PipeSettings", "Alert", "Alert", "ApiKey"] as const)[i % 5] as Kind;
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
