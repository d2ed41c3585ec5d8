// ClickPipeCdcInfrastructure, each property once: the CDC capacity the database ClickPipes of one
// service share; its bounds come from their table of facts.

import type { PropertyDef, ResourceDefinition } from "../protocol/definition";
import { uuidPathPart } from "../protocol/commonProperties";
import { CDC_CPU_MILLICORES, CDC_MEMORY_GB, stepsText, type Steps } from "../serviceFacts/cdcScaling";

function bounded(name: string, kind: "integer" | "number", steps: Steps, description: string) {
  const message = `${name} must be ${stepsText(steps)}`;
  return {
    type: { kind },
    description: `${description}: ${stepsText(steps)}.`,
    role: "both",
    required: true,
    check: ({ z }) =>
      z
        .number({ error: message })
        .int({ error: message })
        .min(steps.min, { error: message })
        .max(steps.max, { error: message })
        .multipleOf(steps.step, { error: message }),
  } as const satisfies PropertyDef;
}

export const CLICK_PIPE_CDC_INFRASTRUCTURE = {
  name: "ClickPipeCdcInfrastructure",
  description:
    "The CDC capacity of one ClickHouse Cloud service: the CPU and memory of each replica its database ClickPipes " +
    '(Postgres, MySQL, MongoDB, BigQuery) share. ClickHouse Cloud only (alertpipe:cloudDialect "clickhouse"). ' +
    "The API has no delete: a destroy leaves the capacity as it is and only forgets it.",
  importIdForm: ["organizationId", "serviceId"],
  properties: {
    organizationId: uuidPathPart(
      "organizationId",
      "Organization that owns the service (uuid). Changing it replaces the resource.",
    ),
    serviceId: uuidPathPart(
      "serviceId",
      "Service whose database ClickPipes share the capacity (uuid). Changing it replaces the resource.",
    ),
    replicaCpuMillicores: bounded(
      "replicaCpuMillicores",
      "integer",
      CDC_CPU_MILLICORES,
      "CPU of each replica of the service's database ClickPipes, in millicores",
    ),
    replicaMemoryGb: bounded(
      "replicaMemoryGb",
      "number",
      CDC_MEMORY_GB,
      "Memory of each replica, in GiB; four times the CPU cores (8 for 2000 millicores)",
    ),
  },
} as const satisfies ResourceDefinition;
