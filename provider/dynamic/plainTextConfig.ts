// The dynamic front door's half of the plain-text credential warning (runtime/connection.ts). The
// provider host gets the stack config with its secrets already unwrapped, so it cannot tell a
// secret from plain text (docs/design/ids-and-secrets.md); the program can: its runtime
// knows which config keys are secret. So the resource classes say it, when a program makes one.

import * as pulumi from "@pulumi/pulumi";
import { warnPlainTextCredentials } from "../runtime/connection";

/** The SDK's own test of a config key's secretness: marked internal, so looked up, and absent means "cannot tell". */
function secretnessTest(): ((key: string) => boolean) | undefined {
  const test = (pulumi.runtime as unknown as { isConfigSecret?: unknown }).isConfigSecret;
  return typeof test === "function" ? (key) => (test as (k: string) => boolean)(key) === true : undefined;
}

/** Says once per program run which credentials the stack config holds in plain text. */
export function warnPlainTextInProgram(say: (line: string) => void = (line) => void pulumi.log.warn(line)): void {
  const isSecret = secretnessTest();
  if (isSecret === undefined) return;
  warnPlainTextCredentials((key) => {
    const value = pulumi.runtime.getConfig(key);
    return value !== undefined && value !== "" && !isSecret(key);
  }, say);
}
