// The service's CDC scaling at `…/services/{serviceId}/clickpipesCdcScaling` (GET and PATCH; no delete).
// Answers are read liberally.

import { z } from "../protocol/zod";
import { wireObject } from "../protocol/validation";
import { fromWire, toWire, type ArgsOf, type StateOf } from "../protocol/definition";
import { apiPath } from "../http/paths";
import { CLICK_PIPE_CDC_INFRASTRUCTURE as DEF } from "./definition";

export type Args = ArgsOf<typeof DEF>;
export type State = StateOf<typeof DEF>;

export const SCALING_NAMES = ["replicaCpuMillicores", "replicaMemoryGb"] as const;

export type Scaling = Pick<Args, (typeof SCALING_NAMES)[number]>;

const scalingAnswer = z.object({ result: wireObject });

export function cdcScalingPath(organizationId: string, serviceId: string): string {
  const id = (name: string, value: string) => ({ name, value, form: "uuid" }) as const;
  return apiPath(
    "ClickPipes CDC scaling",
    "/v1/organizations/",
    id("organizationId", organizationId),
    "/services/",
    id("serviceId", serviceId),
    "/clickpipesCdcScaling",
  );
}

export function scalingBody(values: Scaling): Record<string, unknown> {
  return toWire(DEF, values, SCALING_NAMES, "drop");
}

/** Both values when the answer holds them as numbers; undefined otherwise. */
export function scalingIn(body: unknown): Scaling | undefined {
  const parsed = scalingAnswer.safeParse(body);
  if (!parsed.success) return undefined;
  const read = fromWire(DEF, parsed.data.result, "drop");
  const cpu = read.replicaCpuMillicores;
  const memory = read.replicaMemoryGb;
  return typeof cpu === "number" && typeof memory === "number"
    ? { replicaCpuMillicores: cpu, replicaMemoryGb: memory }
    : undefined;
}
