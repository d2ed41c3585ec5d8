// Runs the real alerting service built by build.ts, on loopback only: FerretDB (one per test run,
// its data in a temporary folder) and HyperDX's API on one database of it (one per test file), and
// makes a user the way a person does, by the server's own registration, to get an access key.

import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { createConnection, createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { request } from "undici";
import type { RealServiceBuild } from "./build";

export interface RunningProcess {
  /** Where it listens. */
  readonly url: string;
  /** Its stdout and stderr, for a failure's message. */
  readonly logFile: string;
  stop(): Promise<void>;
}

/** A free loopback port (the OS's pick, let go at once: our servers take a port number, not a socket). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").trim().split("\n").slice(-30).join("\n");
  } catch {
    return "(no output)";
  }
}

/** Starts a child with its output in `logFile`, and a stop that ends it (SIGTERM, then SIGKILL). */
function startLogged(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): { child: ChildProcess; stop: () => Promise<void> } {
  const out = openSync(options.logFile, "a");
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", out, out] });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killer);
  };
  return { child, stop };
}

/** Waits until `ready` says yes, failing early when the process dies or after `timeoutMs`. */
async function waitReady(
  what: string,
  child: ChildProcess,
  logFile: string,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(logFile)}`);
    }
    if (await ready()) return;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`${what} was not ready after ${timeoutMs / 1000} s:\n${tail(logFile)}`);
    }
    await sleep(100);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** FerretDB on SQLite, its data and state under `dir`; `url` is the MongoDB origin (`mongodb://127.0.0.1:PORT`). */
export async function startFerretdb(build: RealServiceBuild, dir: string): Promise<RunningProcess> {
  const data = join(dir, "data");
  mkdirSync(data, { recursive: true });
  const port = await freePort();
  const logFile = join(dir, "ferretdb.log");
  const { child, stop } = startLogged(
    build.ferretdb,
    [
      "--handler=sqlite",
      `--sqlite-url=file:${data}/`,
      `--state-dir=${data}`,
      `--listen-addr=127.0.0.1:${port}`,
      "--debug-addr=-",
      "--telemetry=disable",
      "--log-level=warn",
    ],
    { cwd: dir, env: process.env, logFile },
  );
  try {
    await waitReady("FerretDB", child, logFile, () => accepts(port), 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `mongodb://127.0.0.1:${port}`, logFile, stop };
}

/**
 * HyperDX's API on database `database` of the FerretDB at `mongo`, ready (`GET /ready` 200; about
 * 2 s). No ClickHouse, no Redis: creating, reading and deleting through /api/v2 needs neither.
 * `logLevel` "info" logs every request it answers (pino-http), "warn" (the default) each 4xx and 5xx.
 */
export async function startHyperdxApi(
  build: RealServiceBuild,
  mongo: string,
  database: string,
  dir: string,
  logLevel: "info" | "warn" = "warn",
): Promise<RunningProcess> {
  const [port, opampPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(dir, { recursive: true });
  const logFile = join(dir, `api-${database}.log`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    PORT: String(port),
    OPAMP_PORT: String(opampPort),
    MONGO_URI: `${mongo}/${database}`,
    EXPRESS_SESSION_SECRET: randomBytes(16).toString("hex"),
    FRONTEND_URL: `http://127.0.0.1:${port}`,
    USAGE_STATS_ENABLED: "false",
    HYPERDX_LOG_LEVEL: logLevel,
  };
  const { child, stop } = startLogged(build.node, ["build/index.js"], { cwd: build.apiDir, env, logFile });
  const ready = async (): Promise<boolean> => {
    try {
      const res = await request(`${url}/ready`);
      await res.body.dump();
      return res.statusCode === 200;
    } catch {
      return false;
    }
  };
  try {
    await waitReady("HyperDX's API", child, logFile, ready, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, logFile, stop };
}

/**
 * Registers the first user of the API's database (`POST /register/password`, which makes its team)
 * and reads its access key (`GET /me` with the session cookie): the key the external API takes as
 * `Authorization: Bearer <key>`.
 */
export async function registerUser(apiUrl: string): Promise<{ email: string; accessKey: string }> {
  const email = `ci-${randomBytes(4).toString("hex")}@example.com`;
  const password = `Pw!${randomBytes(12).toString("hex")}A1`;
  const registered = await request(`${apiUrl}/register/password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, confirmPassword: password }),
  });
  const registeredBody = await registered.body.text();
  if (registered.statusCode !== 200) {
    throw new Error(`POST /register/password answered ${registered.statusCode}: ${registeredBody}`);
  }
  const setCookie = registered.headers["set-cookie"];
  const cookies = (Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]).map(
    (c) => c.split(";")[0] ?? "",
  );
  const me = await request(`${apiUrl}/me`, { headers: { cookie: cookies.join("; ") } });
  const meBody = (await me.body.json()) as { accessKey?: unknown };
  if (me.statusCode !== 200 || typeof meBody.accessKey !== "string") {
    throw new Error(`GET /me answered ${me.statusCode} without an access key`);
  }
  return { email, accessKey: meBody.accessKey };
}
