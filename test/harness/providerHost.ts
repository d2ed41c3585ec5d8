// A client for Pulumi's own dynamic provider host (`node @pulumi/pulumi/cmd/dynamic-provider <engine>`),
// spoken to over gRPC the way the engine does. The host answers Configure with acceptSecrets=false, so
// everything sent here must already be secret-free (see props.stripSecrets); the caller re-applies
// secretness to what comes back.
import * as path from "node:path";
import * as crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { spawnChild, type Child, type RunLog } from "./proc";
import { toWireMap, type PropertyMap } from "./props";

export const GRPC_OPTIONS: grpc.ChannelOptions = {
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
};

export interface CheckFailure {
    property: string;
    reason: string;
}

export interface DiffResult {
    changes: "unknown" | "none" | "some";
    replaces: string[];
    diffs: string[];
    deleteBeforeReplace: boolean;
}

/** A provider call failed; `initFailure` is set when the object exists but did not initialize (ErrorResourceInitFailed). */
export class ProviderError extends Error {
    constructor(
        message: string,
        public readonly initFailure?: { id: string; properties: PropertyMap; inputs?: PropertyMap; reasons: string[] },
    ) {
        super(message);
        this.name = "ProviderError";
    }
}

function struct(m: PropertyMap): structproto.Struct {
    return structproto.Struct.fromJavaScript(toWireMap(m));
}

function fromStruct(s: structproto.Struct | undefined): PropertyMap {
    return s ? toWireMap(s.toJavaScript()) : {};
}

/** Reads `grpc-status-details-bin` for a pulumirpc.ErrorResourceInitFailed detail. */
function initFailureOf(err: grpc.ServiceError): ProviderError["initFailure"] {
    const raw = err.metadata?.get("grpc-status-details-bin")[0];
    if (raw === undefined) {
        return undefined;
    }
    const bytes = typeof raw === "string" ? Buffer.from(raw, "base64") : raw;
    const status = statusproto.Status.deserializeBinary(new Uint8Array(bytes));
    for (const any of status.getDetailsList()) {
        if (any.getTypeName() === "pulumirpc.ErrorResourceInitFailed") {
            const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
            return {
                id: detail.getId(),
                properties: fromStruct(detail.getProperties()),
                ...(detail.hasInputs() ? { inputs: fromStruct(detail.getInputs()) } : {}),
                reasons: detail.getReasonsList(),
            };
        }
    }
    return undefined;
}

function errorText(err: grpc.ServiceError): string {
    return err.details || err.message;
}

export class DynamicProviderHost {
    private constructor(
        private readonly child: Child,
        private readonly client: provrpc.ResourceProviderClient,
    ) {}

    /** Spawns the host from the given @pulumi/pulumi directory and waits for it to print its port. */
    static async start(opts: {
        pulumiDir: string;
        engineAddr: string;
        cwd: string;
        env: NodeJS.ProcessEnv;
        log: RunLog;
        startTimeoutMs?: number;
        /** Aborting kills the host if it has not started yet. */
        signal?: AbortSignal;
    }): Promise<DynamicProviderHost> {
        const entry = path.join(opts.pulumiDir, "cmd", "dynamic-provider");
        const child = spawnChild("provider", process.execPath, [entry, opts.engineAddr], { cwd: opts.cwd, env: opts.env, log: opts.log });
        let timer: NodeJS.Timeout | undefined;
        let onAbort: (() => void) | undefined;
        try {
            const line = await Promise.race([
                child.firstLine,
                new Promise<never>((_, reject) => {
                    timer = setTimeout(() => reject(new Error("dynamic provider host did not print its port")), opts.startTimeoutMs ?? 30_000);
                    onAbort = () => reject(new Error("dynamic provider host start aborted"));
                    if (opts.signal?.aborted) {
                        onAbort();
                    }
                    opts.signal?.addEventListener("abort", onAbort);
                }),
            ]);
            const port = Number.parseInt(line, 10);
            if (!Number.isInteger(port) || port <= 0) {
                throw new Error(`dynamic provider host printed ${JSON.stringify(line)} instead of a port`);
            }
            const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), GRPC_OPTIONS);
            return new DynamicProviderHost(child, client);
        } catch (e) {
            child.kill();
            throw e;
        } finally {
            clearTimeout(timer);
            if (onAbort) {
                opts.signal?.removeEventListener("abort", onAbort);
            }
        }
    }

    private call<Res>(invoke: (cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown): Promise<Res> {
        return new Promise<Res>((resolve, reject) => {
            invoke((err, res) => {
                if (err) {
                    reject(new ProviderError(errorText(err), initFailureOf(err)));
                } else {
                    resolve(res);
                }
            });
        });
    }

    /** Configure with the whole stack config (plain values), as the engine does for `pulumi-nodejs`. */
    async configure(config: Record<string, string>): Promise<{ acceptSecrets: boolean }> {
        const req = new provproto.ConfigureRequest();
        req.setArgs(structproto.Struct.fromJavaScript(config));
        const vars = req.getVariablesMap();
        for (const [k, v] of Object.entries(config)) {
            vars.set(k, v);
        }
        req.setAcceptsecrets(true);
        req.setAcceptresources(true);
        req.setSendsOldInputs(true);
        req.setSendsOldInputsToDelete(true);
        const res = await this.call<provproto.ConfigureResponse>((cb) => this.client.configure(req, cb));
        return { acceptSecrets: res.getAcceptsecrets() };
    }

    async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<{ inputs: PropertyMap; failures: CheckFailure[] }> {
        const req = new provproto.CheckRequest();
        req.setUrn(urn);
        req.setName(nameOf(urn));
        req.setType(typeOf(urn));
        req.setOlds(struct(olds));
        req.setNews(struct(news));
        req.setRandomseed(new Uint8Array(crypto.randomBytes(32)));
        const res = await this.call<provproto.CheckResponse>((cb) => this.client.check(req, cb));
        return {
            inputs: fromStruct(res.getInputs()),
            failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
        };
    }

    async diff(urn: string, id: string, oldOutputs: PropertyMap, news: PropertyMap, oldInputs: PropertyMap, ignoreChanges: string[]): Promise<DiffResult> {
        const req = new provproto.DiffRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setName(nameOf(urn));
        req.setType(typeOf(urn));
        req.setOlds(struct(oldOutputs));
        req.setNews(struct(news));
        req.setOldInputs(struct(oldInputs));
        req.setIgnorechangesList(ignoreChanges);
        const res = await this.call<provproto.DiffResponse>((cb) => this.client.diff(req, cb));
        const c = res.getChanges();
        const kinds = provproto.DiffResponse.DiffChanges;
        return {
            changes: c === kinds.DIFF_SOME ? "some" : c === kinds.DIFF_NONE ? "none" : "unknown",
            replaces: res.getReplacesList(),
            diffs: res.getDiffsList(),
            deleteBeforeReplace: res.getDeletebeforereplace(),
        };
    }

    async create(urn: string, properties: PropertyMap): Promise<{ id: string; properties: PropertyMap }> {
        const req = new provproto.CreateRequest();
        req.setUrn(urn);
        req.setName(nameOf(urn));
        req.setType(typeOf(urn));
        req.setProperties(struct(properties));
        req.setPreview(false);
        const res = await this.call<provproto.CreateResponse>((cb) => this.client.create(req, cb));
        return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    }

    async update(urn: string, id: string, oldOutputs: PropertyMap, news: PropertyMap, oldInputs: PropertyMap, ignoreChanges: string[]): Promise<PropertyMap> {
        const req = new provproto.UpdateRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setName(nameOf(urn));
        req.setType(typeOf(urn));
        req.setOlds(struct(oldOutputs));
        req.setNews(struct(news));
        req.setOldInputs(struct(oldInputs));
        req.setIgnorechangesList(ignoreChanges);
        req.setPreview(false);
        const res = await this.call<provproto.UpdateResponse>((cb) => this.client.update(req, cb));
        return fromStruct(res.getProperties());
    }

    async read(urn: string, id: string, outputs: PropertyMap, inputs: PropertyMap): Promise<{ id: string; properties: PropertyMap; inputs?: PropertyMap }> {
        const req = new provproto.ReadRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setName(nameOf(urn));
        req.setType(typeOf(urn));
        req.setProperties(struct(outputs));
        req.setInputs(struct(inputs));
        const res = await this.call<provproto.ReadResponse>((cb) => this.client.read(req, cb));
        return {
            id: res.getId(),
            properties: fromStruct(res.getProperties()),
            ...(res.hasInputs() ? { inputs: fromStruct(res.getInputs()) } : {}),
        };
    }

    async delete(urn: string, id: string, outputs: PropertyMap, inputs: PropertyMap): Promise<void> {
        const req = new provproto.DeleteRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setName(nameOf(urn));
        req.setType(typeOf(urn));
        req.setProperties(struct(outputs));
        req.setOldInputs(struct(inputs));
        await this.call((cb) => this.client.delete(req, cb));
    }

    async close(): Promise<void> {
        this.client.close();
        this.child.kill();
        await this.child.exited;
    }
}

/** The resource name of a URN (`urn:pulumi:stack::project::type::name`). */
export function nameOf(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

/** The (unqualified) type of a URN. */
export function typeOf(urn: string): string {
    const qualified = urn.split("::")[2] ?? "";
    const parts = qualified.split("$");
    return parts[parts.length - 1] ?? qualified;
}
