// Front door 2 translates only; every rule, request and message is the behaviour's, as for the shim.

import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import {
  configureProvider,
  CONNECTION_SETTINGS,
  warnPlainTextCredentials,
  type ConfigSource,
} from "../runtime/connection";
import { changeOf, deepEqual, type ChangeKind, type PropertyChange } from "../protocol/diff";
import { noticesTo, notify, runNoticesTo, type NoticeWriter } from "../runtime/notices";
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
import { carriedAs, fromStruct, toStruct } from "./values";
import { loaded } from "../resources";
import type { RawInputs, Values } from "../protocol/properties";
import { InternalError, PartialFailure, UnknownFunctionError, UnknownResourceTypeError } from "../errors";

/** On the first Invoke only: a plugin serving resources alone never loads the lookups. */
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

/** For GetSchema only: it pulls in every definition. */
function schemaModule(): Promise<typeof import("./schema")> {
  return loaded(
    () => require("./schema.js"),
    () => import("./schema.js"),
  );
}

/**
 * The engine sends back what Check and the verbs returned, and a registry behaviour's arguments and
 * state are any object, so no cast is needed here. Check's inputs are raw.
 */
const fromEngine = (struct: Struct | undefined): RawInputs => fromStruct(struct);

/** The definition's always-secret outputs marked secret. */
const toEngine = (values: Values, resource: NativeResource): Struct => toStruct(values, resource.secretOutputs);

/**
 * What a refresh mostly finds: nothing changed, so the engine's own Struct goes back rather than one
 * built again (a thousand reads' worth of garbage). Not where a secret must be marked on the way out.
 */
function unlessSame(values: Values, sent: Values, struct: Struct | undefined, resource: NativeResource): Struct {
  const marksSecrets = resource.secretOutputs.some((name) => values[name] !== undefined);
  return struct !== undefined && !marksSecrets && carriedAs(values, sent) ? struct : toEngine(values, resource);
}

/** A half-made object is kept in state. */
function grpcError(err: unknown, resource?: NativeResource): GrpcJs.ServerErrorResponse {
  // The engine prints only the message: every error leaves this door starting with its code.
  const message = InternalError.of(err).message;
  if (!(err instanceof PartialFailure)) return { name: "Error", message, code: grpc.status.UNKNOWN, details: message };
  const detail = new providerPb.ErrorResourceInitFailed()
    .setId(err.id)
    .setProperties(toStruct(err.properties, resource?.secretOutputs ?? []))
    .setReasonsList(err.reasons);
  const packed = new anyPb.Any();
  packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusPb.Status().setCode(grpc.status.UNKNOWN).setMessage(message).setDetailsList([packed]);
  // The engine reads details from this trailer, where Go's gRPC puts them.
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
  // The top-level properties changed, whatever paths name them.
  const properties = new Set(Object.keys(detailed).map((path) => /^[^.[]+/.exec(path)?.[0] ?? path));
  response.setHasdetaileddiff(true).setDiffsList([...properties]);
}

/** What it lacks, the environment gives. Each key found once: every call asks for every setting. */
function configSource(request: ProviderPb.ConfigureRequest): ConfigSource {
  const args = fromStruct(request.getArgs());
  const variables = request.getVariablesMap();
  const found = new Map<string, string | undefined>();
  const find = (key: string): string | undefined => {
    const name = key.startsWith(`${PACKAGE}:`) ? key.slice(PACKAGE.length + 1) : key;
    const value = args[name];
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    return variables.get(`${PACKAGE}:config:${name}`);
  };
  return {
    get(key) {
      if (!found.has(key)) found.set(key, find(key));
      return found.get(key);
    },
  };
}

export interface ProviderServerOptions {
  /** Without one (tests), notices go to the default writer. */
  readonly engineAddress?: string;
}

export function resourceProvider(
  options: ProviderServerOptions = {},
): ProviderGrpcPb.IResourceProviderServer & { close(): void } {
  const log: EngineLog | undefined = options.engineAddress === undefined ? undefined : engineLog(options.engineAddress);

  /** Every notice is sent before the call answers. */
  async function underUrn<T>(urn: string, call: () => Promise<T>): Promise<T> {
    if (log === undefined) return call();
    const sent: Array<Promise<void>> = [];
    try {
      return await noticesTo((line) => sent.push(log.info(urn, line)), call);
    } finally {
      await Promise.all(sent);
    }
  }

  // Notices of calls without a store go to the engine's log for the whole run; stderr would be a hidden debug line.
  const runWide = new Set<Promise<void>>();
  const runNotices: NoticeWriter | undefined =
    log === undefined
      ? undefined
      : (line) => {
          const sending = log.info("", line);
          runWide.add(sending);
          void sending.then(() => runWide.delete(sending));
        };
  const endRunNotices = runNotices === undefined ? undefined : runNoticesTo(runNotices);

  /** Sent before the call answers, as under a URN; another call's notice may wait with it. */
  async function forTheRun<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } finally {
      if (runWide.size > 0) await Promise.all(runWide);
    }
  }

  /**
   * `underItsUrn` false for Read and Diff: a call's own notice writer is an AsyncLocalStorage, whose
   * hook then runs for every promise of the process (a thousand-resource refresh 4 % slower). What they
   * say is shown for the whole run, each line naming its object.
   */
  function forResource<Req extends { getUrn(): string }, Res>(
    run: (resource: NativeResource, request: Req) => Promise<Res>,
    underItsUrn = true,
  ): Unary<Req, Res> {
    return (call, callback) => {
      let resource: NativeResource | undefined;
      void (async () => {
        resource = resourceOf(call.request.getUrn());
        const found = resource;
        if (!underItsUrn) return forTheRun(() => run(found, call.request));
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

    // Each resource's check names a bad config key and its variable; here inputs pass as they come.
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
      // The engine keeps secrets marked here: a credential without the mark is plain text.
      const args = request.getArgs()?.toJavaScript() ?? {};
      warnPlainTextCredentials(
        (key) => typeof args[key.slice(PACKAGE.length + 1)] === "string",
        (line) => void (log === undefined ? notify(line) : log.warn(line)),
      );
      // Plain inputs (the engine re-marks secret ones); Create and Update also serve previews.
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
    }, false),

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
      // An import sends the id alone.
      const imported = Object.keys(stored).length === 0;
      const behaviour = await resource.behaviour();
      const found = imported
        ? await behaviour.readImported(request.getId())
        : await behaviour.read(request.getId(), stored);
      const response = new providerPb.ReadResponse();
      // Gone: the engine drops it from state.
      if (found === undefined) return response;
      response.setId(found.id).setProperties(unlessSame(found.outputs, stored, request.getProperties(), resource));
      // None when unchanged: the engine keeps the state's own, and neither side encodes them again.
      const inputs = request.getInputs();
      if (inputs !== undefined && carriedAs(found.inputs, fromEngine(inputs))) return response;
      return response.setInputs(toEngine(found.inputs, resource));
    }, false),

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

    // Every call ends within the HTTP layer's time budget.
    cancel: plainCall(async () => new emptyPb.Empty()),

    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    // Arguments checked before any request; the result holds no secret.
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
      endRunNotices?.();
      log?.close();
    },
  };
}

export interface RunningProvider {
  readonly port: number;
  close(): Promise<void>;
}

/** Loopback only: nothing off this machine can call it. */
export async function serveProvider(options: ProviderServerOptions = {}): Promise<RunningProvider> {
  // The engine's own limit: many settings or a long list is still one message.
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
