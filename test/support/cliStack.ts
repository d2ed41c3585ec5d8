// A directory program run by the real `pulumi` CLI as a user runs it in a terminal: a child process
// per command in the program's folder, logged in to a file backend in a temporary folder of its own
// (PULUMI_HOME too), so the user's own login and files are never touched. Unlike EngineStack (the
// Automation API with an inline program), the CLI here runs the program itself, through the
// language host it finds on PATH, which is how Pulumi YAML and `pulumi up` in a folder work.

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { pulumiCli, type EngineTool } from "../../scripts/engine/pulumiCli";
import { summarize, type RunKind, type Step } from "../../scripts/engine/stack";
import type { StackConfig } from "../../scripts/exampleStack";

/** The CLI runs the program, then its plugins; on a slow shared machine one command can take a minute. */
export const COMMAND_TIMEOUT_MS = 240_000;

export interface CliRun {
  code: number | null;
  /** stdout alone, for a command that prints JSON. */
  stdout: string;
  /** stdout and stderr together, as a user reads them (colour codes removed). */
  output: string;
}

/** A run of preview, up, refresh or destroy, with the engine's own events (`--json`). */
export interface LoggedCliRun extends CliRun {
  /** The engine's events; like the Automation API's, they carry secret values in plain text: never print them. */
  events: EngineEvent[];
  /** Our resources' steps and the diagnostics, read from the events as EngineStack reads them. */
  steps: Step[];
  diagnostics: string[];
}

export interface CliStackOptions {
  /** The folder holding Pulumi.yaml, where every command runs. */
  projectDir: string;
  /** Folders put on PATH before the CLI's own: a language host, a plugin. */
  pathFirst?: string[];
  /**
   * Where `config set` writes (`--config-file`) instead of Pulumi.<stack>.yaml beside Pulumi.yaml,
   * for a project folder in the repository. Commands that read config must be given it too.
   */
  separateConfigFile?: boolean;
  /** Environment added for the CLI and everything it starts. */
  env?: Record<string, string>;
  /** The stack's name; a fresh one by default. Each stack has a backend of its own, so names never meet. */
  stackName?: string;
  /** The secrets passphrase; this helper's own by default. */
  passphrase?: string;
}

/** Colour and style codes, which the YAML host writes into its diagnostics even under `--color never`. */
function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

export class CliStack {
  readonly root = mkdtempSync(join(tmpdir(), "alertpipe-cli-"));
  readonly name: string;
  /** Set when the stack's config lives outside the project folder; see CliStackOptions. */
  readonly configFile: string | undefined;

  private constructor(
    readonly opts: CliStackOptions,
    readonly cli: EngineTool,
  ) {
    this.name = opts.stackName ?? `cli-${process.pid}-${Date.now().toString(36)}`;
    for (const sub of ["home", "backend"]) mkdirSync(join(this.root, sub));
    this.configFile = opts.separateConfigFile === true ? join(this.root, "stack-config.yaml") : undefined;
  }

  /**
   * `pulumi login` to a file backend in the stack's temporary folder, then `pulumi stack init` with
   * the passphrase secrets provider. Fails when the CLI is missing and cannot be built: never a skip.
   */
  static async open(opts: CliStackOptions): Promise<CliStack> {
    const stack = new CliStack(opts, await pulumiCli());
    const login = await stack.run(["login", `file://${join(stack.root, "backend")}`]);
    if (login.code !== 0) throw new Error(`pulumi login failed:\n${login.output}`);
    const init = await stack.run(["stack", "init", stack.name, "--secrets-provider", "passphrase"]);
    // With a separate config file, the salt stack init writes beside Pulumi.yaml goes at once.
    if (stack.configFile !== undefined) stack.removeRepoConfigFile();
    if (init.code !== 0) throw new Error(`pulumi stack init failed:\n${init.output}`);
    return stack;
  }

  get projectDir(): string {
    return this.opts.projectDir;
  }

  /** Where `stack init` and `config set` without --config-file write this stack's config. */
  get repoConfigFile(): string {
    return join(this.projectDir, `Pulumi.${this.name}.yaml`);
  }

  /** Sets the stack's config, the secret ones with --secret (encrypted with the passphrase). */
  async setConfig(config: StackConfig): Promise<void> {
    const pairs = Object.entries(config).flatMap(([key, { value, secret }]) => [
      secret === true ? "--secret" : "--plaintext",
      `${key}=${value}`,
    ]);
    const set = await this.run(["config", "set-all", ...this.configArgs(), ...pairs]);
    if (set.code !== 0) throw new Error(`pulumi config set-all failed:\n${set.output}`);
  }

  /** `--config-file <file>` when the stack's config lives outside the project folder, else nothing. */
  configArgs(): string[] {
    return this.configFile === undefined ? [] : ["--config-file", this.configFile];
  }

  /** One CLI command for this stack, non-interactive and without colour; `env` added for this command only. */
  run(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    const fullEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.opts.env,
      ...env,
      // The folders asked for first, so the CLI runs these and not others a user may have.
      PATH: [...(this.opts.pathFirst ?? []), dirname(this.cli.path), process.env.PATH ?? ""].join(delimiter),
      PULUMI_HOME: join(this.root, "home"),
      PULUMI_CONFIG_PASSPHRASE: this.opts.passphrase ?? "alertpipe-cli-stack",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    };
    const stackArgs = args[0] === "login" || (args[0] === "stack" && args[1] === "init") ? [] : ["--stack", this.name];
    // Asynchronous on purpose: the emulator answers from this process's event loop meanwhile.
    return new Promise((resolve, reject) => {
      execFile(
        this.cli.path,
        [...args, ...stackArgs, "--non-interactive", "--color", "never"],
        { cwd: this.projectDir, env: fullEnv, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err !== null && typeof err.code !== "number") {
            // An ExecFileException is an Error; typed through Omit<…>, the linter cannot tell.
            const failure: Error = err;
            reject(failure);
          } else
            resolve({ code: err === null ? 0 : (err.code as number), stdout, output: plainText(`${stdout}${stderr}`) });
        },
      );
    });
  }

  /**
   * A command that runs the engine, with `--json`: the CLI then prints the engine's events, one JSON
   * object a line, in place of its text (anything else it prints, an indented plan, is skipped). `kind` says how to read the steps. (`pulumi up --event-log <file>`, run by hand, is
   * refused with "unknown flag" by CLI 3.248.)
   */
  async runLogged(kind: RunKind, args: string[]): Promise<LoggedCliRun> {
    const run = await this.run([...args, "--json"], { PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true" });
    const events: EngineEvent[] = [];
    let pending = "";
    for (const line of run.stdout.split("\n")) {
      pending += `${line}\n`;
      let value: unknown;
      try {
        value = JSON.parse(pending);
      } catch {
        continue;
      }
      pending = "";
      if (typeof value === "object" && value !== null && "sequence" in value) events.push(value as EngineEvent);
    }
    // `up`, `refresh` and `destroy` plan first and say so with events of their own: each part opens
    // with a prelude, and the last part is what was done.
    const lastPart = events.map((e) => e.preludeEvent !== undefined).lastIndexOf(true);
    const done = events.slice(Math.max(lastPart, 0));
    return { ...run, events: done, ...summarize(done, kind) };
  }

  /** `pulumi import <token> <name> <id>` as the import guide shows it: unprotected, no code generated. */
  import(token: string, name: string, id: string): Promise<CliRun> {
    return this.run(["import", token, name, id, "--yes", "--protect=false", "--generate-code=false"]);
  }

  /** `pulumi import --file <file>` as the adopting guide shows it: unprotected, the program written to `out`. */
  importFile(file: string, out: string): Promise<CliRun> {
    return this.run(["import", "--file", file, "--yes", "--protect=false", "--generate-code", "--out", out]);
  }

  /** The stack's outputs, secret ones in plain text (`pulumi stack output --json --show-secrets`): never print them. */
  async outputs(): Promise<Record<string, unknown>> {
    const shown = await this.run(["stack", "output", "--json", "--show-secrets"]);
    if (shown.code !== 0) throw new Error(`pulumi stack output failed:\n${shown.output}`);
    return JSON.parse(shown.stdout) as Record<string, unknown>;
  }

  /** `pulumi stack export` as a user runs it, without --show-secrets. */
  async exportText(): Promise<string> {
    const exported = await this.run(["stack", "export"]);
    if (exported.code !== 0) throw new Error(`pulumi stack export failed:\n${exported.output}`);
    return exported.output;
  }

  /** The stack's state file in the file backend (under the project's name, whatever Pulumi.yaml calls it). */
  readStateFile(): string {
    const stacks = join(this.root, "backend", ".pulumi", "stacks");
    for (const project of existsSync(stacks) ? readdirSync(stacks) : []) {
      const file = join(stacks, project, `${this.name}.json`);
      if (existsSync(file)) return readFileSync(file, "utf8");
    }
    throw new Error(`no state file for stack ${this.name} under ${stacks}`);
  }

  removeRepoConfigFile(): void {
    rmSync(this.repoConfigFile, { force: true });
  }

  /** Removes the temporary folder (home, backend, config) and any stack file beside Pulumi.yaml. */
  dispose(): void {
    this.removeRepoConfigFile();
    rmSync(this.root, { recursive: true, force: true });
  }
}
