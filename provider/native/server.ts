// Front door 2: Pulumi's ResourceProvider gRPC service over the resources' behaviour. It translates
// only: Structs to plain values and back (secrets wrapped), the behaviour's results to the
// protocol's answers (detailed diffs, preview outputs, import reads, check failures), its errors
// to gRPC errors, its notices to the engine's log. Every rule, request and message is the
// behaviour's, the same the dynamic shim runs.

import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import {
  configureProvider,
  CONNECTION_SETTINGS,
  warnPlainTextCredentials,
  type ConfigSource,
} from "../runtime/connection";
import { changeOf, deepEqual, type ChangeKind, type PropertyChange } from "../protocol/diff";
import { noticesTo, notify } from "../runtime/notices";
import { PACKAGE_VERSION } from "../http/userAgent";
import { engineLog, type EngineLog } from "./engineLog";
import {
  anyPb,
  emptyPb,
  grpc,
  pluginPb,
  providerGrpc,
  providerPb,
  statusPb,
  type GrpcJs,
  type ProviderPb,
  type Struct,
} from "./protocol";
import { NATIVE_RESOURCES, PACKAGE, typeOfUrn, type NativeResource } from "./resources";
import { fromStruct, toStruct } from "./values";
import { loaded } from "../resources";
import type { RawInputs, Values } from "../protocol/properties";
import { PartialFailure, UnknownFunctionError, UnknownResourceTypeError } from "../errors";

/** Loaded on the first Invoke only: a plugin that serves resources alone never loads the lookups. */
function lookupsModule(): Promise<typeof import("../lookups/run")> {
  return loaded(
    () => require("../lookups/run.js"),
    () => import("../lookups/run.js"),
  );
}

type Unary<Req, Res> = GrpcJs.handleUnaryCall<Req, Res>;

function resourceOf(urn: string): NativeResource {
  const type = typeOfUrn(urn);
  const found = NATIVE_RESOURCES.get(type);
  if (found === undefined) throw new UnknownResourceTypeError(PACKAGE, type, [...NATIVE_RESOURCES.keys()]);
  return found;
}

/** Loaded for GetSchema only: it pulls in every resource's zod schema and docs. */
function schemaModule(): Promise<typeof import("./schema")> {
  return loaded(
    () => require("./schema.js"),
    () => import("./schema.js"),
  );
}

/**
 * Engine to core: a Struct's plain values. The engine sends back what Check and the verbs returned;
 * the registry types each behaviour over ResourceDefinition, whose arguments and state are any
 * object, so each behaviour's own types stand without a cast here. Check's inputs are raw.
 */
const fromEngine = (struct: Struct | undefined): RawInputs => fromStruct(struct);

/** Core to engine: values as a Struct, the definition's always-secret outputs marked secret. */
const toEngine = (values: Values, resource: NativeResource): Struct => toStruct(values, resource.secretOutputs);

/** The gRPC error for what the behaviour threw: our message, and a half-made object kept in state. */
function grpcError(err: unknown, resource?: NativeResource): GrpcJs.ServerErrorResponse {
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof PartialFailure)) return { name: "Error", message, code: grpc.status.UNKNOWN, details: message };
  const detail = new providerPb.ErrorResourceInitFailed()
    .setId(err.id)
    .setProperties(toStruct(err.properties, resource?.secretOutputs ?? []))
    .setReasonsList(err.reasons);
  const packed = new anyPb.Any();
  packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusPb.Status().setCode(grpc.status.UNKNOWN).setMessage(message).setDetailsList([packed]);
  // The engine reads the details from this trailer, as Go's gRPC puts them there.
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { name: "Error", message, code: grpc.status.UNKNOWN, details: message, metadata };
}

function unimplemented<Req, Res>(method: string): Unary<Req, Res> {
  return (_call, callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by the ${PACKAGE} provider` });
}

const PROPERTY_DIFF_KIND: Record<ChangeKind, Record<"inPlace" | "replaces", ProviderPb.PropertyDiff.Kind>> = {
  add: { inPlace: providerPb.PropertyDiff.Kind.ADD, replaces: providerPb.PropertyDiff.Kind.ADD_REPLACE },
  delete: { inPlace: providerPb.PropertyDiff.Kind.DELETE, replaces: providerPb.PropertyDiff.Kind.DELETE_REPLACE },
  update: { inPlace: providerPb.PropertyDiff.Kind.UPDATE, replaces: providerPb.PropertyDiff.Kind.UPDATE_REPLACE },
};

function detailedDiffInto(response: ProviderPb.DiffResponse, detailed: Readonly<Record<string, PropertyChange>>): void {
  const map = response.getDetaileddiffMap();
  for (const [name, change] of Object.entries(detailed)) {
    map.set(
      name,
      new providerPb.PropertyDiff().setKind(PROPERTY_DIFF_KIND[change.kind][change.replaces ? "replaces" : "inPlace"]),
    );
  }
  response.setHasdetaileddiff(true).setDiffsList(Object.keys(detailed));
}

/** The stack's `alertpipe:*` config as connection.ts reads it; what it lacks, the environment gives there. */
function configSource(request: ProviderPb.ConfigureRequest): ConfigSource {
  const args = fromStruct(request.getArgs());
  const variables = request.getVariablesMap();
  return {
    get(key) {
      const name = key.startsWith(`${PACKAGE}:`) ? key.slice(PACKAGE.length + 1) : key;
      const value = args[name];
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return variables.get(`${PACKAGE}:config:${name}`);
    },
  };
}

export interface ProviderServerOptions {
  /** The engine's address, for its log; without one (tests), notices go where notices.ts sends them by default. */
  readonly engineAddress?: string;
}

/** The service's handlers. */
export function resourceProvider(
  options: ProviderServerOptions = {},
): ProviderGrpcPb.IResourceProviderServer & { close(): void } {
  const log: EngineLog | undefined = options.engineAddress === undefined ? undefined : engineLog(options.engineAddress);

  /** Runs one resource call with its notices shown under its URN, all of them sent before it answers. */
  async function underUrn<T>(urn: string, call: () => Promise<T>): Promise<T> {
    if (log === undefined) return call();
    const sent: Array<Promise<void>> = [];
    try {
      return await noticesTo((line) => sent.push(log.info(urn, line)), call);
    } finally {
      await Promise.all(sent);
    }
  }

  /** A handler of one resource's call: its resource found by URN, its errors answered as gRPC errors. */
  function forResource<Req extends { getUrn(): string }, Res>(
    run: (resource: NativeResource, request: Req) => Promise<Res>,
  ): Unary<Req, Res> {
    return (call, callback) => {
      let resource: NativeResource | undefined;
      void (async () => {
        resource = resourceOf(call.request.getUrn());
        const found = resource;
        return underUrn(call.request.getUrn(), () => run(found, call.request));
      })().then(
        (response) => callback(null, response),
        (err: unknown) => {
          const error = grpcError(err, resource);
          callback(error, null, error.metadata);
        },
      );
    };
  }

  function plainCall<Req, Res>(run: (request: Req) => Promise<Res>): Unary<Req, Res> {
    return (call, callback) => {
      run(call.request).then(
        (response) => callback(null, response),
        (err: unknown) => callback(grpcError(err)),
      );
    };
  }

  return {
    getPluginInfo: plainCall(async () => new pluginPb.PluginInfo().setVersion(PACKAGE_VERSION)),

    getSchema: plainCall(async () =>
      new providerPb.GetSchemaResponse().setSchema(JSON.stringify((await schemaModule()).packageSchema())),
    ),

    // Config errors are found by each resource's check, which names the config key and the
    // environment variable; the provider's own inputs are taken as they come.
    checkConfig: plainCall(async (request: ProviderPb.CheckRequest) => {
      const news = request.getNews();
      const response = new providerPb.CheckResponse();
      return news === undefined ? response : response.setInputs(news);
    }),

    diffConfig: plainCall(async (request: ProviderPb.DiffRequest) => {
      const olds = fromStruct(request.getOlds());
      const news = fromStruct(request.getNews());
      const changed = Object.keys(CONNECTION_SETTINGS).filter((name) => !deepEqual(olds[name], news[name]));
      const response = new providerPb.DiffResponse().setChanges(
        changed.length > 0
          ? providerPb.DiffResponse.DiffChanges.DIFF_SOME
          : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
      );
      // A new URL or credential changes where requests go; no object needs replacing for it.
      detailedDiffInto(
        response,
        Object.fromEntries(changed.map((name) => [name, changeOf(olds[name], news[name], false)])),
      );
      return response;
    }),

    configure: plainCall(async (request: ProviderPb.ConfigureRequest) => {
      await configureProvider({ config: configSource(request) });
      // The engine sends the config with its secrets still marked: a credential without the mark is plain text.
      const args = request.getArgs()?.toJavaScript() ?? {};
      warnPlainTextCredentials(
        (key) => typeof args[key.slice(PACKAGE.length + 1)] === "string",
        (line) => void (log === undefined ? notify(line) : log.warn(line)),
      );
      // Plain inputs (the engine re-marks secret ones), and preview calls to Create and Update.
      return new providerPb.ConfigureResponse()
        .setAcceptsecrets(false)
        .setSupportspreview(true)
        .setAcceptresources(false)
        .setAcceptoutputs(false);
    }),

    check: forResource(async (resource, request: ProviderPb.CheckRequest) => {
      const behaviour = await resource.behaviour();
      const checked = await behaviour.check(fromEngine(request.getOlds()), fromEngine(request.getNews()));
      const response = new providerPb.CheckResponse().setInputs(toEngine(checked.inputs, resource));
      if (checked.ok) return response;
      const failures = checked.failures.map((f) =>
        new providerPb.CheckFailure().setProperty(f.property).setReason(f.reason),
      );
      return response.setFailuresList(failures);
    }),

    diff: forResource(async (resource, request: ProviderPb.DiffRequest) => {
      const result = await (
        await resource.behaviour()
      ).diff(request.getId(), fromEngine(request.getOlds()), fromEngine(request.getNews()));
      const response = new providerPb.DiffResponse()
        .setChanges(
          result.changes
            ? providerPb.DiffResponse.DiffChanges.DIFF_SOME
            : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setReplacesList(result.replaces)
        .setStablesList(result.stables)
        .setDeletebeforereplace(result.deleteBeforeReplace);
      detailedDiffInto(response, result.detailedDiff);
      return response;
    }),

    create: forResource(async (resource, request: ProviderPb.CreateRequest) => {
      const args = fromEngine(request.getProperties());
      const behaviour = await resource.behaviour();
      if (request.getPreview())
        return new providerPb.CreateResponse().setProperties(toEngine(behaviour.previewCreate(args), resource));
      const created = await behaviour.create(args);
      return new providerPb.CreateResponse().setId(created.id).setProperties(toEngine(created.outputs, resource));
    }),

    read: forResource(async (resource, request: ProviderPb.ReadRequest) => {
      const stored = fromEngine(request.getProperties());
      // An import sends the id alone: no stored outputs to read with.
      const imported = Object.keys(stored).length === 0;
      const behaviour = await resource.behaviour();
      const found = imported
        ? await behaviour.readImported(request.getId())
        : await behaviour.read(request.getId(), stored);
      const response = new providerPb.ReadResponse();
      // No properties: the object is gone, and the engine drops it from state.
      if (found === undefined) return response;
      return response
        .setId(found.id)
        .setProperties(toEngine(found.outputs, resource))
        .setInputs(toEngine(found.inputs, resource));
    }),

    update: forResource(async (resource, request: ProviderPb.UpdateRequest) => {
      const olds = fromEngine(request.getOlds());
      const news = fromEngine(request.getNews());
      const behaviour = await resource.behaviour();
      const outputs = request.getPreview()
        ? behaviour.previewUpdate(request.getId(), olds, news)
        : await behaviour.update(request.getId(), olds, news);
      return new providerPb.UpdateResponse().setProperties(toEngine(outputs, resource));
    }),

    delete: forResource(async (resource, request: ProviderPb.DeleteRequest) => {
      await (await resource.behaviour()).delete(request.getId(), fromEngine(request.getProperties()));
      return new emptyPb.Empty();
    }),

    // Nothing to stop: every call ends on its own within the HTTP layer's time budget.
    cancel: plainCall(async () => new emptyPb.Empty()),

    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    // A lookup: its arguments checked before any request, its result holding no secret (lookups/run.ts).
    invoke: plainCall(async (request: ProviderPb.InvokeRequest) => {
      const lookups = await lookupsModule();
      const token = request.getTok();
      const name = token.startsWith(`${PACKAGE}:index:`) ? token.slice(`${PACKAGE}:index:`.length) : "";
      const def = lookups.lookupNamed(name);
      if (def === undefined) throw new UnknownFunctionError(PACKAGE, token, lookups.lookupTokens(PACKAGE));
      const result = await lookups.runLookup(def, fromStruct(request.getArgs()));
      return new providerPb.InvokeResponse().setReturn(toStruct(result, []));
    }),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    attach: unimplemented("Attach"),
    getMapping: unimplemented("GetMapping"),
    getMappings: unimplemented("GetMappings"),
    list: (call) =>
      call.emit("error", {
        code: grpc.status.UNIMPLEMENTED,
        details: `List is not implemented by the ${PACKAGE} provider`,
      }),

    close() {
      log?.close();
    },
  };
}

export interface RunningProvider {
  readonly port: number;
  /** Stops serving and closes the engine client. */
  close(): Promise<void>;
}

/** Serves the provider on a free loopback port; nothing off this machine can call it. */
export async function serveProvider(options: ProviderServerOptions = {}): Promise<RunningProvider> {
  // Up to the engine's own limit: a Struct of many settings or a long list is still one message.
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  const handlers = resourceProvider(options);
  server.addService(providerGrpc.ResourceProviderService, handlers);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    );
  });
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        handlers.close();
        server.tryShutdown(() => resolve());
      }),
  };
}
