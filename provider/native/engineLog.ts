// The engine's log service, where the plugin's notices go: the engine shows each message under the
// resource whose URN it names, in `pulumi up`'s output, instead of as a stray stderr line.

import { toStderr } from "../runtime/runtime";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import { engineProtocol, grpc } from "./protocol";

export interface EngineLog {
  /** Sends one info message about the resource `urn`; resolves once the engine has it (or failed to take it). */
  info(urn: string, message: string): Promise<void>;
  /** Sends one warning about the whole run (no resource's URN). */
  warn(message: string): Promise<void>;
  close(): void;
}

/** A client of the engine at `address` (the plugin's argument). */
export function engineLog(address: string): EngineLog {
  const { engineGrpc, enginePb } = engineProtocol();
  const client = new engineGrpc.EngineClient(address, grpc.credentials.createInsecure());
  const send = (severity: EnginePb.LogSeverity, urn: string, message: string): Promise<void> => {
    const request = new enginePb.LogRequest().setSeverity(severity).setMessage(message).setUrn(urn);
    return new Promise((resolve) => {
      client.log(request, (err) => {
        // A notice the engine did not take must not be lost: stderr still reaches the user.
        if (err !== null) toStderr(message);
        resolve();
      });
    });
  };
  return {
    info: (urn, message) => send(enginePb.LogSeverity.INFO, urn, message),
    warn: (message) => send(enginePb.LogSeverity.WARNING, "", message),
    close() {
      client.close();
    },
  };
}
