// The CDC capacity database ClickPipes of one service share, as ClickHouse Cloud's
// `ClickPipesCdcScalingPatchRequest` bounds it (docs/design/clickpipe-cdc-infrastructure.md).

/** A bounded value in whole steps. */
export interface Steps {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** CPU per replica of the service's database ClickPipes, in millicores. */
export const CDC_CPU_MILLICORES: Steps = { min: 1000, max: 32000, step: 1000 };

/** Memory per replica, in GiB: "Must be 4× the CPU core count". */
export const CDC_MEMORY_GB: Steps = { min: 4, max: 128, step: 4 };

export const CDC_MEMORY_GB_PER_CORE = 4;

/** "1000 to 32000 in steps of 1000". */
export function stepsText(steps: Steps): string {
  return `${steps.min} to ${steps.max} in steps of ${steps.step}`;
}

/** Why `value` is out of `steps`; undefined when it is in. */
export function stepsProblem(value: number, steps: Steps): string | undefined {
  if (!Number.isFinite(value) || value < steps.min || value > steps.max || value % steps.step !== 0)
    return `must be ${stepsText(steps)}`;
  return undefined;
}

/** The memory that goes with `millicores`: four GiB a core. */
export function memoryForCpu(millicores: number): number {
  return (millicores / 1000) * CDC_MEMORY_GB_PER_CORE;
}

/** Why the pair does not go together; undefined when memory is four times the cores. */
export function cdcPairProblem(millicores: number, memoryGb: number): string | undefined {
  const wanted = memoryForCpu(millicores);
  if (memoryGb === wanted) return undefined;
  return `replicaMemoryGb must be ${CDC_MEMORY_GB_PER_CORE} times the CPU cores: ${wanted} for replicaCpuMillicores ${millicores} (${millicores / 1000} cores), not ${memoryGb}`;
}
