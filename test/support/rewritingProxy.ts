// A pass-through proxy in front of the emulator whose successful answers a test may rewrite: a
// service that made an object but answered something unusable (the emulator's own faults answer
// 503 before processing or cut the connection, both unknown outcomes, never a wrong 2xx).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

/**
 * A pass-through proxy to the emulator that lets a test rewrite a successful answer, to play a
 * service whose answer to a create cannot be used although the object was made. The emulator's own
 * faults cannot: they answer 503 before processing or cut the connection, both unknown outcomes.
 */
export async function rewritingProxy(
  target: string,
  rewrite: (method: string, path: string, body: unknown) => unknown,
): Promise<string> {
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const upstream = await fetch(`${target}${req.url ?? "/"}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
      },
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    let text = await upstream.text();
    if (upstream.ok && text !== "") text = JSON.stringify(rewrite(method, path, JSON.parse(text) as unknown));
    // The pacing and retry headers pass through, so the provider sees the service's limits as they are.
    const headers: Record<string, string> = { "content-type": "application/json" };
    for (const h of ["retry-after", "x-ratelimit-reset", "ratelimit-reset"]) {
      const v = upstream.headers.get(h);
      if (v !== null) headers[h] = v;
    }
    res.writeHead(upstream.status, headers);
    res.end(text);
  };
  const server = createServer((req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanupsAfterFile.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const cleanupsAfterFile: Array<() => Promise<void>> = [];
// Registered in the importing test file: each proxy closes after that file's tests.
afterAll(async () => {
  for (const cleanup of cleanupsAfterFile.splice(0)) await cleanup();
});

/** The body with one member of `holder` (area A's `data` or area B's `result`) removed. */
export function without(body: unknown, holder: "data" | "result", member: string): unknown {
  if (typeof body !== "object" || body === null) return body;
  const inner = (body as Record<string, unknown>)[holder];
  if (typeof inner !== "object" || inner === null) return body;
  const { [member]: _dropped, ...rest } = inner as Record<string, unknown>;
  return { ...body, [holder]: rest };
}
