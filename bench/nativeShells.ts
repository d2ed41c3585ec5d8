// The native door's references: two plugins built from our gRPC server's shell, the same gRPC,
// protobuf and Struct conversion our plugin loads (provider/native/protocol.ts, values.ts), so
// that what differs from ours is the resource code and nothing else.
// - "nothing" (`pulumi-resource-benchnothing`): answers every call from its inputs; a create (not a
//   preview) first waits shell.REFERENCE_SLEEP_ENV ms, the server latency, and sends nothing.
// - "post" (`pulumi-resource-benchpost`): what a user writes by hand: a create POSTs its inputs as
//   JSON to the alerting service with `fetch` and returns the answer; no checks, retries or pacing.
// - "paced" (`pulumi-resource-benchpaced`): the one-budget row's reference: a create of an Alert or
//   a PipeSettings calls the hand-written Cloud module installed in the bench folder
//   (bench/handWrittenCloud.ts), the same requests and pacing as that row's dynamic reference.
// - "listing" (`pulumi-resource-benchlisting`): the refresh rows' reference (issue 47,
//   bench/listingReference.ts): a create adopts the object ours made under the same name, a read
//   answers from the lists ours reads (the same requests), nothing else.
// Each is a script in the bench folder's node_modules/.bin that calls `serveShell` (benchFolder.ts).

import { setTimeout as sleep } from "node:timers/promises";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import { watchEngine } from "../provider/native/lifeline";
import {
  emptyPb,
  grpc,
  pluginPb,
  providerGrpc,
  providerPb,
  type GrpcJs,
  type ProviderPb,
} from "../provider/native/protocol";
import { fromStruct, toStruct } from "../provider/native/values";
import type { Values } from "../provider/protocol/properties";
import { LIST_PAGE_MAX } from "../provider/serviceFacts/alertRules";
import type { HandWrittenCloud } from "./handWrittenCloud";
import { ListingReads, listingEnv } from "./listingReference";
import * as shell from "./shellFacts";

type Unary<Req, Res> = GrpcJs.handleUnaryCall<Req, Res>;

function answer<Req, Res>(run: (request: Req) => Promise<Res>): Unary<Req, Res> {
  return (call, callback) => {
    run(call.request).then(
      (response) => callback(null, response),
      (err: unknown) =>
        callback({ code: grpc.status.UNKNOWN, details: err instanceof Error ? err.message : String(err) }),
    );
  };
}

function unimplemented<Req, Res>(): Unary<Req, Res> {
  return (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: "not implemented" });
}

let counter = 0;

/** The POST a user's create makes: the inputs as they are, the answer's object as the outputs. */
async function posted(inputs: Values): Promise<{ id: string; outputs: Values }> {
  const res = await fetch(`${process.env[shell.FETCH_URL_ENV] ?? ""}/api/v2/alerts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${process.env[shell.FETCH_TOKEN_ENV] ?? ""}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(inputs),
  });
  const body = (await res.json()) as { data?: Values & { id?: unknown } };
  if (!res.ok || body.data === undefined) throw new Error(`POST /api/v2/alerts answered ${res.status}`);
  return { id: String(body.data.id), outputs: { ...inputs, ...body.data } };
}

async function slept(inputs: Values): Promise<{ id: string; outputs: Values }> {
  const ms = Number(process.env[shell.REFERENCE_SLEEP_ENV] ?? 0);
  if (ms > 0) await sleep(ms);
  counter += 1;
  return { id: `shell-${process.pid}-${counter}`, outputs: inputs };
}

/** The hand-written Cloud module, from the bench folder's node_modules (this script's main is in its .bin). */
function handWrittenCloud(): HandWrittenCloud {
  return (require.main ?? module).require(shell.HAND_WRITTEN_CLOUD_PACKAGE) as HandWrittenCloud;
}

/** A create through the hand-written Cloud module, by the resource's type in its URN (`…::benchpaced:index:<Kind>::…`). */
function paced(): (inputs: Values, urn: string) => Promise<{ id: string; outputs: Values }> {
  const cloud = handWrittenCloud();
  return async (inputs, urn) => {
    const type = urn.split("::")[2] ?? "";
    const made = type.endsWith(":PipeSettings")
      ? await cloud.createPipeSettings(inputs)
      : await cloud.createAlert(inputs);
    return { id: made.id, outputs: made.outs };
  };
}

/** The list-reading reference's create: the id and outputs ours recorded under the same name. */
function adopting(reads: ListingReads): (inputs: Values) => Promise<{ id: string; outputs: Values }> {
  return async (inputs) => {
    const adopted = reads.adopt(inputs);
    return { id: adopted.id, outputs: adopted.outputs };
  };
}

/**
 * A read from the state (every shell but the list-reading one), or from the lists; no id when gone. No
 * inputs: the engine keeps the state's own, the least a read can answer (ours answers none when unchanged).
 */
function reader(reads: ListingReads | undefined) {
  return async (request: ProviderPb.ReadRequest) => {
    const props = fromStruct(request.getProperties());
    if (reads === undefined) return new providerPb.ReadResponse().setId(request.getId()).setProperties(toStruct(props));
    const found = await reads.read(request.getId(), props);
    if (found === undefined) return new providerPb.ReadResponse();
    return new providerPb.ReadResponse().setId(found.id).setProperties(toStruct(found.props));
  };
}

function handlers(kind: shell.ShellKind): ProviderGrpcPb.IResourceProviderServer {
  const reads = kind === "listing" ? new ListingReads(listingEnv(), LIST_PAGE_MAX) : undefined;
  const create: (inputs: Values, urn: string) => Promise<{ id: string; outputs: Values }> =
    reads !== undefined ? adopting(reads) : kind === "post" ? posted : kind === "paced" ? paced() : slept;
  return {
    getPluginInfo: answer(async () => new pluginPb.PluginInfo().setVersion("1.0.0")),
    getSchema: unimplemented(),
    checkConfig: answer(async (request: ProviderPb.CheckRequest) => {
      const news = request.getNews();
      const response = new providerPb.CheckResponse();
      return news === undefined ? response : response.setInputs(news);
    }),
    diffConfig: answer(async () =>
      new providerPb.DiffResponse().setChanges(providerPb.DiffResponse.DiffChanges.DIFF_NONE),
    ),
    configure: answer(async () =>
      new providerPb.ConfigureResponse()
        .setAcceptsecrets(false)
        .setSupportspreview(true)
        .setAcceptresources(false)
        .setAcceptoutputs(false),
    ),
    check: answer(async (request: ProviderPb.CheckRequest) =>
      new providerPb.CheckResponse().setInputs(toStruct(fromStruct(request.getNews()))),
    ),
    // Unknown: the engine compares the inputs itself, as it does for a dynamic provider without a diff.
    diff: answer(async () => new providerPb.DiffResponse()),
    create: answer(async (request: ProviderPb.CreateRequest) => {
      const inputs = fromStruct(request.getProperties());
      if (request.getPreview()) return new providerPb.CreateResponse().setProperties(toStruct(inputs));
      const created = await create(inputs, request.getUrn());
      return new providerPb.CreateResponse().setId(created.id).setProperties(toStruct(created.outputs));
    }),
    read: answer(reader(reads)),
    update: answer(async (request: ProviderPb.UpdateRequest) =>
      new providerPb.UpdateResponse().setProperties(toStruct(fromStruct(request.getNews()))),
    ),
    delete: answer(async () => new emptyPb.Empty()),
    cancel: answer(async () => new emptyPb.Empty()),
    handshake: unimplemented(),
    parameterize: unimplemented(),
    invoke: unimplemented(),
    call: unimplemented(),
    construct: unimplemented(),
    attach: unimplemented(),
    getMapping: unimplemented(),
    getMappings: unimplemented(),
    list: (call) => call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "not implemented" }),
  };
}

/** The shell's main: serves on loopback, prints its port, and exits with the engine, as our plugin's main does. */
export function serveShell(kind: shell.ShellKind): void {
  const engineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
  const parentPid = process.ppid;
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(providerGrpc.ResourceProviderService, handlers(kind));
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err !== null) {
      process.stderr.write(`pulumi-resource-${shell.SHELL_PACKAGES[kind]}: cannot serve: ${err.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
    watchEngine({
      parentPid,
      ...(engineAddress === undefined ? {} : { engineAddress }),
      onGone: () => process.exit(0),
    });
  });
}
