// The LocalStack API driven by the real `pulumi` CLI against a local (file://) backend, for machines
// where the CLI is installed. Flags follow the CLI reference and what the Automation API passes:
//   stack select --stack s | stack init s --secrets-provider passphrase
//   config set <key> --stack s --secret|--plaintext --non-interactive -- <value>
//   preview | up/refresh/destroy --yes --skip-preview, with --non-interactive --color never --event-log <file>
//   stack output --json, stack export
// The backend is chosen with PULUMI_BACKEND_URL (what `pulumi login file://<dir>` records) so the
// user's own login is left alone; secrets use PULUMI_CONFIG_PASSPHRASE.
//
// Differences from LocalStack: preview outputs are {} (the CLI reports none); stack config is written
// with `pulumi config set` into the program's Pulumi.<stack>.yaml and keys set by earlier runs stay;
// readState() converts `pulumi stack export` (secrets stay encrypted) and leaves out provider entries.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { projectNameOf, type RunResult, type StackOptions, type Step, type StepOp } from "./engine";
import type { StateFile, StateResource } from "./state";

export interface CliStackOptions extends StackOptions {
    /** The file:// backend directory; defaults to the directory of statePath. */
    backendDir?: string;
}

let cliOnPath: boolean | undefined;

/** Whether a working `pulumi` CLI is on PATH. */
export function pulumiCliOnPath(): boolean {
    if (cliOnPath === undefined) {
        const r = spawnSync("pulumi", ["version"], { stdio: "ignore", timeout: 30_000 });
        cliOnPath = r.error === undefined && r.status === 0;
    }
    return cliOnPath;
}

interface EventMetadata {
    op: string;
    urn: string;
    type: string;
    old?: { outputs?: unknown } | null;
    new?: { outputs?: unknown } | null;
    keys?: string[];
    diffs?: string[];
}

interface EngineEvent {
    diagnosticEvent?: { urn?: string; message: string; severity: string; ephemeral?: boolean };
    resourcePreEvent?: { metadata: EventMetadata };
    resOutputsEvent?: { metadata: EventMetadata };
    resOpFailedEvent?: { metadata: EventMetadata };
}

/** Strips the CLI's `<{%reset%}>`-style color directives. */
function plain(text: string): string {
    return text.replace(/<\{%[^%]*%\}>/g, "").trimEnd();
}

function stepOf(m: EventMetadata): StepOp | undefined {
    switch (m.op) {
        case "same":
        case "create":
        case "update":
        case "delete":
        case "replace":
        case "read":
            return m.op;
        case "import":
            return "create";
        case "refresh":
            if (m.new === undefined || m.new === null) {
                return "refresh-delete";
            }
            return (m.diffs?.length ?? 0) > 0 || JSON.stringify(m.old?.outputs ?? {}) !== JSON.stringify(m.new.outputs ?? {}) ? "refresh-update" : "same";
        default:
            // create-replacement, delete-replaced, discard-*, remove-pending-replace: parts of a replace.
            return undefined;
    }
}

export class CliStack {
    private readonly backendDir: string;
    private readonly project: string;
    private queue: Promise<unknown> = Promise.resolve();

    constructor(private readonly opts: CliStackOptions) {
        this.backendDir = path.resolve(opts.backendDir ?? path.dirname(opts.statePath));
        this.project = opts.project ?? projectNameOf(opts.programDir);
    }

    /** Where the file backend keeps this stack's state. */
    get statePath(): string {
        return path.join(this.backendDir, ".pulumi", "stacks", this.project, `${this.opts.stack}.json`);
    }

    preview(): Promise<RunResult> {
        return this.run("preview", []);
    }

    up(): Promise<RunResult> {
        return this.run("up", ["--yes", "--skip-preview"]);
    }

    refresh(): Promise<RunResult> {
        return this.run("refresh", ["--yes", "--skip-preview"]);
    }

    destroy(): Promise<RunResult> {
        return this.run("destroy", ["--yes", "--skip-preview"]);
    }

    /** `pulumi stack export` in the harness's StateFile shape (secrets stay encrypted). */
    readState(): StateFile {
        const r = spawnSync("pulumi", ["stack", "export", "--stack", this.opts.stack, "--non-interactive"], {
            cwd: this.opts.programDir,
            env: this.env(),
            encoding: "utf8",
            timeout: this.opts.timeoutMs ?? 120_000,
            maxBuffer: 256 * 1024 * 1024,
        });
        if (r.status !== 0) {
            return { version: 1, project: this.project, stack: this.opts.stack, resources: [] };
        }
        const exported = JSON.parse(r.stdout) as { deployment?: { resources?: Array<Record<string, unknown>> } };
        const resources: StateResource[] = (exported.deployment?.resources ?? [])
            .filter((res) => !String(res["type"]).startsWith("pulumi:providers:"))
            .map((res) => ({
                urn: String(res["urn"]),
                type: String(res["type"]),
                custom: res["custom"] === true,
                ...(typeof res["id"] === "string" && res["id"] !== "" ? { id: res["id"] } : {}),
                ...(typeof res["parent"] === "string" && res["parent"] !== "" ? { parent: res["parent"] } : {}),
                inputs: (res["inputs"] ?? {}) as StateResource["inputs"],
                outputs: (res["outputs"] ?? {}) as StateResource["outputs"],
                dependencies: (res["dependencies"] ?? []) as string[],
                ...(res["propertyDependencies"] ? { propertyDependencies: res["propertyDependencies"] as Record<string, string[]> } : {}),
                ...(res["additionalSecretOutputs"] ? { additionalSecretOutputs: res["additionalSecretOutputs"] as string[] } : {}),
                ...(res["retainOnDelete"] === true ? { retainOnDelete: true } : {}),
                ...(res["external"] === true ? { external: true } : {}),
                ...(res["delete"] === true ? { delete: true } : {}),
                ...(res["initErrors"] ? { initErrors: res["initErrors"] as string[] } : {}),
            }));
        return { version: 1, project: this.project, stack: this.opts.stack, resources };
    }

    private env(): NodeJS.ProcessEnv {
        return {
            ...process.env,
            ...this.opts.env,
            PULUMI_BACKEND_URL: `file://${this.backendDir}`,
            PULUMI_CONFIG_PASSPHRASE: this.opts.passphrase,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
        };
    }

    /** Runs one CLI command; never rejects. */
    private exec(args: string[], log: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; timedOut: boolean }> {
        return new Promise((resolve) => {
            const child = spawn("pulumi", args, { cwd: this.opts.programDir, env: this.env(), stdio: ["ignore", "pipe", "pipe"], detached: true });
            let stdout = "";
            let timedOut = false;
            const label = `pulumi ${args[0] ?? ""}`;
            child.stdout.setEncoding("utf8").on("data", (d: string) => {
                stdout += d;
                log.push(...d.split(/\r?\n/).filter((l) => l !== "").map((l) => `[${label}:stdout] ${l}`));
            });
            child.stderr.setEncoding("utf8").on("data", (d: string) => {
                log.push(...d.split(/\r?\n/).filter((l) => l !== "").map((l) => `[${label}:stderr] ${l}`));
            });
            const timer = setTimeout(() => {
                timedOut = true;
                try {
                    process.kill(-(child.pid ?? 0), "SIGKILL");
                } catch {
                    child.kill("SIGKILL");
                }
            }, timeoutMs);
            child.on("error", (err) => {
                clearTimeout(timer);
                log.push(`[${label}:error] ${String(err)}`);
                resolve({ code: null, stdout, timedOut });
            });
            child.on("close", (code) => {
                clearTimeout(timer);
                resolve({ code, stdout, timedOut });
            });
        });
    }

    private run(kind: "preview" | "up" | "refresh" | "destroy", extra: string[]): Promise<RunResult> {
        const next = this.queue.then(() => this.runOnce(kind, extra));
        this.queue = next.catch(() => undefined);
        return next;
    }

    private async runOnce(kind: "preview" | "up" | "refresh" | "destroy", extra: string[]): Promise<RunResult> {
        const log: string[] = [];
        const deadline = Date.now() + (this.opts.timeoutMs ?? 120_000);
        const left = (): number => Math.max(1_000, deadline - Date.now());
        const failed = (error: string): RunResult => ({ ok: false, steps: [], outputs: {}, diagnostics: [`error: ${error}`], log: log.join("\n"), error });
        fs.mkdirSync(this.backendDir, { recursive: true });
        const stack = this.opts.stack;

        if ((await this.exec(["stack", "select", "--stack", stack, "--non-interactive"], log, left())).code !== 0) {
            const init = await this.exec(["stack", "init", stack, "--secrets-provider", "passphrase", "--non-interactive"], log, left());
            if (init.code !== 0) {
                return failed(`pulumi stack init ${stack} failed`);
            }
        }
        for (const [key, { value, secret }] of Object.entries(this.opts.config)) {
            const set = await this.exec(
                ["config", "set", key, "--stack", stack, secret ? "--secret" : "--plaintext", "--non-interactive", "--", value],
                log,
                left(),
            );
            if (set.code !== 0) {
                return failed(`pulumi config set ${key} failed`);
            }
        }

        const eventLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "alertpipe-cli-")), "events.jsonl");
        const args = [kind, "--stack", stack, "--non-interactive", "--color", "never", "--event-log", eventLog, ...extra];
        if (this.opts.parallel !== undefined) {
            args.push("--parallel", String(this.opts.parallel));
        }
        const res = await this.exec(args, log, left());

        const steps = new Map<string, Step>();
        const diagnostics: string[] = [];
        const errorsByUrn = new Map<string, string>();
        let events: EngineEvent[] = [];
        try {
            events = fs
                .readFileSync(eventLog, "utf8")
                .split("\n")
                .filter((l) => l.trim() !== "")
                .map((l) => JSON.parse(l) as EngineEvent);
        } catch {
            // no event log: the command failed before the engine started
        } finally {
            fs.rmSync(path.dirname(eventLog), { recursive: true, force: true });
        }
        for (const e of events) {
            const d = e.diagnosticEvent;
            if (d && !d.ephemeral && d.severity !== "debug") {
                const severity = d.severity === "info#err" ? "info" : d.severity;
                const line = `${severity}: ${d.urn ? `${d.urn}: ` : ""}${plain(d.message)}`;
                diagnostics.push(line);
                log.push(`[engine] ${line}`);
                if (severity === "error" && d.urn) {
                    errorsByUrn.set(d.urn, plain(d.message));
                }
            }
            const m = e.resOutputsEvent?.metadata ?? e.resourcePreEvent?.metadata;
            if (m && !m.type.startsWith("pulumi:providers:")) {
                const op = stepOf(m);
                if (op !== undefined && (e.resOutputsEvent || !steps.has(m.urn))) {
                    steps.set(m.urn, {
                        urn: m.urn,
                        type: m.type,
                        name: m.urn.split("::").slice(3).join("::"),
                        op,
                        ...(m.diffs && m.diffs.length > 0 ? { diffs: m.diffs } : {}),
                        ...(op === "replace" && m.keys ? { replaceKeys: m.keys } : {}),
                    });
                }
            }
            const f = e.resOpFailedEvent?.metadata;
            if (f) {
                const step = steps.get(f.urn) ?? { urn: f.urn, type: f.type, name: f.urn.split("::").slice(3).join("::"), op: stepOf(f) ?? "create" };
                steps.set(f.urn, step);
            }
        }
        for (const [urn, message] of errorsByUrn) {
            const step = steps.get(urn);
            if (step) {
                step.error = message;
            }
        }

        let outputs: Record<string, unknown> = {};
        if (kind !== "preview" && kind !== "destroy") {
            const out = await this.exec(["stack", "output", "--json", "--stack", stack, "--non-interactive"], [], left());
            if (out.code === 0) {
                try {
                    outputs = JSON.parse(out.stdout) as Record<string, unknown>;
                } catch {
                    outputs = {};
                }
            }
        }

        const ok = res.code === 0 && !res.timedOut;
        const errors = diagnostics.filter((d) => d.startsWith("error: ")).map((d) => d.slice("error: ".length));
        return {
            ok,
            steps: [...steps.values()],
            outputs,
            diagnostics,
            log: log.join("\n"),
            ...(ok
                ? {}
                : {
                      error: res.timedOut
                          ? `pulumi ${kind} timed out after ${this.opts.timeoutMs ?? 120_000} ms`
                          : errors.length > 0
                            ? errors.join("\n")
                            : `pulumi ${kind} exited with code ${res.code ?? "none"}`,
                  }),
        };
    }
}
