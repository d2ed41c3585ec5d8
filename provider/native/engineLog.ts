// Notices go to the engine's log, which shows each under its resource, not as a stray stderr line.

import { toStderr } from "../runtime/runtime";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as EngineGrpcPb from "@pulumi/pulumi/proto/engine_grpc_pb";
import { engineProtocol, grpc } from "./protocol";

export interface EngineLog {
  /** Resolves once the engine has it, or failed to take it. */
  info(urn: string, message: string): Promise<void>;
  /** About the whole run. */
  warn(message: string): Promise<void>;
  close(): void;
}

/** Connected at the first notice: most runs say none, and a cold start loads the engine's protocol in some 60 ms. */
export function engineLog(address: string): EngineLog {
  type Opened = { client: InstanceType<typeof EngineGrpcPb.EngineClient>; enginePb: typeof EnginePb };
  let opened: Opened | undefined;
  const open = () => {
    if (opened === undefined) {
      const { engineGrpc, enginePb } = engineProtocol();
      opened = { client: new engineGrpc.EngineClient(address, grpc.credentials.createInsecure()), enginePb };
    }
    return opened;
  };
  const send = (severity: "info" | "warning", urn: string, message: string): Promise<void> => {
    const { client, enginePb } = open();
    const level = severity === "info" ? enginePb.LogSeverity.INFO : enginePb.LogSeverity.WARNING;
    const request = new enginePb.LogRequest().setSeverity(level).setMessage(message).setUrn(urn);
    return new Promise((resolve) => {
      client.log(request, (err) => {
        // Not lost: stderr still reaches the user.
        if (err !== null) toStderr(message);
        resolve();
      });
    });
  };
  return {
    info: (urn, message) => send("info", urn, message),
    warn: (message) => send("warning", "", message),
    close() {
      opened?.client.close();
    },
  };
}
