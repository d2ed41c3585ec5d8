// Notices go to the engine's log, which shows each under its resource, not as a stray stderr line.

import { toStderr } from "../runtime/runtime";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import { engineProtocol, grpc } from "./protocol";

export interface EngineLog {
  /** Resolves once the engine has it, or failed to take it. */
  info(urn: string, message: string): Promise<void>;
  /** About the whole run. */
  warn(message: string): Promise<void>;
  close(): void;
}

export function engineLog(address: string): EngineLog {
  const { engineGrpc, enginePb } = engineProtocol();
  const client = new engineGrpc.EngineClient(address, grpc.credentials.createInsecure());
  const send = (severity: EnginePb.LogSeverity, urn: string, message: string): Promise<void> => {
    const request = new enginePb.LogRequest().setSeverity(severity).setMessage(message).setUrn(urn);
    return new Promise((resolve) => {
      client.log(request, (err) => {
        // Not lost: stderr still reaches the user.
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
