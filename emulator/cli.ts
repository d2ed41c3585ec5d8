#!/usr/bin/env node
// `alertpipe-emulator`: runs the emulator until SIGINT/SIGTERM/SIGHUP or until the processes that
// started it exit (lifeline.ts); with --keep-running, until SIGINT/SIGTERM alone. The first stdout
// line is fixed (`alertpipe-emulator listening on URL`) so scripts can wait for it and read the URL
// from it; `--pid-file` is the other way to wait, and to stop it.

import { renameSync, rmSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  DEFAULT_RATE_LIMITS,
  parseRateLimit,
  rateLimitText,
  type RateLimit,
} from "../provider/serviceFacts/rateLimits";
import {
  DEFAULT_CREDENTIALS,
  customRoleId,
  isLoopbackHost,
  startEmulator,
  type CustomRoleSeed,
  type EmulatorOptions,
  type RandomFaults,
} from "./index";
import { watchStarters } from "./lifeline";

const USAGE = `usage: alertpipe-emulator [options]

  --port N                       port to listen on; 0 picks a free one (default 4100)
  --host H                       address to bind (default 127.0.0.1); any other needs --token, --key-id
                                 and --key-secret, as the defaults below are published
  --token T                      area A bearer token (default ${DEFAULT_CREDENTIALS.token})
  --key-id K                     area B key ID (default ${DEFAULT_CREDENTIALS.keyId})
  --key-secret S                 area B key secret (default ${DEFAULT_CREDENTIALS.keySecret})
  --data FILE                    keep state in FILE across restarts (default: in memory only)
  --cloud-rate-limit R/S|off     area B limit per credential (default ${rateLimitText(DEFAULT_RATE_LIMITS.cloud)})
  --alerting-rate-limit R/S|off  area A limit per token (default ${rateLimitText(DEFAULT_RATE_LIMITS.alerting)})
  --mode contract|2026           area A as the contract has it (default), or as HyperDX's
                                 external API answers in 2026 (saved_search, teamId, ...)
  --cloud-dialect contract|clickhouse
                                 area B as the contract has it (default), or as ClickHouse Cloud's API
                                 (pipe settings at /clickpipes/, named clickhouse_*); --mode still
                                 governs area A
  --custom-role ORG:NAME         seed area B's organization ORG (a uuid) with a custom role NAME, beside
                                 the three system roles; repeat for more (its uuid is printed below)
  --latency-ms N                 delay added before every answer (default 0)
  --fail-first N                 answer the first N requests 503 (default 0)
  --random-faults SEED:RATE      fault each write with probability RATE (0-1), one of: 503 before the
                                 change, cut, 500 or an answer 1.5 s late after it; seeded (default off)
  --pid-file FILE                write this process's id to FILE once it listens; removed on exit
                                 (stop it with: kill $(cat FILE))
  --keep-running                 keep serving after the shell that started it ends or its terminal
                                 closes (a SIGHUP); needs --pid-file, to stop it with kill $(cat FILE)
  --quiet                        do not print a line per request
  --help                         show this text
`;

const DEFAULT_PORT = 4100;

class UsageError extends Error {}

function wholeNumber(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (/^-\d+(\.\d+)?$/.test(raw))
    throw new UsageError(`${flag} cannot be negative: it takes a whole number, 0 or more, got "${raw}"`);
  if (!/^\d+$/.test(raw)) throw new UsageError(`${flag} must be a whole number, 0 or more, got "${raw}"`);
  return Number(raw);
}

/** Options whose value may look like a flag (a negative number), which parseArgs would refuse as ambiguous. */
const NUMERIC_FLAGS = new Set(["--port", "--latency-ms", "--fail-first"]);

/** `--latency-ms -5` as `--latency-ms=-5`, so the number reaches our own check and its words. */
function joinNegativeValues(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (NUMERIC_FLAGS.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * A failure to read or write the data file, naming that file: the emulator writes a temporary file
 * beside it and renames it over, so the system's own error names the temporary file.
 */
function dataFileError(file: string, err: unknown): Error {
  const code = typeof err === "object" && err !== null ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === undefined) return err instanceof Error ? err : new Error(String(err));
  const why: Record<string, string> = {
    ENOENT: "its folder does not exist",
    ENOTDIR: "a part of its path is not a folder",
    EACCES: "no permission to write in its folder",
    EPERM: "no permission to write in its folder",
    EROFS: "its folder is on a read-only file system",
    EISDIR: "it is a folder",
    ENOSPC: "the disk is full",
  };
  return new Error(`cannot use the data file ${file}: ${why[code] ?? code}`);
}

/** `SEED:RATE`, e.g. `42:0.3`: the seed a whole number, the rate from 0 to 1. */
function randomFaults(raw: string | undefined): RandomFaults | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+):(\d+(?:\.\d+)?)$/.exec(raw);
  const seed = Number(m?.[1]);
  const rate = Number(m?.[2]);
  if (m === null || seed > 0xffffffff || rate > 1)
    throw new UsageError(
      `--random-faults must look like SEED:RATE, a whole-number seed and a rate from 0 to 1 (e.g. 42:0.3), got "${raw}"`,
    );
  return { seed, rate };
}

/** `ORG:NAME`, the organization's uuid and the role's name (which may hold colons). */
function customRole(raw: string): CustomRoleSeed {
  const colon = raw.indexOf(":");
  const organizationId = raw.slice(0, colon);
  const name = raw.slice(colon + 1);
  if (colon < 0 || !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(organizationId) || name.trim() === "")
    throw new UsageError(
      `--custom-role must look like ORG:NAME, an organization uuid and a role name (e.g. ${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}:Auditor), got "${raw}"`,
    );
  return { organizationId, name };
}

function rateLimit(flag: string, raw: string | undefined): RateLimit | false | undefined {
  if (raw === undefined) return undefined;
  const limit = parseRateLimit(raw);
  if (limit === undefined) throw new UsageError(`${flag} must look like 10/10 (requests/seconds) or off, got "${raw}"`);
  return limit === "off" ? false : limit;
}

function describeLimit(limit: RateLimit | false): string {
  return limit === false ? "off" : `${limit.requests} requests per ${limit.perSeconds} s`;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string" },
        host: { type: "string" },
        token: { type: "string" },
        "key-id": { type: "string" },
        "key-secret": { type: "string" },
        data: { type: "string" },
        "cloud-rate-limit": { type: "string" },
        "alerting-rate-limit": { type: "string" },
        "latency-ms": { type: "string" },
        "fail-first": { type: "string" },
        "random-faults": { type: "string" },
        mode: { type: "string" },
        "cloud-dialect": { type: "string" },
        "custom-role": { type: "string", multiple: true },
        "pid-file": { type: "string" },
        "keep-running": { type: "boolean" },
        quiet: { type: "boolean" },
        help: { type: "boolean" },
      },
      args: joinNegativeValues(process.argv.slice(2)),
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }

  const cloudLimit = rateLimit("--cloud-rate-limit", values["cloud-rate-limit"]);
  const alertingLimit = rateLimit("--alerting-rate-limit", values["alerting-rate-limit"]);
  const latencyMs = wholeNumber("--latency-ms", values["latency-ms"], 0);
  const failFirst = wholeNumber("--fail-first", values["fail-first"], 0);
  const random = randomFaults(values["random-faults"]);
  const port = wholeNumber("--port", values.port, DEFAULT_PORT);
  const mode = values.mode ?? "contract";
  const customRoles = (values["custom-role"] ?? []).map(customRole);
  if (mode !== "contract" && mode !== "2026") throw new UsageError(`--mode must be contract or 2026, got "${mode}"`);
  const cloudDialect = values["cloud-dialect"] ?? "contract";
  if (cloudDialect !== "contract" && cloudDialect !== "clickhouse")
    throw new UsageError(`--cloud-dialect must be contract or clickhouse, got "${cloudDialect}"`);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const keepRunning = values["keep-running"] === true;
  if (keepRunning && values["pid-file"] === undefined)
    throw new UsageError("--keep-running needs --pid-file FILE: the way to stop it is kill $(cat FILE)");

  if (
    values.host !== undefined &&
    !isLoopbackHost(values.host) &&
    (values.token === undefined || values["key-id"] === undefined || values["key-secret"] === undefined)
  ) {
    throw new UsageError(
      `--host ${values.host} serves the emulator beyond this machine, where its default credentials (printed in this usage) would let anyone in: ` +
        "give your own --token, --key-id and --key-secret too",
    );
  }

  const options: EmulatorOptions = {
    port,
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values.token !== undefined ? { token: values.token } : {}),
    ...(values["key-id"] !== undefined ? { keyId: values["key-id"] } : {}),
    ...(values["key-secret"] !== undefined ? { keySecret: values["key-secret"] } : {}),
    ...(values.data !== undefined ? { dataFile: values.data } : {}),
    rateLimits: {
      ...(cloudLimit !== undefined ? { cloud: cloudLimit } : {}),
      ...(alertingLimit !== undefined ? { alerting: alertingLimit } : {}),
    },
    latencyMs,
    mode,
    cloudDialect,
    ...(customRoles.length > 0 ? { customRoles } : {}),
    // Method, path and status only: bodies and headers are never printed.
    ...(values.quiet
      ? {}
      : {
          onRequest: (r) =>
            process.stdout.write(
              `${new Date(r.at).toISOString()} ${r.method} ${r.path} -> ${r.status || "cut"}${r.fault ? ` (${r.fault})` : ""}\n`,
            ),
        }),
  };

  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(options);
  } catch (err) {
    throw values.data === undefined ? err : dataFileError(values.data, err);
  }
  if (failFirst > 0 || random !== undefined)
    emulator.setFaults({
      latencyMs,
      ...(failFirst > 0 ? { failNext: failFirst } : {}),
      ...(random !== undefined ? { random } : {}),
    });

  // Handlers go in before the first line: a script may signal as soon as it has read it.
  let stopping = false;
  const pidFile = values["pid-file"];
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    if (pidFile !== undefined) rmSync(pidFile, { force: true });
    emulator.close().then(
      () => {
        process.stdout.write(`alertpipe-emulator stopped (${why})\n`);
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(
          `alertpipe-emulator: error while stopping: ${err instanceof Error ? err.message : String(err)}\n`,
        );
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  if (keepRunning) {
    // Outlives its terminal: a SIGHUP is ignored, and a write to a closed one must not end it.
    process.on("SIGHUP", () => undefined);
    process.stdout.on("error", () => undefined);
    process.stderr.on("error", () => undefined);
  } else {
    // A closed terminal: without a handler, node would end at once, leaving the pid file behind.
    process.on("SIGHUP", () => stop("SIGHUP"));
    watchStarters(stop);
  }
  if (pidFile !== undefined) {
    try {
      // Whole or absent: a script waiting for the file never reads half a number.
      writeFileSync(`${pidFile}.tmp`, `${process.pid}\n`);
      renameSync(`${pidFile}.tmp`, pidFile);
    } catch (err) {
      await emulator.close();
      throw new Error(`cannot write the pid file ${pidFile}: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
  }

  // Printing the credentials is the point: this is a local test server and users copy them into their stack config.
  const lines = [
    `alertpipe-emulator listening on ${emulator.url}`,
    `  alerting (area A) base URL: ${emulator.url}   token: ${emulator.token}`,
    `  cloud (area B) base URL:    ${emulator.url}   key id: ${emulator.keyId}   key secret: ${emulator.keySecret}`,
    `  cloud rate limit: ${describeLimit(cloudLimit ?? DEFAULT_RATE_LIMITS.cloud)}; alerting rate limit: ${describeLimit(alertingLimit ?? DEFAULT_RATE_LIMITS.alerting)}`,
    ...customRoles.map(
      (role) =>
        `  custom role "${role.name}" of organization ${role.organizationId}: ${customRoleId(role.organizationId, role.name)}`,
    ),
    ...(isLoopbackHost(values.host ?? "127.0.0.1") ||
    emulator.url.includes("//127.0.0.1:") ||
    emulator.url.includes("//[::1]:")
      ? []
      : [
          `  note: the provider takes plain http only from a loopback host, so ${emulator.url} serves other tools; for the provider on another machine, put an https proxy in front of it`,
        ]),
    `  area A speaks: ${mode === "2026" ? "HyperDX's external API as in 2026" : "the contract"}; area B speaks: ${cloudDialect === "clickhouse" ? "ClickHouse Cloud's API" : "the contract"}; latency: ${latencyMs} ms; fail first: ${failFirst}; random faults: ${random === undefined ? "off" : `seed ${random.seed}, rate ${random.rate}`}; data file: ${values.data ?? "none (state is lost on exit)"}`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`alertpipe-emulator: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  process.stderr.write(`alertpipe-emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
