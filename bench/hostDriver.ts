// Drives one of Pulumi's own dynamic-provider hosts (`node @pulumi/pulumi/cmd/dynamic-provider`)
// over gRPC, as the engine does, for the figures of the host itself (see hostScenarios.ts): the
// engine gives no hook at the instant it spawns the host, which the cold start is timed from, nor a
// way to call one operation alone and count the requests it sent.

import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Props } from "./inputs";
import { RunLog, spawnChild, type Child } from "./proc";

const GRPC_OPTIONS: grpc.ChannelOptions = {
  "grpc.max_receive_message_length": 400 * 1024 * 1024,
  "grpc.max_send_message_length": 400 * 1024 * 1024,
};

// The engine address is a required argument of the host; it never dials it unless a provider logs
// through the engine, which ours does not.
const UNUSED_ENGINE_ADDRESS = "127.0.0.1:1";

function toStruct(props: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(
    JSON.parse(JSON.stringify(props)) as Record<string, structproto.JavaScriptValue>,
  );
}

function fromStruct(s: structproto.Struct | undefined): Props {
  return s ? s.toJavaScript() : {};
}

export function urnOf(type: string, name: string): string {
  return `urn:pulumi:bench::alertpipe-bench::${type}::${name}`;
}

interface Named {
  setUrn(v: string): unknown;
  setName(v: string): unknown;
  setType(v: string): unknown;
}

function address<T extends Named>(req: T, urn: string): T {
  const parts = urn.split("::");
  req.setUrn(urn);
  req.setName(parts.slice(3).join("::"));
  req.setType(parts[2] ?? "");
  return req;
}

export class HostDriver {
  private constructor(
    private readonly child: Child,
    private readonly client: provrpc.ResourceProviderClient,
    /** performance.now() just before the host process was spawned. */
    readonly spawnedAt: number,
    /** performance.now() when it printed its port. */
    readonly portAt: number,
    readonly log: RunLog,
  ) {}

  /** Spawns the host with `cwd` as its working directory (the program folder) and connects. */
  static async start(cwd: string, env: NodeJS.ProcessEnv = {}): Promise<HostDriver> {
    const pulumiDir = dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [cwd] }));
    return HostDriver.spawn(cwd, "host", [join(pulumiDir, "cmd", "dynamic-provider"), UNUSED_ENGINE_ADDRESS], {
      PULUMI_NODEJS_PROJECT: "alertpipe-bench",
      PULUMI_NODEJS_STACK: "bench",
      ...env,
    });
  }

  /**
   * Spawns our native plugin as installed in `cwd` (its bin, `node …/pulumi-resource-alertpipe`, as
   * the engine starts it) and connects; it speaks the same ResourceProvider protocol as the host.
   */
  static async startPlugin(cwd: string): Promise<HostDriver> {
    const main = join(cwd, "node_modules", "pulumi-alertpipe", "dist", "provider", "native", "main.js");
    return HostDriver.spawn(cwd, "plugin", [main, UNUSED_ENGINE_ADDRESS], {});
  }

  private static async spawn(cwd: string, name: string, args: string[], env: NodeJS.ProcessEnv): Promise<HostDriver> {
    const log = new RunLog();
    const spawnedAt = performance.now();
    const child = spawnChild(name, process.execPath, args, { cwd, env: { ...process.env, ...env }, log });
    try {
      const line = await Promise.race([
        child.firstLine,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`the ${name} printed no port within 30 s`)), 30_000).unref(),
        ),
      ]);
      const portAt = performance.now();
      const port = Number.parseInt(line, 10);
      if (!Number.isInteger(port) || port <= 0)
        throw new Error(`the ${name} printed ${JSON.stringify(line)} instead of a port`);
      const client = new provrpc.ResourceProviderClient(
        `127.0.0.1:${port}`,
        grpc.credentials.createInsecure(),
        GRPC_OPTIONS,
      );
      return new HostDriver(child, client, spawnedAt, portAt, log);
    } catch (err) {
      child.kill();
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n${log.text()}`, { cause: err });
    }
  }

  private call<Res>(invoke: (cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      invoke((err, res) => (err ? reject(new Error(err.details || err.message)) : resolve(res)));
    });
  }

  /** Configure with the stack config, as the engine does before the first resource call. */
  async configure(config: Record<string, string>): Promise<void> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(toStruct(config));
    for (const [k, v] of Object.entries(config)) req.getVariablesMap().set(k, v);
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    await this.call<provproto.ConfigureResponse>((cb) => this.client.configure(req, cb));
  }

  /** Check; throws when the provider reports failures, so a benchmark never measures refused inputs. */
  async check(urn: string, olds: Props, news: Props): Promise<Props> {
    const req = address(new provproto.CheckRequest(), urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setRandomseed(new Uint8Array(randomBytes(32)));
    const res = await this.call<provproto.CheckResponse>((cb) => this.client.check(req, cb));
    const failures = res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    if (failures.length > 0) throw new Error(`check of ${urn} failed: ${failures.join("; ")}`);
    return fromStruct(res.getInputs());
  }

  async diff(
    urn: string,
    id: string,
    oldOutputs: Props,
    news: Props,
  ): Promise<{ changes: boolean; replaces: string[] }> {
    const req = address(new provproto.DiffRequest(), urn);
    req.setId(id);
    req.setOlds(toStruct(oldOutputs));
    req.setNews(toStruct(news));
    const res = await this.call<provproto.DiffResponse>((cb) => this.client.diff(req, cb));
    return {
      changes: res.getChanges() === provproto.DiffResponse.DiffChanges.DIFF_SOME,
      replaces: res.getReplacesList(),
    };
  }

  async create(urn: string, inputs: Props): Promise<{ id: string; outputs: Props }> {
    const req = address(new provproto.CreateRequest(), urn);
    req.setProperties(toStruct(inputs));
    const res = await this.call<provproto.CreateResponse>((cb) => this.client.create(req, cb));
    return { id: res.getId(), outputs: fromStruct(res.getProperties()) };
  }

  async update(urn: string, id: string, oldOutputs: Props, news: Props): Promise<Props> {
    const req = address(new provproto.UpdateRequest(), urn);
    req.setId(id);
    req.setOlds(toStruct(oldOutputs));
    req.setNews(toStruct(news));
    const res = await this.call<provproto.UpdateResponse>((cb) => this.client.update(req, cb));
    return fromStruct(res.getProperties());
  }

  async read(
    urn: string,
    id: string,
    outputs: Props,
    inputs: Props,
  ): Promise<{ id: string; outputs: Props; inputs: Props | undefined }> {
    const req = address(new provproto.ReadRequest(), urn);
    req.setId(id);
    req.setProperties(toStruct(outputs));
    req.setInputs(toStruct(inputs));
    const res = await this.call<provproto.ReadResponse>((cb) => this.client.read(req, cb));
    return {
      id: res.getId(),
      outputs: fromStruct(res.getProperties()),
      inputs: res.hasInputs() ? fromStruct(res.getInputs()) : undefined,
    };
  }

  async delete(urn: string, id: string, outputs: Props): Promise<void> {
    const req = address(new provproto.DeleteRequest(), urn);
    req.setId(id);
    req.setProperties(toStruct(outputs));
    await this.call((cb) => this.client.delete(req, cb));
  }

  async close(): Promise<void> {
    this.client.close();
    this.child.kill();
    await this.child.exited;
  }
}
