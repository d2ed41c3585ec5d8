// The HTTP layer loads only undici's Agent and request, not its whole entry point (a cost paid in
// every provider host's first create); both ways of loading send the same request.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromEntryPoint, fromInternals, undiciParts, type UndiciParts } from "../../provider/http/undiciParts";

interface Seen {
  method: string | undefined;
  url: string | undefined;
  contentType: string | undefined;
  body: string;
}

let server: Server;
let origin: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, contentType: req.headers["content-type"], body });
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function roundTrip(parts: UndiciParts): Promise<{ status: number; body: unknown; seen: Seen | undefined }> {
  const agent = new parts.Agent();
  try {
    seen.length = 0;
    const res = await parts.request(agent, `${origin}/base/v1/keys?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "k" }),
    });
    return { status: res.statusCode, body: await res.body.json(), seen: seen[0] };
  } finally {
    await agent.close();
  }
}

describe("undici parts", () => {
  it("are loaded from undici's internals, the fast path, with the undici this package depends on", () => {
    expect(fromInternals()).toBeDefined();
    expect(undiciParts().loadedFrom).toBe("internals");
  });

  it("send a request's method, path with query, headers and body, and return its answer, from the internals", async () => {
    const parts = fromInternals();
    if (!parts) throw new Error("undici internals not found");
    const r = await roundTrip(parts);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ ok: true });
    expect(r.seen).toEqual({
      method: "POST",
      url: "/base/v1/keys?x=1",
      contentType: "application/json",
      body: '{"name":"k"}',
    });
  });

  it("send the same request through undici's entry point, the fallback", async () => {
    const fast = fromInternals();
    if (!fast) throw new Error("undici internals not found");
    const viaInternals = await roundTrip(fast);
    const viaEntry = await roundTrip(fromEntryPoint());
    expect(viaEntry).toEqual(viaInternals);
  });

  it.each([
    ["the internals", () => fromInternals()],
    ["the entry point", () => fromEntryPoint()],
  ])("send the path as written, dot segments unfolded, through %s, so errors name the path sent", async (_, load) => {
    const parts = load();
    if (!parts) throw new Error("undici internals not found");
    const agent = new parts.Agent();
    try {
      seen.length = 0;
      const res = await parts.request(agent, `${origin}/api/v2/alerts/..`, { method: "DELETE" });
      await res.body.text();
      expect(seen[0]?.url).toBe("/api/v2/alerts/..");
    } finally {
      await agent.close();
    }
  });

  /** The order in which a request's write was told and its answer came, through `parts`. */
  async function writeThenAnswer(parts: UndiciParts): Promise<string[]> {
    const agent = new parts.Agent();
    const events: string[] = [];
    try {
      const res = await parts.request(
        agent,
        `${origin}/base/v1/keys`,
        { method: "POST", body: JSON.stringify({ name: "k" }) },
        () => events.push("written"),
      );
      events.push(`answered ${res.statusCode}`);
      await res.body.text();
      return events;
    } finally {
      await agent.close();
    }
  }

  it("tell when the request was written to the socket, once and before its answer, from the internals", async () => {
    const parts = fromInternals();
    if (!parts) throw new Error("undici internals not found");
    expect(await writeThenAnswer(parts)).toEqual(["written", "answered 201"]);
  });

  it("tell when the request was written through undici's entry point too", async () => {
    expect(await writeThenAnswer(fromEntryPoint())).toEqual(["written", "answered 201"]);
  });

  it("leave undici's entry point unloaded in a provider process that sends a request", async () => {
    // A fresh process, as Pulumi's provider host is: the client sends one real request.
    const client = transpiledBesideNodeModules(join(__dirname, "..", "..", "provider", "http", "undiciParts.ts"));
    const script = `
      const { undiciParts } = require(${JSON.stringify(client)});
      const parts = undiciParts();
      const agent = new parts.Agent();
      parts.request(agent, ${JSON.stringify(`${origin}/probe`)}, { method: "GET" })
        .then((res) => res.body.text())
        .then(() => agent.close())
        .then(() => {
          const loaded = Object.keys(require.cache).filter((f) => /[\\\\/]undici[\\\\/]index\\.js$/.test(f));
          console.log(JSON.stringify({ loadedFrom: parts.loadedFrom, entryLoaded: loaded.length > 0 }));
        });
    `;
    // Not execFileSync: the server answering the child lives in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(JSON.parse(stdout.trim())).toEqual({ loadedFrom: "internals", entryLoaded: false });
  });
});

/**
 * The module as plain JavaScript for a fresh Node process, without building the package (the unit
 * tier never waits for a build): it imports only undici, which resolves from inside node_modules.
 */
function transpiledBesideNodeModules(source: string): string {
  const dir = join(__dirname, "..", "..", "node_modules", ".cache", "alertpipe-unit");
  mkdirSync(dir, { recursive: true });
  const out = join(dir, "undiciParts.js");
  const js = ts.transpileModule(readFileSync(source, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  writeFileSync(out, js.outputText);
  return out;
}
