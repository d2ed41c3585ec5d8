// Pulumi YAML programs on the real engine through the native plugin, as a YAML user runs them: a
// project folder whose Pulumi.yaml names the plugin through `plugins.providers` (./node_modules/.bin,
// where `npm install pulumi-alertpipe` links it), run by the `pulumi` CLI with the Pulumi YAML
// language host first on PATH, its `alertpipe:*` config pointing at an emulator (secrets with --secret).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { RunningEmulator } from "../../emulator";
import { pulumiYamlLanguageHost } from "../../scripts/engine/pulumiCli";
import { emulatorConfig, type StackConfig } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/packedPackage";
import type { RunKind } from "../../scripts/engine/stack";
import { CliStack } from "./cliStack";
import { afterFile, pluginFolder, type RunOutcome } from "./engine";

/** The guide a YAML user reads; its example is the program the YAML tests run. */
export const GUIDE = join("docs", "guides", "other-languages.md");

/** The Pulumi YAML example of a guide, as it stands there (the ```yaml block starting `name: <project>`). */
export function documentedYamlProgram(guidePath: string = GUIDE, project = "alertpipe-yaml"): string {
  const guide = readFileSync(join(repoRoot(), guidePath), "utf8");
  const block = new RegExp("```yaml\\n(name: " + project + "\\n[\\s\\S]*?)```").exec(guide)?.[1];
  if (block === undefined) throw new Error(`${guidePath} has no \`\`\`yaml block starting "name: ${project}"`);
  return block;
}

/** The plugin entry every program here carries, as the guide shows it. */
const PLUGINS = { providers: [{ name: "alertpipe", path: "./node_modules/.bin" }] };

/** A YAML program's Pulumi.yaml from its parts (written as JSON, which YAML reads as it is), naming the plugin. */
export function yamlProgram(program: {
  resources: Record<string, unknown>;
  config?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}): string {
  return `${JSON.stringify({ name: "alertpipe-yaml", runtime: "yaml", plugins: PLUGINS, ...program }, null, 2)}\n`;
}

/** A Pulumi.yaml in YAML itself naming the plugin and no resources: what a team adopting an estate starts from. */
export function yamlHeader(project: string): string {
  return `name: ${project}
runtime: yaml
plugins:
  providers:
    - name: alertpipe
      path: ./node_modules/.bin
`;
}

/** The CLI's words for each run, as a user types them. */
const CLI_ARGS: Record<RunKind, string[]> = {
  up: ["up", "--yes"],
  refresh: ["refresh", "--yes"],
  destroy: ["destroy", "--yes"],
  preview: ["preview"],
};

/** A run of a CLI stack, as a lifecycle sees it (the Automation API door's twin: engineOutcome). */
export async function cliOutcome(stack: CliStack, kind: RunKind): Promise<RunOutcome> {
  const r = await stack.runLogged(kind, CLI_ARGS[kind]);
  return { ok: r.code === 0, steps: r.steps, told: `${r.output}\n${r.diagnostics.join("\n")}` };
}

/** A YAML project on the real engine, against an emulator. */
export interface YamlStack {
  stack: CliStack;
  /** Replaces Pulumi.yaml: the next command runs this program. */
  write(pulumiYaml: string): void;
}

export interface YamlStackOptions {
  /** Link the plugin into ./node_modules/.bin as npm does; false for a project that has not installed it. */
  installPlugin?: boolean;
  /** Added to the config that points the provider at the emulator. */
  config?: StackConfig;
  /** false: no `alertpipe:*` config, for a program whose resources each name a provider of their own. */
  defaultProvider?: boolean;
  /** A folder whose node_modules holds the package whose plugin is linked; examples/ by default. */
  programDir?: string;
  stackName?: string;
  passphrase?: string;
  /** Environment added for the CLI and everything it starts. */
  env?: Record<string, string>;
}

/**
 * A project folder holding `pulumiYaml`, and a stack of it logged in to a temporary file backend,
 * configured for `emu` (undefined: the options' config alone); removed after the file's tests.
 * Fails when the CLI or the YAML host is missing and cannot be built: never a skip.
 */
export async function yamlStack(
  emu: Pick<RunningEmulator, "url" | "token" | "keyId" | "keySecret"> | undefined,
  pulumiYaml: string,
  options: YamlStackOptions = {},
): Promise<YamlStack> {
  const host = await pulumiYamlLanguageHost();
  const projectDir = mkdtempSync(join(tmpdir(), "alertpipe-yaml-"));
  afterFile(() => rmSync(projectDir, { recursive: true, force: true }));
  if (options.installPlugin !== false) pluginFolder(join(projectDir, "node_modules", ".bin"), options.programDir);
  const write = (text: string) => writeFileSync(join(projectDir, "Pulumi.yaml"), text);
  write(pulumiYaml);
  const stack = await CliStack.open({
    projectDir,
    pathFirst: [dirname(host.path)],
    ...(options.stackName !== undefined ? { stackName: options.stackName } : {}),
    ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
  });
  afterFile(() => stack.dispose());
  const target = options.defaultProvider === false || emu === undefined ? {} : emulatorConfig(emu);
  await stack.setConfig({ ...target, ...options.config });
  return { stack, write };
}
