// A small stand-in for the Pulumi engine and local backend, for running real Pulumi programs made of
// dynamic resources without the `pulumi` CLI.
//
// - The program runs under Pulumi's own Node.js language runtime (`@pulumi/pulumi/cmd/run`), started
//   with the arguments and environment the nodejs language host gives it; this module serves the
//   ResourceMonitor and Engine gRPC services it talks to.
// - Every `pulumi-nodejs:dynamic*` custom resource goes through Pulumi's own dynamic provider host
//   (`@pulumi/pulumi/cmd/dynamic-provider`), driven like the engine does: Configure once, then
//   Check -> Diff -> Create / Update / Replace / Same, Read for refresh, Delete for removals and destroy.
// - State is kept in a JSON file with secrets encrypted under a passphrase (see state.ts, secrets.ts).
//
// See README-style notes at LocalStack for what of the engine is left out.
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { spawnChild, RunLog, type Child, type ChildExit } from "./proc";
import { DynamicProviderHost, GRPC_OPTIONS, ProviderError, nameOf } from "./providerHost";
import {
    SECRET_MASK,
    UNKNOWN,
    annotateSecrets,
    applyAdditionalSecretOutputs,
    changedKeys,
    deepEqual,
    isSecret,
    maskSecrets,
    stripSecretsMap,
    toWireMap,
    type PropertyMap,
    type PropertyValue,
} from "./props";
import { PassphraseCrypter } from "./secrets";
import { STACK_TYPE, readStateFile, sortByDependencies, writeStateFile, type StateFile, type StateResource } from "./state";

export interface StackOptions {
    /** Directory holding Pulumi.yaml (runtime: nodejs) and the program (index.ts / index.js / `main`). */
    programDir: string;
    /** Defaults to `name` in Pulumi.yaml. */
    project?: string;
    stack: string;
    /** The JSON state file (created on the first run that changes anything). */
    statePath: string;
    /** Encrypts secrets in the state file. */
    passphrase: string;
    /** Stack config; keys without a namespace get the project's (`key` -> `<project>:key`). */
    config: Record<string, { value: string; secret?: boolean }>;
    /** Extra environment for the program and the provider host. */
    env?: Record<string, string>;
    /** Resource operations at once; default is the engine's: unbounded (2147483647). */
    parallel?: number;
    /** Whole-operation limit; children are killed and the run fails when it passes. Default 120 s. */
    timeoutMs?: number;
    /**
     * Also put the runtime's debug-level log messages in RunResult.log (the CLI shows them only with
     * --debug; they include raw RPC responses, secrets too). Default false.
     */
    logDebug?: boolean;
}

export type StepOp = "create" | "update" | "replace" | "same" | "delete" | "read" | "refresh-update" | "refresh-delete";

export interface Step {
    urn: string;
    type: string;
    name: string;
    op: StepOp;
    /** Top-level input keys that changed (update/replace) or output keys that changed (refresh-update). */
    diffs?: string[];
    /** Keys the provider (or replaceOnChanges) says force a replacement. */
    replaceKeys?: string[];
    error?: string;
}

export interface RunResult {
    ok: boolean;
    steps: Step[];
    /**
     * Stack outputs. Secret outputs are masked as "[secret]" (as `pulumi stack output --json` does);
     * use LocalStack.stackOutputs(true) for their values. In a preview, values not known yet are the
     * UNKNOWN sentinel string.
     */
    outputs: Record<string, unknown>;
    /** Engine diagnostics: "<severity>: [<urn>: ]<message>" for info, warning and error (not debug). */
    diagnostics: string[];
    /** Everything printed by the program, the runtime, the provider host and the engine, one tagged line each. */
    log: string;
    error?: string;
}

export { UNKNOWN, SECRET_MASK };

type Kind = "preview" | "up" | "refresh" | "destroy";

const DEFAULT_PARALLEL = 2147483647;
const DEFAULT_TIMEOUT_MS = 120_000;
const ORGANIZATION = "organization";

interface ProjectFile {
    name: string;
    main?: string;
    typescript: boolean;
    tsconfig?: string;
    nodeargs: string[];
}

/** The @pulumi/pulumi the program would load (the language host uses the program's own copy). */
function pulumiDirFor(programDir: string): string {
    let pkg: string;
    try {
        pkg = require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] });
    } catch {
        pkg = require.resolve("@pulumi/pulumi/package.json");
    }
    return path.dirname(pkg);
}

function loadProject(programDir: string, pulumiDir: string): ProjectFile {
    const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(programDir, f)).find((f) => fs.existsSync(f));
    if (!file) {
        throw new Error(`no Pulumi.yaml in ${programDir}`);
    }
    // js-yaml comes with @pulumi/pulumi.
    const yaml = require(require.resolve("js-yaml", { paths: [pulumiDir] })) as { load(text: string): unknown };
    const doc = (yaml.load(fs.readFileSync(file, "utf8")) ?? {}) as Record<string, unknown>;
    const runtime = doc["runtime"];
    const runtimeName = typeof runtime === "string" ? runtime : ((runtime as Record<string, unknown> | undefined)?.["name"] as string | undefined);
    if (runtimeName !== "nodejs") {
        throw new Error(`${file}: runtime must be nodejs (got ${JSON.stringify(runtimeName)})`);
    }
    const options = (typeof runtime === "object" && runtime !== null ? (runtime as Record<string, unknown>)["options"] : undefined) as
        | Record<string, unknown>
        | undefined;
    const name = doc["name"];
    if (typeof name !== "string" || name === "") {
        throw new Error(`${file}: missing name`);
    }
    const nodeargs = options?.["nodeargs"];
    return {
        name,
        ...(typeof doc["main"] === "string" ? { main: doc["main"] } : {}),
        typescript: options?.["typescript"] !== false,
        ...(typeof options?.["tsconfig"] === "string" ? { tsconfig: options["tsconfig"] } : {}),
        nodeargs: typeof nodeargs === "string" ? nodeargs.split(/\s+/).filter((a) => a !== "") : [],
    };
}

/** The project name in a program directory's Pulumi.yaml. */
export function projectNameOf(programDir: string): string {
    return loadProject(programDir, pulumiDirFor(programDir)).name;
}

function makeUrn(stack: string, project: string, type: string, name: string, parentUrn: string): string {
    let qualified = type;
    if (parentUrn !== "") {
        const parentType = parentUrn.split("::")[2] ?? "";
        if (parentType !== "" && parentType !== STACK_TYPE) {
            qualified = `${parentType}$${type}`;
        }
    }
    return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

function isDynamic(type: string): boolean {
    return type.startsWith("pulumi-nodejs:dynamic");
}

function fromStruct(s: structproto.Struct | undefined): PropertyMap {
    return s ? toWireMap(s.toJavaScript()) : {};
}

function toStruct(m: PropertyMap): structproto.Struct {
    return structproto.Struct.fromJavaScript(toWireMap(m));
}

function showValue(v: PropertyValue | undefined): string {
    if (v === undefined) {
        return "undefined";
    }
    if (v === UNKNOWN) {
        return "output<unknown>";
    }
    return JSON.stringify(maskSecrets(v));
}

function maskOutputs(m: PropertyMap): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(m)) {
        out[k] = maskSecrets(v);
    }
    return out;
}

/** A gRPC error the program's SDK understands. */
function rpcError(code: grpc.status, message: string): grpc.ServiceError {
    const e = new Error(message) as grpc.ServiceError;
    e.code = code;
    e.details = message;
    e.metadata = new grpc.Metadata();
    return e;
}

/** Fails the step it is thrown from with this message. */
class StepFailure extends Error {}

class Semaphore {
    private waiting: Array<() => void> = [];
    constructor(private free: number) {}
    async acquire(): Promise<() => void> {
        if (this.free > 0) {
            this.free--;
        } else {
            await new Promise<void>((resolve) => this.waiting.push(resolve));
        }
        let released = false;
        return () => {
            if (released) {
                return;
            }
            released = true;
            const next = this.waiting.shift();
            if (next) {
                next();
            } else {
                this.free++;
            }
        };
    }
}

/** One preview / up / refresh / destroy. */
class Deployment {
    readonly log = new RunLog();
    readonly diagnostics: string[] = [];
    readonly steps: Step[] = [];
    private readonly project: ProjectFile;
    private readonly pulumiDir: string;
    private readonly projectName: string;
    private readonly config: Record<string, string> = {};
    private readonly secretKeys: string[] = [];
    private readonly sem: Semaphore;
    private readonly timeoutMs: number;

    private oldState!: StateFile;
    private crypter!: PassphraseCrypter;
    /** Old resources in dependency order, secrets decrypted. */
    private oldList: StateResource[] = [];
    /** Old live resources by urn (not those waiting for deletion). */
    private olds = new Map<string, StateResource>();
    /** Resources registered by the program in this run, in registration order. */
    private news = new Map<string, StateResource>();
    /** Old resources replaced this run (create-before-delete) that still need deleting. */
    private replaced = new Set<StateResource>();
    /** Old resources deleted this run. */
    private deleted = new Set<StateResource>();
    /** Old resources refreshed this run: old -> new (null when the refresh found it gone). */
    private refreshed = new Map<StateResource, StateResource | null>();

    private failure: string | undefined;
    private failureSignal!: () => void;
    private readonly failed: Promise<void>;
    private timedOut = false;
    private deadlineSignal!: () => void;
    private readonly deadline: Promise<void>;
    private deadlineTimer: NodeJS.Timeout | undefined;
    private readonly abort = new AbortController();

    private server: grpc.Server | undefined;
    private addr = "";
    private program: Child | undefined;
    private host: Promise<DynamicProviderHost> | undefined;
    private inflight = new Set<Promise<unknown>>();
    private rootUrn = "";
    private programErrors = 0;

    constructor(
        private readonly opts: StackOptions,
        private readonly kind: Kind,
    ) {
        this.pulumiDir = pulumiDirFor(opts.programDir);
        this.project = loadProject(opts.programDir, this.pulumiDir);
        this.projectName = opts.project ?? this.project.name;
        for (const [k, v] of Object.entries(opts.config)) {
            const key = k.includes(":") ? k : `${this.projectName}:${k}`;
            this.config[key] = v.value;
            if (v.secret) {
                this.secretKeys.push(key);
            }
        }
        this.sem = new Semaphore(Math.max(1, opts.parallel ?? DEFAULT_PARALLEL));
        this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.failed = new Promise<void>((resolve) => (this.failureSignal = resolve));
        this.deadline = new Promise<void>((resolve) => (this.deadlineSignal = resolve));
    }

    private get dryRun(): boolean {
        return this.kind === "preview";
    }

    private get stackUrn(): string {
        return makeUrn(this.opts.stack, this.projectName, STACK_TYPE, `${this.projectName}-${this.opts.stack}`, "");
    }

    private engineLog(text: string): void {
        this.log.add("engine", text);
    }

    private fail(message: string): void {
        if (this.failure === undefined) {
            this.failure = message;
            this.diagnostics.push(`error: ${message}`);
            this.engineLog(`error: ${message}`);
            this.failureSignal();
        }
    }

    /** Waits for `p`, or gives up when the deadline passes. */
    private async bounded<T>(p: Promise<T>): Promise<T | undefined> {
        return Promise.race([p, this.deadline.then(() => undefined)]);
    }

    async run(): Promise<RunResult> {
        this.deadlineTimer = setTimeout(() => {
            this.timedOut = true;
            this.fail(`${this.kind} timed out after ${this.timeoutMs} ms`);
            this.abort.abort();
            this.program?.kill();
            void this.host?.then((h) => h.close(), () => undefined);
            this.deadlineSignal();
        }, this.timeoutMs);
        try {
            this.oldState = readStateFile(this.opts.statePath, this.projectName, this.opts.stack);
            this.crypter = await PassphraseCrypter.create(this.opts.passphrase, this.oldState.secretsProvider?.salt);
            this.oldList = sortByDependencies(
                this.oldState.resources.map((r) => ({ ...r, inputs: this.crypter.decryptMap(r.inputs), outputs: this.crypter.decryptMap(r.outputs) })),
            );
            for (const r of this.oldList) {
                if (!r.delete) {
                    this.olds.set(r.urn, r);
                }
            }
            await this.startServer();
            switch (this.kind) {
                case "preview":
                case "up":
                    await this.runProgram();
                    if (this.failure === undefined) {
                        const gone = this.oldList.filter((r) => r.delete || this.replaced.has(r) || !this.news.has(r.urn));
                        if (this.kind === "up") {
                            await this.deleteResources(gone);
                        } else {
                            // Preview: show the deletions the update would make.
                            for (const r of sortByDependencies(gone).reverse()) {
                                if (!r.delete && !this.replaced.has(r)) {
                                    this.addStep(r.urn, "delete");
                                }
                            }
                        }
                    }
                    break;
                case "refresh":
                    await this.refreshAll();
                    break;
                case "destroy":
                    await this.deleteResources(this.oldList);
                    break;
            }
            if (this.kind !== "preview") {
                this.saveState();
            }
        } catch (e) {
            this.fail(e instanceof Error ? e.message : String(e));
        } finally {
            clearTimeout(this.deadlineTimer);
            await this.shutdown();
        }
        return {
            ok: this.failure === undefined,
            steps: this.steps,
            outputs: this.resultOutputs(),
            diagnostics: this.diagnostics,
            log: this.log.text(),
            ...(this.failure !== undefined ? { error: this.failure } : {}),
        };
    }

    private resultOutputs(): Record<string, unknown> {
        if (this.kind === "destroy") {
            return {};
        }
        const stack = this.kind === "refresh" ? this.olds.get(this.stackUrn) : this.news.get(this.stackUrn);
        return stack ? maskOutputs(stack.outputs) : {};
    }

    private async shutdown(): Promise<void> {
        this.abort.abort();
        this.program?.kill();
        if (this.host) {
            await this.host.then(
                (h) => h.close(),
                () => undefined,
            );
        }
        this.server?.forceShutdown();
        if (this.program) {
            await Promise.race([this.program.exited, new Promise((r) => setTimeout(r, 5_000))]);
        }
    }

    // ---- state ----------------------------------------------------------------------------------

    private finalResources(): StateResource[] {
        switch (this.kind) {
            case "up": {
                const kept = this.oldList.filter((r) => {
                    if (this.deleted.has(r)) {
                        return false;
                    }
                    if (r.delete || this.replaced.has(r)) {
                        return true;
                    }
                    return !this.news.has(r.urn);
                });
                return [...this.news.values(), ...kept.map((r) => (r.delete || this.replaced.has(r) ? { ...r, delete: true } : r))];
            }
            case "refresh":
                return this.oldList.flatMap((r) => {
                    const n = this.refreshed.get(r);
                    return n === undefined ? [r] : n === null ? [] : [n];
                });
            case "destroy":
                return this.oldList.filter((r) => !this.deleted.has(r));
            default:
                return this.oldList;
        }
    }

    private saveState(): void {
        const resources = sortByDependencies(this.finalResources()).map((r) => ({
            ...r,
            inputs: this.crypter.encryptMap(r.inputs),
            outputs: this.crypter.encryptMap(r.outputs),
        }));
        if (resources.length === 0 && this.oldState.resources.length === 0 && !fs.existsSync(this.opts.statePath)) {
            return;
        }
        writeStateFile(this.opts.statePath, {
            version: 1,
            project: this.projectName,
            stack: this.opts.stack,
            secretsProvider: { type: "passphrase", salt: this.crypter.salt },
            resources,
        });
    }

    // ---- gRPC services ------------------------------------------------------------------------------

    private handler<Req, Res>(fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
        return (call, callback) => {
            const p = fn(call.request);
            p.then(
                (res) => callback(null, res),
                (err: unknown) => {
                    const se = err as Partial<grpc.ServiceError>;
                    callback(typeof se.code === "number" ? (err as grpc.ServiceError) : rpcError(grpc.status.UNKNOWN, String((err as Error)?.message ?? err)));
                },
            );
        };
    }

    private unimplemented<Req, Res>(what: string): grpc.handleUnaryCall<Req, Res> {
        return (_call, callback) => callback(rpcError(grpc.status.UNIMPLEMENTED, `${what} is not supported by the test harness engine`));
    }

    private async startServer(): Promise<void> {
        const server = new grpc.Server(GRPC_OPTIONS);
        const monitor: resrpc.IResourceMonitorServer = {
            getDeploymentInfo: this.unimplemented("GetDeploymentInfo"),
            supportsFeature: this.handler(async (req: resproto.SupportsFeatureRequest) =>
                // Secrets only: resources are then sent as their ids (what a dynamic provider gets anyway),
                // Output values as plain values or the unknown sentinel.
                new resproto.SupportsFeatureResponse().setHassupport(req.getId() === "secrets"),
            ),
            invoke: this.handler(async (req: resproto.ResourceInvokeRequest): Promise<never> => {
                throw rpcError(grpc.status.UNIMPLEMENTED, `invoke of ${req.getTok()} is not supported by the test harness engine`);
            }),
            call: this.unimplemented("Call"),
            readResource: this.handler((req: resproto.ReadResourceRequest) => this.track(this.readResource(req))),
            registerResource: this.handler((req: resproto.RegisterResourceRequest) => this.track(this.registerResource(req))),
            registerResourceOutputs: this.handler(async (req: resproto.RegisterResourceOutputsRequest) => {
                const r = this.news.get(req.getUrn());
                if (r) {
                    r.outputs = fromStruct(req.getOutputs());
                }
                return new emptyproto.Empty();
            }),
            registerStackTransform: this.unimplemented("RegisterStackTransform"),
            registerStackInvokeTransform: this.unimplemented("RegisterStackInvokeTransform"),
            registerResourceHook: this.unimplemented("RegisterResourceHook"),
            registerErrorHook: this.unimplemented("RegisterErrorHook"),
            registerPackage: this.unimplemented("RegisterPackage"),
            signalAndWaitForShutdown: this.handler(async () => {
                await this.drain();
                return new emptyproto.Empty();
            }),
        };
        const engine: engrpc.IEngineServer = {
            log: this.handler(async (req: engproto.LogRequest) => {
                const sev = ["debug", "info", "warning", "error"][req.getSeverity()] ?? "info";
                const line = `${sev}: ${req.getUrn() ? `${req.getUrn()}: ` : ""}${req.getMessage()}`;
                if (sev !== "debug") {
                    this.log.add("engine:log", line);
                    this.diagnostics.push(line);
                } else if (this.opts.logDebug) {
                    this.log.add("engine:log", line);
                }
                if (sev === "error") {
                    this.programErrors++;
                }
                return new emptyproto.Empty();
            }),
            getRootResource: this.handler(async () => new engproto.GetRootResourceResponse().setUrn(this.rootUrn)),
            setRootResource: this.handler(async (req: engproto.SetRootResourceRequest) => {
                this.rootUrn = req.getUrn();
                return new engproto.SetRootResourceResponse();
            }),
            startDebugging: this.unimplemented("StartDebugging"),
            requirePulumiVersion: this.handler(async () => new engproto.RequirePulumiVersionResponse()),
        };
        server.addService(resrpc.ResourceMonitorService, monitor as unknown as grpc.UntypedServiceImplementation);
        server.addService(engrpc.EngineService, engine as unknown as grpc.UntypedServiceImplementation);
        const port = await new Promise<number>((resolve, reject) =>
            server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
        );
        this.server = server;
        this.addr = `127.0.0.1:${port}`;
    }

    private track<T>(p: Promise<T>): Promise<T> {
        this.inflight.add(p);
        const done = (): void => {
            this.inflight.delete(p);
        };
        p.then(done, done);
        return p;
    }

    /** Waits until no step is running (or the deadline passes). */
    private async drain(): Promise<void> {
        while (this.inflight.size > 0 && !this.timedOut) {
            await this.bounded(Promise.allSettled([...this.inflight]));
        }
    }

    // ---- children -------------------------------------------------------------------------------------

    private childEnv(): NodeJS.ProcessEnv {
        return {
            ...process.env,
            ...this.opts.env,
            // As the language host does: the whole config (secrets decrypted) and which keys are secret.
            PULUMI_CONFIG: JSON.stringify(this.config),
            PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(this.secretKeys),
        };
    }

    private getHost(): Promise<DynamicProviderHost> {
        if (!this.host) {
            this.host = (async () => {
                const env: NodeJS.ProcessEnv = {
                    ...this.childEnv(),
                    PULUMI_NODEJS_ORGANIZATION: ORGANIZATION,
                    PULUMI_NODEJS_PROJECT: this.projectName,
                    PULUMI_NODEJS_STACK: this.opts.stack,
                    PULUMI_NODEJS_DRY_RUN: String(this.dryRun),
                    PULUMI_ORGANIZATION: ORGANIZATION,
                    PULUMI_PROJECT: this.projectName,
                    PULUMI_STACK: this.opts.stack,
                    PULUMI_DRY_RUN: String(this.dryRun),
                };
                const host = await DynamicProviderHost.start({
                    pulumiDir: this.pulumiDir,
                    engineAddr: this.addr,
                    cwd: this.opts.programDir,
                    env,
                    log: this.log,
                    signal: this.abort.signal,
                });
                if (this.abort.signal.aborted) {
                    await host.close();
                    throw new Error("dynamic provider host start aborted");
                }
                await host.configure(this.config);
                return host;
            })();
        }
        return this.host;
    }

    private async runProgram(): Promise<void> {
        const args = [
            ...this.project.nodeargs,
            path.join(this.pulumiDir, "cmd", "run"),
            "--monitor",
            this.addr,
            "--engine",
            this.addr,
            "--organization",
            ORGANIZATION,
            "--project",
            this.projectName,
            "--stack",
            this.opts.stack,
            "--pwd",
            this.opts.programDir,
            "--root-directory",
            this.opts.programDir,
            ...(this.dryRun ? ["--dry-run"] : []),
            "--parallel",
            String(this.opts.parallel ?? DEFAULT_PARALLEL),
            this.project.main ?? ".",
        ];
        const env: NodeJS.ProcessEnv = { ...this.childEnv() };
        if (this.project.typescript) {
            env["PULUMI_NODEJS_TYPESCRIPT"] = "true";
        }
        if (this.project.tsconfig) {
            env["PULUMI_NODEJS_TSCONFIG_PATH"] = this.project.tsconfig;
        }
        const program = spawnChild("program", process.execPath, args, { cwd: this.opts.programDir, env, log: this.log });
        this.program = program;
        const exit = await Promise.race([program.exited, this.failed.then(() => undefined), this.deadline.then(() => undefined)]);
        let code: ChildExit | undefined = exit;
        if (code === undefined) {
            // A step failed (or time ran out): let the steps in flight finish, then stop the program, as the engine does.
            await this.drain();
            program.kill();
            code = await this.bounded(program.exited);
        }
        await this.drain();
        this.engineLog(`program exited (code ${code?.code ?? "none"}${code?.signal ? `, signal ${code.signal}` : ""})`);
        if (this.failure !== undefined) {
            return;
        }
        if (code?.code !== 0) {
            const errors = this.diagnostics.filter((d) => d.startsWith("error: "));
            this.fail(errors.length > 0 ? errors.map((e) => e.slice("error: ".length)).join("\n") : `program exited with code ${code?.code ?? "none"}`);
        } else if (this.programErrors > 0) {
            this.fail(this.diagnostics.filter((d) => d.startsWith("error: ")).map((e) => e.slice("error: ".length)).join("\n"));
        }
    }

    // ---- steps -------------------------------------------------------------------------------------------

    private addStep(urn: string, op: StepOp, extra: Partial<Step> = {}): Step {
        const step: Step = { urn, type: typeFromUrn(urn), name: nameOf(urn), op, ...extra };
        this.steps.push(step);
        return step;
    }

    private stepFailed(urn: string, op: StepOp, phase: string, err: unknown, extra: Partial<Step> = {}): never {
        const message = err instanceof Error ? err.message : String(err);
        this.addStep(urn, op, { ...extra, error: message });
        this.fail(`${urn}: ${phase} failed: ${message}`);
        throw rpcError(grpc.status.UNAVAILABLE, "resource monitor shut down while waiting on step's done channel");
    }

    private async registerResource(req: resproto.RegisterResourceRequest): Promise<resproto.RegisterResourceResponse> {
        if (this.failure !== undefined) {
            throw rpcError(grpc.status.UNAVAILABLE, "resource monitor shut down");
        }
        const type = req.getType();
        let parent = req.getParent();
        if (parent === "" && type !== STACK_TYPE) {
            parent = this.rootUrn;
        }
        const urn = makeUrn(this.opts.stack, this.projectName, type, req.getName(), parent);
        if (this.news.has(urn)) {
            this.stepFailed(urn, "create", "registration", new Error(`duplicate resource URN '${urn}'; try giving it a unique name`));
        }
        const propertyDependencies: Record<string, string[]> = {};
        req.getPropertydependenciesMap().forEach((deps, key) => {
            propertyDependencies[key] = deps.getUrnsList();
        });
        const base = {
            urn,
            type,
            ...(parent !== "" ? { parent } : {}),
            dependencies: req.getDependenciesList(),
            ...(Object.keys(propertyDependencies).length > 0 ? { propertyDependencies } : {}),
        };
        const inputs = fromStruct(req.getObject());
        const resp = new resproto.RegisterResourceResponse().setUrn(urn);
        for (const [k, urns] of Object.entries(propertyDependencies)) {
            resp.getPropertydependenciesMap().set(k, new resproto.RegisterResourceResponse.PropertyDependencies().setUrnsList(urns));
        }

        if (!req.getCustom()) {
            if (req.getRemote()) {
                this.stepFailed(urn, "create", "construct", new Error("remote components are not supported by the test harness engine"));
            }
            const old = this.olds.get(urn);
            const op: StepOp = !old ? "create" : deepEqual(old.inputs, inputs) ? "same" : "update";
            this.news.set(urn, { ...base, custom: false, inputs, outputs: op === "same" && old ? old.outputs : {} });
            this.addStep(urn, op, op === "update" && old ? { diffs: changedKeys(old.inputs, inputs) } : {});
            return resp.setObject(toStruct({}));
        }

        if (!isDynamic(type)) {
            this.stepFailed(urn, "create", "registration", new Error(`resource type ${type} is not supported: the test harness engine only drives pulumi-nodejs dynamic providers`));
        }
        if (req.getImportid() !== "") {
            this.stepFailed(urn, "create", "import", new Error("import is not supported by the test harness engine"));
        }
        const aso = req.getAdditionalsecretoutputsList();
        const ignoreChanges = req.getIgnorechangesList();
        const replaceOnChanges = req.getReplaceonchangesList();
        const dbrOption = req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined;
        const retainOnDelete = req.hasRetainondelete() && req.getRetainondelete();
        const extra = {
            ...(aso.length > 0 ? { additionalSecretOutputs: aso } : {}),
            ...(retainOnDelete ? { retainOnDelete: true } : {}),
        };

        const old = this.olds.get(urn);
        const news: PropertyMap = { ...inputs };
        if (old) {
            for (const key of ignoreChanges) {
                if (key in old.inputs) {
                    news[key] = old.inputs[key] as PropertyValue;
                } else {
                    delete news[key];
                }
            }
        }

        const release = await this.sem.acquire();
        try {
            if (this.failure !== undefined) {
                throw rpcError(grpc.status.UNAVAILABLE, "resource monitor shut down");
            }
            let host: DynamicProviderHost;
            try {
                host = await this.getHost();
            } catch (e) {
                this.stepFailed(urn, old ? "update" : "create", "loading the dynamic provider host", e);
            }

            // Check
            let checked: PropertyMap;
            try {
                const res = await host.check(urn, stripSecretsMap(old?.inputs ?? {}), stripSecretsMap(news));
                if (res.failures.length > 0) {
                    throw new StepFailure(
                        res.failures
                            .map((f) =>
                                f.property !== ""
                                    ? `${type} resource '${req.getName()}': property ${f.property} value ${showValue(news[f.property])} has a problem: ${f.reason}`
                                    : `${type} resource '${req.getName()}' has a problem: ${f.reason}`,
                            )
                            .join("; "),
                    );
                }
                checked = annotateSecrets(res.inputs, news);
            } catch (e) {
                this.stepFailed(urn, old ? "update" : "create", "check", e);
            }

            // Diff
            let op: StepOp = "create";
            let diffs: string[] | undefined;
            let replaceKeys: string[] | undefined;
            let deleteBeforeReplace = false;
            if (old) {
                let d;
                try {
                    d = await host.diff(urn, old.id ?? "", stripSecretsMap(old.outputs), stripSecretsMap(checked), stripSecretsMap(old.inputs), ignoreChanges);
                } catch (e) {
                    this.stepFailed(urn, "update", "diff", e);
                }
                const changed = changedKeys(old.inputs, checked);
                const hasChanges = d.changes === "some" || (d.changes === "unknown" && changed.length > 0);
                // Which keys changed: the provider's word, else the inputs that changed, else (drift the
                // provider saw) the inputs that differ from the old outputs.
                diffs =
                    d.diffs.length > 0
                        ? d.diffs
                        : changed.length > 0
                          ? changed
                          : Object.keys(checked)
                                .filter((k) => !deepEqual(stripSecretsMap(old.outputs)[k], stripSecretsMap(checked)[k]))
                                .sort();
                const replaces = new Set(d.replaces);
                for (const key of replaceOnChanges) {
                    for (const k of diffs) {
                        if (key === "*" || k === key || k.startsWith(`${key}.`) || k.startsWith(`${key}[`)) {
                            replaces.add(k);
                        }
                    }
                }
                replaceKeys = [...replaces].sort();
                deleteBeforeReplace = dbrOption ?? d.deleteBeforeReplace;
                op = !hasChanges ? "same" : replaceKeys.length > 0 ? "replace" : "update";
            }
            const stepExtra: Partial<Step> = op === "update" || op === "replace" ? { diffs: diffs ?? [], ...(op === "replace" ? { replaceKeys: replaceKeys ?? [] } : {}) } : {};

            if (op === "same" && old) {
                this.news.set(urn, { ...base, ...extra, custom: true, ...(old.id !== undefined ? { id: old.id } : {}), inputs: checked, outputs: old.outputs });
                this.addStep(urn, "same");
                return resp.setId(old.id ?? "").setObject(toStruct(old.outputs));
            }

            if (this.dryRun) {
                // As the engine does for a provider without preview support: the planned outputs are the
                // inputs; every other output is unknown to the program.
                const outputs = applyAdditionalSecretOutputs(checked, aso);
                this.news.set(urn, { ...base, ...extra, custom: true, inputs: checked, outputs });
                this.addStep(urn, op, stepExtra);
                const id = op === "update" && old?.id !== undefined ? old.id : "";
                return resp.setId(id).setObject(toStruct(outputs));
            }

            const secretOutputs = (outs: PropertyMap): PropertyMap => applyAdditionalSecretOutputs(annotateSecrets(outs, checked), aso);
            const recordInitFailure = (e: unknown, id: string | undefined, stepOp: StepOp): void => {
                if (e instanceof ProviderError && e.initFailure) {
                    const f = e.initFailure;
                    this.news.set(urn, {
                        ...base,
                        ...extra,
                        custom: true,
                        id: f.id || id || "",
                        inputs: f.inputs ? annotateSecrets(f.inputs, checked) : checked,
                        // Keep the provider's code with the object, as the host does for a successful create,
                        // so that it can later be updated or deleted.
                        outputs: secretOutputs({ ...f.properties, ...("__provider" in checked ? { __provider: checked["__provider"] as PropertyValue } : {}) }),
                        initErrors: f.reasons,
                    });
                    if (stepOp === "replace" && old && !deleteBeforeReplace) {
                        this.replaced.add(old);
                    }
                }
            };

            if (op === "update" && old) {
                let outs: PropertyMap;
                try {
                    outs = await host.update(urn, old.id ?? "", stripSecretsMap(old.outputs), stripSecretsMap(checked), stripSecretsMap(old.inputs), ignoreChanges);
                } catch (e) {
                    recordInitFailure(e, old.id, "update");
                    this.stepFailed(urn, "update", "update", e, stepExtra);
                }
                const outputs = secretOutputs(outs);
                this.news.set(urn, { ...base, ...extra, custom: true, id: old.id ?? "", inputs: checked, outputs });
                this.addStep(urn, "update", stepExtra);
                return resp.setId(old.id ?? "").setObject(toStruct(outputs));
            }

            if (op === "replace" && old && deleteBeforeReplace) {
                try {
                    await this.deleteOne(old);
                } catch (e) {
                    this.stepFailed(urn, "replace", "delete (before replace)", e, stepExtra);
                }
            }
            let created: { id: string; properties: PropertyMap };
            try {
                created = await host.create(urn, stripSecretsMap(checked));
            } catch (e) {
                recordInitFailure(e, undefined, op);
                this.stepFailed(urn, op, op === "replace" ? "create (replacement)" : "create", e, stepExtra);
            }
            if (created.id === "") {
                this.stepFailed(urn, op, "create", new Error("provider returned an empty id"), stepExtra);
            }
            const outputs = secretOutputs(created.properties);
            this.news.set(urn, { ...base, ...extra, custom: true, id: created.id, inputs: checked, outputs });
            if (op === "replace" && old && !deleteBeforeReplace) {
                // Create-before-delete: the old object is deleted after the program finishes.
                this.replaced.add(old);
            }
            this.addStep(urn, op, stepExtra);
            return resp.setId(created.id).setObject(toStruct(outputs));
        } finally {
            release();
        }
    }

    /** `Resource.get`: read an existing object through the provider. */
    private async readResource(req: resproto.ReadResourceRequest): Promise<resproto.ReadResourceResponse> {
        if (this.failure !== undefined) {
            throw rpcError(grpc.status.UNAVAILABLE, "resource monitor shut down");
        }
        const type = req.getType();
        let parent = req.getParent();
        if (parent === "") {
            parent = this.rootUrn;
        }
        const urn = makeUrn(this.opts.stack, this.projectName, type, req.getName(), parent);
        if (!isDynamic(type)) {
            this.stepFailed(urn, "read", "read", new Error(`resource type ${type} is not supported: the test harness engine only drives pulumi-nodejs dynamic providers`));
        }
        const props = fromStruct(req.getProperties());
        const release = await this.sem.acquire();
        try {
            let res;
            try {
                const host = await this.getHost();
                res = await host.read(urn, req.getId(), stripSecretsMap(props), stripSecretsMap(props));
            } catch (e) {
                this.stepFailed(urn, "read", "read", e);
            }
            if (res.id === "") {
                this.stepFailed(urn, "read", "read", new Error(`resource '${req.getId()}' does not exist`));
            }
            const aso = req.getAdditionalsecretoutputsList();
            const outputs = applyAdditionalSecretOutputs(annotateSecrets(res.properties, props), aso);
            this.news.set(urn, {
                urn,
                type,
                custom: true,
                external: true,
                id: res.id,
                ...(parent !== "" ? { parent } : {}),
                inputs: res.inputs ? annotateSecrets(res.inputs, props) : props,
                outputs,
                dependencies: req.getDependenciesList(),
                ...(aso.length > 0 ? { additionalSecretOutputs: aso } : {}),
            });
            this.addStep(urn, "read");
            return new resproto.ReadResourceResponse().setUrn(urn).setProperties(toStruct(outputs));
        } finally {
            release();
        }
    }

    private async deleteOne(r: StateResource): Promise<void> {
        if (r.custom && !r.external && !r.retainOnDelete && r.id) {
            const host = await this.getHost();
            await host.delete(r.urn, r.id, stripSecretsMap(r.outputs), stripSecretsMap(r.inputs));
        }
        this.deleted.add(r);
    }

    /** Deletes in reverse dependency order; stops at the first failure (what is left stays in state). */
    private async deleteResources(list: StateResource[]): Promise<void> {
        const order = sortByDependencies(list).reverse();
        for (const r of order) {
            if (this.timedOut || this.failure !== undefined) {
                return;
            }
            const quiet = r.delete === true || this.replaced.has(r);
            try {
                await this.deleteOne(r);
                if (!quiet) {
                    this.addStep(r.urn, "delete");
                }
            } catch (e) {
                const message = e instanceof Error ? e.message : String(e);
                this.addStep(r.urn, "delete", { error: message });
                this.fail(`${r.urn}: delete failed: ${message}`);
                return;
            }
        }
    }

    private async refreshAll(): Promise<void> {
        for (const r of this.oldList) {
            if (this.timedOut || this.failure !== undefined) {
                return;
            }
            if (!r.custom || !isDynamic(r.type) || r.delete) {
                continue;
            }
            let res;
            try {
                const host = await this.getHost();
                res = await host.read(r.urn, r.id ?? "", stripSecretsMap(r.outputs), stripSecretsMap(r.inputs));
            } catch (e) {
                const message = e instanceof Error ? e.message : String(e);
                this.addStep(r.urn, "same", { error: message });
                this.fail(`${r.urn}: refresh failed: ${message}`);
                return;
            }
            if (res.id === "") {
                this.refreshed.set(r, null);
                this.addStep(r.urn, "refresh-delete");
                continue;
            }
            const outputs = applyAdditionalSecretOutputs(annotateSecrets(res.properties, r.outputs), r.additionalSecretOutputs ?? []);
            const inputs = res.inputs ? annotateSecrets(res.inputs, r.inputs) : r.inputs;
            const diffs = changedKeys(stripSecretsMap(r.outputs), stripSecretsMap(outputs));
            const inputsChanged = !deepEqual(stripSecretsMap(r.inputs), stripSecretsMap(inputs));
            this.refreshed.set(r, { ...r, id: res.id, inputs, outputs });
            this.addStep(r.urn, diffs.length > 0 || inputsChanged || res.id !== r.id ? "refresh-update" : "same", diffs.length > 0 ? { diffs } : {});
        }
    }
}

function typeFromUrn(urn: string): string {
    const qualified = urn.split("::")[2] ?? "";
    const parts = qualified.split("$");
    return parts[parts.length - 1] ?? qualified;
}

/**
 * A stack run by the harness engine. Each operation starts the program and/or the provider host afresh
 * and reads/writes the state file, like `pulumi preview/up/refresh/destroy` against a local backend.
 *
 * Left out of the engine: non-dynamic providers (explicit or default provider plugins), invokes and
 * calls, remote components, imports, aliases, protect, custom timeouts, deletedWith/replaceWith,
 * transforms and resource hooks, targets, continue-on-error, pending-operation journaling (state is
 * written once at the end of each operation), the default-provider entry in state, and resource
 * references (the monitor does not advertise `resourceReferences`, so resources travel as their ids,
 * which is what a dynamic provider receives anyway). Refresh does not run the program.
 */
export class LocalStack {
    private queue: Promise<unknown> = Promise.resolve();

    constructor(private readonly opts: StackOptions) {}

    /** Where this stack's state lives. */
    get statePath(): string {
        return this.opts.statePath;
    }

    preview(): Promise<RunResult> {
        return this.run("preview");
    }

    up(): Promise<RunResult> {
        return this.run("up");
    }

    refresh(): Promise<RunResult> {
        return this.run("refresh");
    }

    destroy(): Promise<RunResult> {
        return this.run("destroy");
    }

    /** The state file as stored (secret values encrypted); an empty state when there is no file yet. */
    readState(): StateFile {
        let project = this.opts.project ?? "";
        if (project === "") {
            try {
                project = projectNameOf(this.opts.programDir);
            } catch {
                // no readable Pulumi.yaml: an empty project name in an empty state
            }
        }
        return readStateFile(this.opts.statePath, project, this.opts.stack);
    }

    /** Stack outputs from the state file; secrets decrypted when `showSecrets`, else "[secret]". */
    async stackOutputs(showSecrets = false): Promise<Record<string, unknown>> {
        const state = this.readState();
        const stack = state.resources.find((r) => r.type === STACK_TYPE && !r.delete);
        if (!stack || !state.secretsProvider) {
            return {};
        }
        const crypter = await PassphraseCrypter.create(this.opts.passphrase, state.secretsProvider.salt);
        const outputs = crypter.decryptMap(stack.outputs);
        if (!showSecrets) {
            return maskOutputs(outputs);
        }
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(outputs)) {
            out[k] = isSecret(v) ? v.value : v;
        }
        return out;
    }

    private run(kind: Kind): Promise<RunResult> {
        const next = this.queue.then(() => this.runOnce(kind));
        this.queue = next.catch(() => undefined);
        return next;
    }

    private async runOnce(kind: Kind): Promise<RunResult> {
        let deployment: Deployment;
        try {
            deployment = new Deployment(this.opts, kind);
        } catch (e) {
            const message = e instanceof Error ? e.message : String(e);
            return { ok: false, steps: [], outputs: {}, diagnostics: [`error: ${message}`], log: "", error: message };
        }
        // Belt and braces: the deployment enforces its own deadline; this one only guards the harness itself.
        const limit = (this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 15_000;
        let timer: NodeJS.Timeout | undefined;
        const guard = new Promise<RunResult>((resolve) => {
            timer = setTimeout(() => {
                const message = `${kind} did not finish within ${limit} ms`;
                resolve({ ok: false, steps: deployment.steps, outputs: {}, diagnostics: [...deployment.diagnostics, `error: ${message}`], log: deployment.log.text(), error: message });
            }, limit);
        });
        try {
            return await Promise.race([deployment.run(), guard]);
        } finally {
            clearTimeout(timer);
        }
    }
}
