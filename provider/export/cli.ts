// `alertpipe export`'s command line: flags in, the import document out, the report on stderr.

import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { AlertpipeError, UsageError } from "../errors";
import { CONNECTION_SETTINGS, configure, type ConnectionSettingName } from "../runtime/connection";
import { EXPORT_TYPES, isExportType, type ExportType } from "./filters";
import { exportEstate, reportLines, type ExportResult } from "./export";
import { programOf } from "./program";
import { typescriptProgram } from "./typescriptProgram";
import { yamlProgram } from "./yamlProgram";

/** The exit codes, as --help states them. */
export const EXIT = { written: 0, failed: 1, usage: 2 } as const;

export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** What `--format` writes: the import document, or a program adopting every object itself. */
const FORMATS = {
  import: (result: ExportResult) => `${JSON.stringify(result.document, null, 2)}\n`,
  yaml: (result: ExportResult) => yamlProgram(programOf(result.adopted)),
  typescript: (result: ExportResult) => typescriptProgram(programOf(result.adopted)),
} as const;
type Format = keyof typeof FORMATS;
const isFormat = (text: string): text is Format => Object.hasOwn(FORMATS, text);

/** A setting's flag: its name in kebab case, e.g. --cloud-key-secret. */
function flagOf(name: ConnectionSettingName): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const SETTING_NAMES = Object.keys(CONNECTION_SETTINGS) as ConnectionSettingName[];

export function helpText(): string {
  // One column for the variables, two spaces past the longest flag.
  const flags = SETTING_NAMES.map((n) => `  --${flagOf(n)} <value>`);
  const width = Math.max(...flags.map((f) => f.length)) + 2;
  const settings = SETTING_NAMES.map((n, i) => {
    const s = CONNECTION_SETTINGS[n];
    return `${(flags[i] ?? "").padEnd(width)}${s.envVar}: ${s.description}${s.secret ? " (secret)" : ""}`;
  });
  return `Usage: alertpipe export [options]

Lists the alerts, webhooks, saved searches, dashboards, sources, connections, API keys, pipe
settings, ClickPipes and ClickPipes CDC capacities on the service and writes
either a file for \`pulumi import --file <file>\` ({"resources": [{"type", "name", "id"}, ...]}) or
a program that adopts every object itself on its first \`pulumi up\`. It only reads (GET requests,
paced as the provider paces them); it never writes to the service.

What to export:
  --type <type>                   ${EXPORT_TYPES.join(", ")}; repeat for several. Default: every
                                  type whose scope is given (alerts always; keys with
                                  --organization; settings with --pipe; ClickPipes and CDC
                                  capacity with --service).
  --organization <id>             an organization whose API keys to export (repeat for several)
  --pipe <org>/<service>/<pipe>   a pipe whose settings to export (repeat for several); settings
                                  have no list, so each pipe is read by itself
  --service <org>/<service>       a ClickHouse Cloud service whose ClickPipes (one GET of their
                                  list) and CDC capacity (one GET) to export (repeat for several)
  --name <glob>                   keep only the objects whose name matches (* any run, ? one
                                  character, every other character itself, case aside), and
                                  with them what they refer to (webhooks, saved searches,
                                  dashboards, sources, connections), whatever those are named;
                                  repeat to keep any of several
  --format <format>               import (default): the file for pulumi import --file;
                                  yaml: a Pulumi YAML program (Pulumi.yaml) for the plugin, each
                                  object adopted with the import option, references by name
                                  (a tile alert's tileId as its dashboard's tileIds["<tile>"]);
                                  typescript: a program (index.ts) for the dynamic classes, each
                                  object adopted by importId, references as variables
  --out <file>                    write the file there instead of stdout

Names: each object's own name as a camelCase identifier ("High CPU" becomes highCpu), with the
last characters of its id added where it has no name or shares it with another object
(alert3f9c2a, deployer8b1d0e); the same objects always get the same names.

Left out, and said on stderr: objects the resources cannot hold as they are (the check a program's
preview runs refuses them; the reason is given), and lists the service does not have (404), which
do not stop the export. API keys come without their keyId and keySecret: the service shows a
secret once. Connections come without their password, which the service never returns: a
program adopts them without it (sending nothing) and says how to supply it. ClickPipes come
without their source's credentials, which the service never returns: each is a secret config value
of the program, which the report names (set each before the first up). The TypeScript program
leaves ClickPipes commented out (their class has no importId). Secrets are never written.

Connection (a flag, else the environment variable, as the provider reads its stack config):
${settings.join("\n")}
  Credentials are better given in the environment than as flags, which other users may see.

Exit codes:
  0  the file was written (the report on stderr says what was skipped or not listed)
  1  nothing was written: a setting is missing or malformed, or a request was refused or failed
  2  usage: an unknown command, flag or type, or a malformed --pipe or --service

Then, with --format yaml or typescript: pulumi up (its first run adopts every object, writing
nothing). With the import file: pulumi import --file <file> --protect=false --generate-code
--out <program file>, whose code generation needs every object's name unique across all types
(see docs/guides/adopting.md in the pulumi-alertpipe package).
`;
}

interface Parsed {
  readonly types: ExportType[];
  readonly organizations: string[];
  readonly pipes: string[];
  readonly services: string[];
  readonly names: string[];
  readonly out: string | undefined;
  readonly format: Format;
  readonly settings: Map<string, string>;
}

function parse(args: readonly string[]): Parsed | "help" {
  const settingOptions = Object.fromEntries(SETTING_NAMES.map((n) => [flagOf(n), { type: "string" as const }]));
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: "boolean", short: "h" },
        type: { type: "string", multiple: true },
        organization: { type: "string", multiple: true },
        pipe: { type: "string", multiple: true },
        service: { type: "string", multiple: true },
        name: { type: "string", multiple: true },
        out: { type: "string" },
        format: { type: "string" },
        ...settingOptions,
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help === true) return "help";
  const types = (values.type ?? []).flatMap((t) => t.split(",")).map((t) => t.trim());
  for (const t of types)
    if (!isExportType(t)) throw new UsageError(`--type ${t}: the types are ${EXPORT_TYPES.join(", ")}`);
  const format = values.format ?? "import";
  if (!isFormat(format)) throw new UsageError(`--format ${format}: the formats are ${Object.keys(FORMATS).join(", ")}`);
  const organizations = (values.organization ?? []).map((o) => o.trim().toLowerCase());
  if (organizations.some((o) => o === "" || o.includes("/")))
    throw new UsageError("--organization takes an organization id (a uuid), without /");
  const pipes = (values.pipe ?? []).map((p) => p.trim().toLowerCase());
  for (const p of pipes) {
    const parts = p.split("/");
    if (parts.length !== 3 || parts.some((part) => part.trim() === ""))
      throw new UsageError(`--pipe ${p}: give <organizationId>/<serviceId>/<pipeId>`);
  }
  const services = (values.service ?? []).map((p) => p.trim().toLowerCase());
  for (const p of services) {
    const parts = p.split("/");
    if (parts.length !== 2 || parts.some((part) => part.trim() === ""))
      throw new UsageError(`--service ${p}: give <organizationId>/<serviceId>`);
  }
  const explicit = types as ExportType[];
  for (const t of ["ClickPipe", "ClickPipeCdcInfrastructure"] as const)
    if (explicit.includes(t) && services.length === 0)
      throw new UsageError(`--type ${t} needs --service <organizationId>/<serviceId>: it is listed per service`);
  if (explicit.includes("ApiKey") && organizations.length === 0)
    throw new UsageError("--type ApiKey needs --organization <id>: keys are listed per organization");
  if (explicit.includes("PipeSettings") && pipes.length === 0)
    throw new UsageError(
      "--type PipeSettings needs --pipe <organizationId>/<serviceId>/<pipeId>: settings have no list",
    );
  const settings = new Map<string, string>();
  const given = values as Record<string, unknown>;
  for (const n of SETTING_NAMES) {
    const v = given[flagOf(n)];
    if (typeof v === "string") settings.set(CONNECTION_SETTINGS[n].configKey, v);
  }
  return {
    types: explicit.length > 0 ? [...new Set(explicit)] : [...EXPORT_TYPES],
    organizations: [...new Set(organizations)],
    pipes: [...new Set(pipes)],
    services: [...new Set(services)],
    names: values.name ?? [],
    out: values.out,
    format,
    settings,
  };
}

/** Runs `alertpipe <args>`, writing only through `io` and --out. */
export async function runCli(args: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = args;
  if (command === "--help" || command === "-h" || command === "help") {
    io.out(helpText());
    return EXIT.written;
  }
  if (command !== "export") {
    const usage = new UsageError(command === undefined ? "no command given" : `unknown command "${command}"`);
    io.err(`alertpipe: ${usage.message}\n\n${helpText()}`);
    return EXIT.usage;
  }
  let parsed: Parsed | "help";
  try {
    parsed = parse(rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`alertpipe export: ${err.message}\nSee alertpipe export --help.\n`);
    return EXIT.usage;
  }
  if (parsed === "help") {
    io.out(helpText());
    return EXIT.written;
  }
  const { settings } = parsed;
  // The flags are this run's stack config, read before the environment.
  configure({ get: (key) => settings.get(key) });
  const started = Date.now();
  try {
    const result = await exportEstate(parsed);
    const text = FORMATS[parsed.format](result);
    if (parsed.out === undefined) io.out(text);
    else writeFileSync(parsed.out, text);
    for (const line of reportLines(result, parsed.format === "import" ? "import" : "program"))
      io.err(`alertpipe export: ${line}\n`);
    const where = parsed.out === undefined ? "stdout" : parsed.out;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const wired = parsed.format === "import" ? "" : `, ${programOf(result.adopted).references} references wired`;
    io.err(
      `alertpipe export: ${result.document.resources.length} resources${wired} written to ${where} in ${seconds} s\n`,
    );
    return EXIT.written;
  } catch (err) {
    // Ours never carry a credential.
    const words = err instanceof AlertpipeError ? err.message : AlertpipeError.detailOf(err);
    io.err(`alertpipe export: nothing written: ${words}\n`);
    return EXIT.failed;
  }
}
