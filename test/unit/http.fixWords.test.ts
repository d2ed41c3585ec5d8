// Errors whose words name the fix (issue 24): TLS spoken to a plain-http port and the reverse, a
// port that does not speak HTTP, a 401 or 403 (which credential, which setting), a token no header
// can carry. Real sockets on 127.0.0.1 where the transport is the point, the mock API for statuses.

import { createServer as createHttpServer } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from "node:net";
import { Agent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { send } from "../../provider/http/client";
import { connectionFailures, connectionFor } from "../../provider/runtime/connection";
import { ConfigError, TransportError } from "../../provider/errors";
import { useRuntime } from "../../provider/runtime/runtime";
import { failure } from "../support/failures";
import { mockApiPerTest } from "../support/mockApi";

const PATH = "/v1/organizations/0f8fad5b-d9cb-469f-a165-70867728950e/keys";
const ALERTS = "/api/v2/alerts";

/** A self-signed certificate for localhost (P-256, valid until 2125), for a TLS server in a test only. */
const TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgsRYydlLxwpznPbX1
FeZEu4KFljVmsXeDQVNxawJZAAehRANCAARB0OpEgpz9TLPlFyJ2yz6bMa+igH2L
fUHSGXu6CTGS+uLHUf7kKExh2IipbSX30wJNA1fxwMv3irfeJ1/T3+W/
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBfzCCASWgAwIBAgIUL61APxCUnrrMkYxuu8Mx2y17UnEwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNDA3MTIzNFoYDzIxMjYxMDMx
MDcxMjM0WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARB0OpEgpz9TLPlFyJ2yz6bMa+igH2LfUHSGXu6CTGS+uLHUf7kKExh
2IipbSX30wJNA1fxwMv3irfeJ1/T3+W/o1MwUTAdBgNVHQ4EFgQUzKXwwrjUEFwM
xuYvukxwZYM4I9gwHwYDVR0jBBgwFoAUzKXwwrjUEFwMxuYvukxwZYM4I9gwDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEApArrlpwu/yDj9Ppl00jN
3824MIvmL57Mbai7nGErufQCIEPGmClnNX1sqpbHOOz44iotVMF7MCyG7i9U7736
+5Pn
-----END CERTIFICATE-----
`,
};

describe("a transport failure the URL setting explains", () => {
  mockApiPerTest();
  let servers: Server[] = [];
  let sockets: Socket[] = [];
  let agent: Agent;
  beforeEach(() => {
    servers = [];
    sockets = [];
    agent = new Agent();
    useRuntime({
      dispatcher: agent,
      retryPolicy: { maxAttempts: 2, maxTotalMs: 2_000, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });
  afterEach(async () => {
    await agent.destroy();
    for (const s of sockets) s.destroy();
    for (const s of servers) await new Promise((resolve) => s.close(resolve));
  });

  async function listen(server: Server): Promise<number> {
    servers.push(server);
    // TLS servers report the raw socket as "connection" too; a close waits for every one of them.
    server.on("connection", (socket: Socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  }

  async function sent(url: string, method: "GET" | "POST" = "GET"): Promise<TransportError> {
    process.env.ALERTPIPE_CLOUD_URL = url;
    const err = await failure(
      send(connectionFor("cloud"), { method, path: PATH, ...(method === "POST" ? { body: {} } : {}) }),
    );
    expect(err).toBeInstanceOf(TransportError);
    return err as TransportError;
  }

  it("names the URL setting and https when TLS meets a plain-http port", async () => {
    const port = await listen(createHttpServer((_req, res) => res.end("{}")));
    const err = await sent(`https://127.0.0.1:${port}`);
    expect(err.message).toContain("does not speak TLS");
    expect(err.message).toContain("alertpipe:cloudUrl (or ALERTPIPE_CLOUD_URL)");
  });

  it("names the URL setting and https:// when plain http meets a TLS port", async () => {
    const port = await listen(createTlsServer(TLS, (_req, res) => res.end("{}")));
    const err = await sent(`http://127.0.0.1:${port}`);
    expect(err.message).toContain(
      "speaks TLS on that port, alertpipe:cloudUrl (or ALERTPIPE_CLOUD_URL) must say https://",
    );
  });

  it("says NOT_HTTP for a port of another protocol, and a create meeting it is no unknown outcome", async () => {
    const port = await listen(
      createNetServer((socket) => {
        socket.on("error", () => undefined);
        socket.write("SSH-2.0-OpenSSH_9.2\r\n");
      }),
    );
    const err = await sent(`http://127.0.0.1:${port}`, "POST");
    expect(err.transportCode).toBe("NOT_HTTP");
    expect(err.message).toContain("answered something that is not HTTP");
    expect(err.message).toContain("alertpipe:cloudUrl (or ALERTPIPE_CLOUD_URL)");
  });
});

describe("a 401 or 403", () => {
  const mock = mockApiPerTest();

  it.each([
    ["alerting", 401, ["alertpipe:alertingToken (or ALERTPIPE_ALERTING_TOKEN)"]],
    ["alerting", 403, ["alertpipe:alertingToken (or ALERTPIPE_ALERTING_TOKEN)", "may manage alerts"]],
    [
      "cloud",
      401,
      ["alertpipe:cloudKeyId (or ALERTPIPE_CLOUD_KEY_ID)", "alertpipe:cloudKeySecret (or ALERTPIPE_CLOUD_KEY_SECRET)"],
    ],
    ["cloud", 403, ["alertpipe:cloudKeyId (or ALERTPIPE_CLOUD_KEY_ID)", "IP access list"]],
  ] as const)("from the %s API (%i) names the credential's settings", async (area, status, words) => {
    const path = area === "alerting" ? ALERTS : PATH;
    mock.api[area].intercept({ method: "GET", path }).reply(status, { message: "no" });
    const err = await failure(send(connectionFor(area), { method: "GET", path }));
    for (const w of words) expect(String(err)).toContain(w);
  });
});

describe("a token no HTTP header can carry", () => {
  const mock = mockApiPerTest();

  it.each([
    ["a line break", "tok\nen"],
    ["a non-ASCII letter", "tökén-1234"],
  ])("fails check with %s, naming the setting and not the value", (_what, token) => {
    process.env.ALERTPIPE_ALERTING_TOKEN = token;
    const failures = connectionFailures("alerting");
    expect(failures).toHaveLength(1);
    expect(failures[0]?.reason).toContain("alertpipe:alertingToken holds a character an HTTP header cannot carry");
    expect(failures[0]?.reason).not.toContain(token);
    expect(() => connectionFor("alerting")).toThrow(ConfigError);
    expect(mock.seen).toHaveLength(0);
  });
});
