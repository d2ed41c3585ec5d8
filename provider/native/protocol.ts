// @pulumi/pulumi's stubs serialize only messages of its own @grpc/grpc-js and google-protobuf, so
// both are required from where it sits (they are not our dependencies).

import { createRequire } from "node:module";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as AnyPb from "google-protobuf/google/protobuf/any_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import type * as EngineGrpcPb from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/provider_pb"));

export const grpc = fromPulumi("@grpc/grpc-js") as typeof GrpcJs;
export const anyPb = fromPulumi("google-protobuf/google/protobuf/any_pb") as typeof AnyPb;
export const emptyPb = fromPulumi("google-protobuf/google/protobuf/empty_pb") as typeof EmptyPb;
export const structPb = fromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof StructPb;
export const providerPb = fromPulumi("./provider_pb") as typeof ProviderPb;
export const providerGrpc = fromPulumi("./provider_grpc_pb") as typeof ProviderGrpcPb;
export const pluginPb = fromPulumi("./plugin_pb") as typeof PluginPb;
export const statusPb = fromPulumi("./status_pb") as typeof StatusPb;

/** Loaded only when there is an engine to talk to. */
export function engineProtocol(): { engineGrpc: typeof EngineGrpcPb; enginePb: typeof EnginePb } {
  return {
    engineGrpc: fromPulumi("./engine_grpc_pb") as typeof EngineGrpcPb,
    enginePb: fromPulumi("./engine_pb") as typeof EnginePb,
  };
}

export type Struct = StructPb.Struct;
export type { GrpcJs, ProviderPb };
