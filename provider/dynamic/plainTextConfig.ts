// The provider host gets the config with secrets unwrapped and cannot tell them from plain text
// (docs/design/ids-and-secrets.md); the program's runtime can, so the classes warn from here.

import * as pulumi from "@pulumi/pulumi";
import { warnPlainTextCredentials } from "../runtime/connection";

/** The SDK marks it internal, so it is looked up; undefined means "cannot tell". */
function secretnessTest(): ((key: string) => boolean) | undefined {
  const test = (pulumi.runtime as unknown as { isConfigSecret?: unknown }).isConfigSecret;
  return typeof test === "function" ? (key) => (test as (k: string) => boolean)(key) === true : undefined;
}

/** Once per program run. */
export function warnPlainTextInProgram(say: (line: string) => void = (line) => void pulumi.log.warn(line)): void {
  const isSecret = secretnessTest();
  if (isSecret === undefined) return;
  warnPlainTextCredentials((key) => {
    const value = pulumi.runtime.getConfig(key);
    return value !== undefined && value !== "" && !isSecret(key);
  }, say);
}
