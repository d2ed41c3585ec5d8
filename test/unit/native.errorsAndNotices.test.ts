// The native plugin's answers when the behaviour fails after an object exists, and where its
// notices go: over real gRPC in this process, the services mocked, the engine a fake log server.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import { emptyPb, engineProtocol, grpc } from "../../provider/native/protocol";
import { useRuntime } from "../../provider/runtime/runtime";
import { answerOnce, cloudAnswer, mockApiPerTest } from "../support/mockApi";
import { KEY_PATH, KEYS_PATH, KEY_UUID, ORG_ID, serviceKey } from "../support/fixtures";
import {
  TOKENS,
  initFailure,
  nativeCalls,
  nativeProviderPerFile,
  rejection,
  secret,
  urnOf,
} from "../support/nativeProvider";

/** A stand-in for the engine's log service: what the plugin logged, severity, URN and words. */
const logged: Array<{ severity: number; urn: string; message: string }> = [];
let engine: InstanceType<typeof grpc.Server> | undefined;
let enginePort = 0;

beforeAll(async () => {
  const { engineGrpc } = engineProtocol();
  engine = new grpc.Server();
  engine.addService(engineGrpc.EngineService, {
    log: (
      call: { request: EnginePb.LogRequest },
      callback: (err: null, res: InstanceType<typeof emptyPb.Empty>) => void,
    ) => {
      logged.push({
        severity: call.request.getSeverity(),
        urn: call.request.getUrn(),
        message: call.request.getMessage(),
      });
      callback(null, new emptyPb.Empty());
    },
  });
  enginePort = await new Promise<number>((resolve, reject) =>
    engine?.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) =>
      err === null ? resolve(port) : reject(err),
    ),
  );
});

afterAll(() => {
  engine?.forceShutdown();
});

const mock = mockApiPerTest();
const native = nativeCalls(nativeProviderPerFile(() => `127.0.0.1:${enginePort}`));
const key = { organizationId: ORG_ID, name: "deployer", roles: ["developer"] };
const wireKey = serviceKey;

describe("the native plugin's errors", () => {
  it("answers a create that made a key it cannot record whole with ErrorResourceInitFailed, naming the key, so the engine keeps it", async () => {
    // A 2xx with the key but without its pair: the key exists and nobody can use it.
    answerOnce(mock.api.cloud, mock.seen, { method: "POST", path: KEYS_PATH }, 200, cloudAnswer({ key: wireKey }));
    const err = await rejection(native.create(TOKENS.apiKey, key));
    expect(err.details).toContain(`The API key ${KEY_UUID} was created and is kept in the stack's state`);
    expect(initFailure(err)).toMatchObject({ id: KEY_UUID, properties: { organizationId: ORG_ID, name: "deployer" } });
  });

  it("answers a plain failure as a gRPC error carrying the behaviour's own message", async () => {
    // The read lists the organization's keys (reading/listedReads.ts).
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 403, {
      status: 403,
      error: "forbidden: no such role",
    });
    const err = await rejection(
      native.read(TOKENS.apiKey, KEY_UUID, {
        ...key,
        keyId: "K",
        keySecret: "stored-key-secret-5f1a",
        managedArgs: ["name", "roles"],
      }),
    );
    expect(err.details).toContain("forbidden: no such role");
    expect(initFailure(err)).toBeUndefined();
  });
});

describe("the native plugin's notices", () => {
  it("go to the engine's log as info, under the URN of the resource whose call said them", async () => {
    // A take-over claims the key for this run; the delete of the replaced resource then leaves it with a notice.
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEY_PATH }, 200, cloudAnswer(wireKey));
    await native.create(TOKENS.apiKey, { ...key, importId: KEY_UUID });
    logged.length = 0;
    await native.delete(TOKENS.apiKey, KEY_UUID, { ...key, managedArgs: ["name", "roles"] });
    expect(logged).toEqual([
      {
        severity: 1,
        urn: urnOf(TOKENS.apiKey, "r"),
        message: expect.stringContaining(`the API key ${KEY_UUID} is not deleted`),
      },
    ]);
  });
});

describe("the native plugin's notices during a read", () => {
  it("go to the engine's log as info for the whole run, with no URN, before the read answers", async () => {
    const said: string[] = [];
    useRuntime({ notices: (line) => said.push(line), timings: { waitNoticeAfterMs: -1 } });
    answerOnce(
      mock.api.cloud,
      mock.seen,
      { method: "GET", path: KEYS_PATH },
      429,
      { status: 429, error: "slow down" },
      {
        "ratelimit-reset": "0.05",
      },
    );
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 200, cloudAnswer([wireKey]));
    logged.length = 0;
    await native.read(TOKENS.apiKey, KEY_UUID, { ...key, keyId: "K", managedArgs: ["name", "roles"] });
    expect(logged).toEqual([{ severity: 1, urn: "", message: expect.stringContaining(`GET ${KEYS_PATH} waits`) }]);
    expect(said).toEqual([]);
  });
});

describe("a credential in plain text in the provider's configuration", () => {
  it("is said once per run as a warning naming `pulumi config set --secret`; one marked secret is not", async () => {
    const config = {
      alertingUrl: "https://alerts.example.test",
      alertingToken: "plain-token",
      cloudKeySecret: secret("s"),
    };
    logged.length = 0;
    await native.configure(config);
    await native.configure(config);
    expect(logged).toEqual([
      {
        severity: 2,
        urn: "",
        message: expect.stringContaining("`pulumi config set --secret alertpipe:alertingToken <value>`"),
      },
    ]);
    expect(logged[0]?.message).not.toContain("cloudKeySecret");
    expect(logged[0]?.message).not.toContain("plain-token");
  });
});
