// A program that loses its connection to the engine, on the real engine (issue 44's soak once saw
// a clean up delete the whole stack and report success). The Automation API's inline program takes
// an RPC failing UNAVAILABLE or CANCELLED for the engine shutting down and says nothing: the run ends
// as a success, and the engine deletes what the program never registered. scripts/engine/stack.ts
// makes such an up fail, and gives each run's monitor and engine clients a gRPC subchannel pool of
// their own, so a run no longer inherits the backed-off connection of an earlier run's dead server
// on the same port (what made the SDK's first call to the engine fail in the soak).

import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ownSubchannelPools } from "../../scripts/engine/stack";

const sdk = createRequire(require.resolve("@pulumi/pulumi"));

interface Grpc {
  Server: new () => {
    addService(service: unknown, impl: unknown): void;
    bindAsync(address: string, creds: unknown, done: (err: Error | null, port: number) => void): void;
    forceShutdown(): void;
  };
  ServerCredentials: { createInsecure(): unknown };
  credentials: { createInsecure(): unknown };
}
type Callback = (err: { code: number; details: string } | null, res?: unknown) => void;
interface MonitorClient {
  supportsFeature(req: unknown, done: Callback): void;
  close(): void;
}
interface MonitorProto {
  ResourceMonitorService: unknown;
  ResourceMonitorClient: new (address: string, creds: unknown, options: object) => MonitorClient;
}
interface FeatureProto {
  SupportsFeatureRequest: new () => { setId(id: string): void };
  SupportsFeatureResponse: new () => { setHassupport(has: boolean): void };
}

const grpc = sdk("@grpc/grpc-js") as Grpc;
const monitorRpc = sdk("@pulumi/pulumi/proto/resource_grpc_pb") as MonitorProto;
const monitorProto = sdk("@pulumi/pulumi/proto/resource_pb") as FeatureProto;
const settings = sdk("@pulumi/pulumi/runtime/settings") as { grpcClientOptions: Record<string, unknown> };

/** A resource monitor answering SupportsFeature only, on `port` (0: any); its port. */
function monitorOn(port: number): Promise<{ port: number; stop(): void }> {
  const server = new grpc.Server();
  server.addService(monitorRpc.ResourceMonitorService, {
    supportsFeature: (_call: unknown, done: Callback) => {
      const res = new monitorProto.SupportsFeatureResponse();
      res.setHassupport(true);
      done(null, res);
    },
  });
  return new Promise((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err !== null ? reject(err) : resolve({ port: bound, stop: () => server.forceShutdown() }),
    ),
  );
}

/** One SupportsFeature call: "ok" or the gRPC code it failed with. */
function ask(client: MonitorClient): Promise<string> {
  const req = new monitorProto.SupportsFeatureRequest();
  req.setId("secrets");
  return new Promise((resolve) =>
    client.supportsFeature(req, (err) => resolve(err === null ? "ok" : `code ${err.code}`)),
  );
}

/** A monitor client as the SDK makes one for a run: its own client options, never closed. */
const runClient = (port: number): MonitorClient =>
  new monitorRpc.ResourceMonitorClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    settings.grpcClientOptions,
  );

describe("a program that loses its resource monitor", () => {
  it("reaches a new monitor on the port of one that died under an earlier run's RPC", async () => {
    ownSubchannelPools();
    const first = await monitorOn(0);
    const earlier = runClient(first.port);
    expect(await ask(earlier)).toBe("ok");
    first.stop();
    // The earlier run's client, never closed, meets its dead monitor: its connection backs off.
    expect(await ask(earlier)).toBe("code 14");
    const second = await monitorOn(first.port);
    try {
      expect(await ask(runClient(first.port))).toBe("ok");
    } finally {
      second.stop();
    }
  });

  it("fails an up whose program never ran because the SDK's first call to the engine failed UNAVAILABLE", () => {
    const out = execFileSync(process.execPath, [join(__dirname, "fixtures", "engineLoss.js")], { encoding: "utf8" });
    const seen = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
      firstOk: boolean;
      alertsBefore: number;
      cut: { ok: boolean; error?: string; changes?: Record<string, number>; steps: string[] };
      alertsAfter: number;
    };
    expect(seen.firstOk).toBe(true);
    expect(seen.alertsBefore).toBe(2);
    expect(seen.cut.ok, seen.cut.error).toBe(false);
    expect(seen.cut.error).toMatch(/the program never ran/);
    // What the engine did, which the run now says rather than hides: the program registered only
    // the root stack resource, so it deleted both alerts (the soak's clean up saw all twelve go).
    expect(seen.cut.changes).toEqual({ same: 1, delete: 2 });
    expect(seen.cut.steps.sort()).toEqual(["delete first", "delete second"]);
    expect(seen.alertsAfter).toBe(0);
  });
});
