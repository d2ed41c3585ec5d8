// The engine harness: run real Pulumi programs of dynamic resources without the `pulumi` CLI.
export { LocalStack, UNKNOWN, SECRET_MASK } from "./engine";
export type { StackOptions, StepOp, Step, RunResult } from "./engine";
export type { StateFile, StateResource } from "./state";
export { CliStack, pulumiCliOnPath } from "./cliStack";
