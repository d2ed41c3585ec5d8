// The HTTP layer against real sockets on 127.0.0.1: a closed port, a connection cut after the
// request was read, an answer whose headers never come. A PUT is tried again; a POST is tried
// again only when the connection was refused, and otherwise stops with OutcomeUnknownError.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectionFor } from "../../provider/runtime/connection";
import { send } from "../../provider/http/client";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { ApiError, OutcomeUnknownError, TransportError } from "../../provider/errors";
import { CANARY, errorText } from "../support/mockApi";
import { failure } from "../support/failures";

const PATH = "/v1/organizations/org-1/services/svc-1/pipes/pipe-1/settings";
const KEYS = "/v1/organizations/org-1/keys";
const creates = 'the API key "deployer"';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

const ENV_KEYS = [
  "ALERTPIPE_CLOUD_URL",
  "ALERTPIPE_CLOUD_KEY_ID",
  "ALERTPIPE_CLOUD_KEY_SECRET",
  "ALERTPIPE_CLOUD_RATE_LIMIT",
] as const;
let savedEnv: Record<string, string | undefined>;
let servers: Server[];
let agent: Agent;
/** Requests the client dispatched (each attempt, whether or not it connected). */
let dispatched: number;
const onCreate = () => {
  dispatched++;
};

beforeEach(() => {
  savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  process.env.ALERTPIPE_CLOUD_KEY_ID = CANARY.keyId;
  process.env.ALERTPIPE_CLOUD_KEY_SECRET = CANARY.keySecret;
  process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "off";
  resetRuntime();
  servers = [];
  agent = new Agent({ keepAliveTimeout: 1_000 });
  useRuntime({
    dispatcher: agent,
    retryPolicy: { maxAttempts: 4, maxTotalMs: 5_000, baseDelayMs: 10, maxDelayMs: 20, attemptTimeoutMs: 150 },
  });
  dispatched = 0;
  subscribe("undici:request:create", onCreate);
});

afterEach(async () => {
  unsubscribe("undici:request:create", onCreate);
  resetRuntime();
  await agent.destroy();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** A real server on 127.0.0.1; `handle` gets each request with its 1-based number. */
async function serve(handle: Handler, port = 0): Promise<{ server: Server; port: number; seen: () => number }> {
  let n = 0;
  const server = createServer((req, res) => handle(req, res, ++n));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  process.env.ALERTPIPE_CLOUD_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, port: (server.address() as AddressInfo).port, seen: () => n };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  process.env.ALERTPIPE_CLOUD_URL = `http://127.0.0.1:${port}`;
  return port;
}

function ok(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ status: 200, requestId: "5b0c2b4e-8f1a-4c39-9d2e-3f6a7b8c9d0e", result: {} }));
}

/** Reads the whole request, then drops the connection without a byte of answer. */
function cut(req: IncomingMessage): void {
  req.resume();
  req.on("end", () => req.socket.destroy());
}

describe("a closed port (connection refused)", () => {
  it("fails a PUT with a TransportError naming ECONNREFUSED after every allowed attempt", async () => {
    await closedPort();
    const err = await failure(send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} }));
    expect(err).toBeInstanceOf(TransportError);
    expect(err).toMatchObject({ method: "PUT", path: PATH, code: "TRANSPORT", transportCode: "ECONNREFUSED" });
    expect(dispatched).toBe(4);
  });

  it("is retried for a POST too, since the request never left", async () => {
    await closedPort();
    const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates }));
    expect(err).toBeInstanceOf(TransportError);
    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
    expect(dispatched).toBe(4);
  });

  it("then a listening server: the POST is retried and succeeds, created exactly once", async () => {
    const port = await closedPort();
    let posts = 0;
    let listening: Promise<unknown> | undefined;
    const onConnectError = () => {
      listening ??= serve((_req, res) => {
        posts++;
        ok(res);
      }, port);
    };
    subscribe("undici:client:connectError", onConnectError);
    try {
      useRuntime({ retryPolicy: { maxAttempts: 6, maxTotalMs: 5_000, baseDelayMs: 20, maxDelayMs: 40 } });
      const res = await send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates });
      expect(res.status).toBe(200);
      expect(posts).toBe(1);
      expect(dispatched).toBeGreaterThanOrEqual(2);
    } finally {
      unsubscribe("undici:client:connectError", onConnectError);
      await listening;
    }
  });
});

describe("a connection cut after the request was read", () => {
  it("stops a POST with OutcomeUnknownError naming the object, after exactly one request", async () => {
    const { seen } = await serve((req) => cut(req));
    const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(String(err)).toContain(`POST ${KEYS}`);
    expect(String(err)).toContain('the API key "deployer" may have been created');
    expect(seen()).toBe(1);
    expect(errorText(err)).not.toContain(CANARY.keySecret);
  });

  it("retries a PUT, which may be repeated, and succeeds", async () => {
    const { seen } = await serve((req, res, n) => (n === 1 ? cut(req) : ok(res)));
    const res = await send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} });
    expect(res.status).toBe(200);
    expect(seen()).toBe(2);
  });
});

describe("an answer whose headers do not come in time", () => {
  const slow = (res: ServerResponse) => {
    const t = setTimeout(() => ok(res), 5_000);
    res.on("close", () => clearTimeout(t));
  };

  it("abandons the attempt and retries a PUT, which then succeeds", async () => {
    const { seen } = await serve((_req, res, n) => (n === 1 ? slow(res) : ok(res)));
    const res = await send(connectionFor("cloud"), { method: "PUT", path: PATH, body: {} });
    expect(res.status).toBe(200);
    expect(seen()).toBe(2);
  });

  it("stops a POST with OutcomeUnknownError after exactly one request", async () => {
    const { seen } = await serve((_req, res) => slow(res));
    const err = await failure(send(connectionFor("cloud"), { method: "POST", path: KEYS, body: {}, creates }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(String(err)).toContain("no complete answer within 150 ms");
    expect(seen()).toBe(1);
  });

  it("fails a GET with a TransportError once the attempts are spent", async () => {
    useRuntime({
      retryPolicy: { maxAttempts: 2, maxTotalMs: 5_000, baseDelayMs: 1, maxDelayMs: 2, attemptTimeoutMs: 50 },
    });
    const { seen } = await serve((_req, res) => slow(res));
    const err = await failure(send(connectionFor("cloud"), { method: "GET", path: PATH }));
    expect(err).toBeInstanceOf(TransportError);
    expect(err).toMatchObject({ code: "TRANSPORT", transportCode: "ATTEMPT_TIMEOUT" });
    expect(seen()).toBe(2);
  });
});

describe("the process dispatcher", () => {
  it("keeps connections alive: sequential requests share a couple of sockets, not one each", async () => {
    useRuntime({ dispatcher: undefined }); // the default, process-wide agent
    let connections = 0;
    const { server, seen } = await serve((_req, res) => ok(res));
    server.on("connection", () => connections++);
    for (let i = 0; i < 8; i++) await send(connectionFor("cloud"), { method: "GET", path: PATH });
    expect(seen()).toBe(8);
    // undici checks an idle socket for one turn of the event loop before reusing it, so a request
    // sent at once after another may open a second socket; never more.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("reports a real error answer from a real server as an ApiError", async () => {
    await serve((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: 404, error: "pipe not found", requestId: "r-1" }));
    });
    const err = await failure(send(connectionFor("cloud"), { method: "GET", path: PATH }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, serviceMessage: "pipe not found", requestId: "r-1" });
  });
});
