// Test support: the native plugin's gRPC server in this process, on a loopback port, and a client
// stub from the same `provider_grpc_pb` the engine's messages are made of. Each call is a promise;
// Structs go in and come out as plain values, secrets still wrapped, as the engine would see them.

import { afterAll, beforeAll } from "vitest";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";
import { grpc, providerGrpc, providerPb, statusPb, structPb, emptyPb } from "../../provider/native/protocol";
import { serveProvider, type RunningProvider } from "../../provider/native/server";
import type { RunningEmulator } from "../../emulator";

/** The engine's marker of a secret value, and the unknown of preview. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

export type Props = Record<string, unknown>;

export const struct = (props: Props) =>
  structPb.Struct.fromJavaScript(props as Parameters<typeof structPb.Struct.fromJavaScript>[0]);

export const TOKENS = {
  alert: "alertpipe:index:Alert",
  apiKey: "alertpipe:index:ApiKey",
  pipeSettings: "alertpipe:index:PipeSettings",
  webhook: "alertpipe:index:Webhook",
  savedSearch: "alertpipe:index:SavedSearch",
  connection: "alertpipe:index:Connection",
  source: "alertpipe:index:Source",
  dashboard: "alertpipe:index:Dashboard",
  clickPipeCdcInfrastructure: "alertpipe:index:ClickPipeCdcInfrastructure",
  clickPipe: "alertpipe:index:ClickPipe",
} as const;

/** The stack config that points the plugin at `emu`, credentials as the engine sends secret config, pacing off. */
export function pluginConfig(emu: RunningEmulator): Props {
  return {
    alertingUrl: emu.url,
    alertingToken: secret(emu.token),
    alertingRateLimit: "off",
    cloudUrl: emu.url,
    cloudKeyId: emu.keyId,
    cloudKeySecret: secret(emu.keySecret),
    cloudRateLimit: "off",
  };
}

export const urnOf = (type: string, name: string) => `urn:pulumi:test::native::${type}::${name}`;

type Client = ProviderGrpcPb.ResourceProviderClient;
type Callback<Res> = (err: GrpcJs.ServiceError | null, res: Res) => void;

export interface NativeProvider {
  readonly client: Client;
  call<Req, Res>(method: (req: Req, cb: Callback<Res>) => unknown, request: Req): Promise<Res>;
}

/** The server for this file's tests, and a client of it; `engineAddress` names a (fake) engine for its log. */
export function nativeProviderPerFile(engineAddress?: () => string): NativeProvider {
  let running: RunningProvider | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    running = await serveProvider(engineAddress === undefined ? {} : { engineAddress: engineAddress() });
    client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${running.port}`, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    await running?.close();
  });
  const current = (): Client => {
    if (client === undefined) throw new Error("nativeProviderPerFile: the server runs only while the file's tests do");
    return client;
  };
  return {
    get client() {
      return current();
    },
    call<Req, Res>(method: (req: Req, cb: Callback<Res>) => unknown, request: Req): Promise<Res> {
      return new Promise((resolve, reject) => {
        method(request, (err: GrpcJs.ServiceError | null, res: Res) => (err === null ? resolve(res) : reject(err)));
      });
    },
  };
}

/** The calls a test makes, each with plain values in and out. */
export function nativeCalls(p: NativeProvider) {
  const c = () => p.client;
  return {
    async configure(args: Props, variables: Record<string, string> = {}) {
      const req = new providerPb.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true);
      for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
      return (
        await p.call<ProviderPb.ConfigureRequest, ProviderPb.ConfigureResponse>((r, cb) => c().configure(r, cb), req)
      ).toObject();
    },
    async check(type: string, news: Props, olds: Props = {}) {
      const req = new providerPb.CheckRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setOlds(struct(olds))
        .setNews(struct(news));
      const res = await p.call<ProviderPb.CheckRequest, ProviderPb.CheckResponse>((r, cb) => c().check(r, cb), req);
      return {
        inputs: res.getInputs()?.toJavaScript() ?? {},
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(type: string, id: string, olds: Props, news: Props) {
      const req = new providerPb.DiffRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setId(id)
        .setOlds(struct(olds))
        .setNews(struct(news));
      const res = await p.call<ProviderPb.DiffRequest, ProviderPb.DiffResponse>((r, cb) => c().diff(r, cb), req);
      const kinds = Object.fromEntries(Object.entries(providerPb.PropertyDiff.Kind).map(([name, n]) => [n, name]));
      const detailed: Record<string, string> = {};
      res
        .getDetaileddiffMap()
        .forEach((v: ProviderPb.PropertyDiff, k: string) => (detailed[k] = kinds[v.getKind()] ?? "?"));
      return {
        changes: res.getChanges(),
        replaces: res.getReplacesList(),
        diffs: res.getDiffsList(),
        hasDetailedDiff: res.getHasdetaileddiff(),
        detailed,
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },
    async create(type: string, props: Props, preview = false) {
      const req = new providerPb.CreateRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setProperties(struct(props))
        .setPreview(preview);
      const res = await p.call<ProviderPb.CreateRequest, ProviderPb.CreateResponse>((r, cb) => c().create(r, cb), req);
      return { id: res.getId(), props: res.getProperties()?.toJavaScript() ?? {} };
    },
    async read(type: string, id: string, props: Props = {}, inputs: Props = {}) {
      const req = new providerPb.ReadRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setId(id)
        .setProperties(struct(props))
        .setInputs(struct(inputs));
      const res = await p.call<ProviderPb.ReadRequest, ProviderPb.ReadResponse>((r, cb) => c().read(r, cb), req);
      const found = res.getId() !== "";
      return {
        id: res.getId(),
        props: res.getProperties()?.toJavaScript() ?? {},
        // As the engine stores them: a found object answered without inputs keeps the state's own.
        inputs: res.getInputs()?.toJavaScript() ?? (found ? inputs : {}),
        inputsAnswered: res.hasInputs(),
      };
    },
    async update(type: string, id: string, olds: Props, news: Props, preview = false) {
      const req = new providerPb.UpdateRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setId(id)
        .setOlds(struct(olds))
        .setNews(struct(news))
        .setPreview(preview);
      const res = await p.call<ProviderPb.UpdateRequest, ProviderPb.UpdateResponse>((r, cb) => c().update(r, cb), req);
      return res.getProperties()?.toJavaScript() ?? {};
    },
    async delete(type: string, id: string, props: Props) {
      const req = new providerPb.DeleteRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setId(id)
        .setProperties(struct(props));
      await p.call<ProviderPb.DeleteRequest, unknown>((r, cb) => c().delete(r, cb), req);
    },
    async schema() {
      const res = await p.call<ProviderPb.GetSchemaRequest, ProviderPb.GetSchemaResponse>(
        (r, cb) => c().getSchema(r, cb),
        new providerPb.GetSchemaRequest(),
      );
      return JSON.parse(res.getSchema()) as Record<string, unknown>;
    },
    /** A function's result, as the engine's Invoke gets it back. */
    async invoke(token: string, args: Props) {
      const req = new providerPb.InvokeRequest().setTok(token).setArgs(struct(args));
      const res = await p.call<ProviderPb.InvokeRequest, ProviderPb.InvokeResponse>((r, cb) => c().invoke(r, cb), req);
      return (res.getReturn()?.toJavaScript() ?? {}) as Props;
    },
    async pluginInfo() {
      return (
        await p.call<InstanceType<typeof emptyPb.Empty>, PluginPb.PluginInfo>(
          (r, cb) => c().getPluginInfo(r, cb),
          new emptyPb.Empty(),
        )
      ).getVersion();
    },
  };
}

/** The ErrorResourceInitFailed an error carries (a half-made object the engine keeps), if any. */
export function initFailure(err: GrpcJs.ServiceError): { id: string; properties: Props } | undefined {
  const [bin] = err.metadata.get("grpc-status-details-bin");
  if (bin === undefined) return undefined;
  const status = statusPb.Status.deserializeBinary(typeof bin === "string" ? Buffer.from(bin) : new Uint8Array(bin));
  const [any] = status.getDetailsList();
  const detail = any?.unpack(
    (b) => providerPb.ErrorResourceInitFailed.deserializeBinary(b),
    "pulumirpc.ErrorResourceInitFailed",
  );
  return detail === undefined || detail === null
    ? undefined
    : { id: detail.getId(), properties: detail.getProperties()?.toJavaScript() ?? {} };
}

/** The gRPC error a call failed with; fails the test when the call succeeded. */
export async function rejection(p: Promise<unknown>): Promise<GrpcJs.ServiceError> {
  try {
    await p;
  } catch (err) {
    return err as GrpcJs.ServiceError;
  }
  throw new Error("the call succeeded");
}
