// The ApiKey class as a program sees it, under Pulumi's mocks: they run the real registration
// (serialization of inputs, options and the provider) but no provider code. The mock monitor's
// registerResource request is what the engine would receive.

import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import type * as ResourceModule from "../../provider/dynamic/apiKey";
import type * as IndexModule from "../../provider/index";
import { providerModule } from "../support/dynamicClasses";
import { ORG_ID } from "../support/fixtures";

const { ApiKey } = providerModule("./provider/dynamic/apiKey") as typeof ResourceModule;
const index = providerModule("./provider/index") as typeof IndexModule;

interface Registered {
  type: string;
  name: string;
  additionalSecretOutputs: string[];
  inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({
        id: `${args.name}-uuid`,
        state: { ...args.inputs, keyId: "KEYID", keySecret: "s3cret-from-mock" },
      }),
      call: () => ({}),
    },
    "apikey-test",
    "dev",
    false,
  );
  // The mock's newResource does not see options; the request to the monitor carries them all.
  const monitor = pulumi.runtime.getMonitor() as unknown as {
    registerResource: (req: unknown, cb: unknown) => unknown;
  };
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, cb) => {
    const r = req as {
      getType(): string;
      getName(): string;
      getAdditionalsecretoutputsList(): string[];
      getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
    };
    registered.push({
      type: r.getType(),
      name: r.getName(),
      additionalSecretOutputs: r.getAdditionalsecretoutputsList(),
      inputs: r.getObject()?.toJavaScript() ?? {},
    });
    return original(req, cb);
  };
});

const args = { organizationId: ORG_ID, roles: ["developer" as const], name: "ci" };

/** Resolves once the resource's registration has been answered. */
function settled(resource: pulumi.CustomResource): Promise<string> {
  return new Promise((resolve) => resource.urn.apply((urn) => resolve(urn)));
}

function registration(name: string): Registered {
  const found = registered.find((r) => r.name === name);
  if (!found) throw new Error(`${name} was not registered`);
  return found;
}

describe("ApiKey resource class", () => {
  it("registers under the type token pulumi-nodejs:dynamic/alertpipe:ApiKey", async () => {
    await settled(new ApiKey("typed", args));
    expect(registration("typed").type).toBe("pulumi-nodejs:dynamic/alertpipe:ApiKey");
  });

  it("asks the engine to keep keySecret and hashData as secrets", async () => {
    await settled(new ApiKey("secretive", args));
    expect(registration("secretive").additionalSecretOutputs).toEqual(
      expect.arrayContaining(["keySecret", "hashData"]),
    );
  });

  it("merges the program's own additionalSecretOutputs with its own", async () => {
    await settled(new ApiKey("merged", args, { additionalSecretOutputs: ["name"] }));
    expect([...registration("merged").additionalSecretOutputs].sort()).toEqual(["hashData", "keySecret", "name"]);
  });

  it("sends the program's arguments and the serialized provider as inputs", async () => {
    await settled(new ApiKey("inputs", { ...args, expireAt: null }));
    const { __provider, ...rest } = registration("inputs").inputs;
    expect(typeof __provider).toBe("string");
    expect(rest).toEqual({ organizationId: args.organizationId, roles: ["developer"], name: "ci", expireAt: null });
  });

  it("sends hashData to the engine as a secret input, since additionalSecretOutputs leaves inputs plain", async () => {
    const hashData = { keyIdHash: "h-id", keyIdSuffix: "sfx", keySecretHash: "h-secret" };
    await settled(new ApiKey("hashed", { ...args, hashData }));
    expect(registration("hashed").inputs.hashData).toEqual({
      [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig,
      value: hashData,
    });
  });

  it("exposes keyId and the other outputs on the instance", async () => {
    const key = new ApiKey("outputs", args);
    for (const name of [
      "keyId",
      "keySecret",
      "keySuffix",
      "createdAt",
      "usedAt",
      "expireAt",
      "roles",
      "ipAccessList",
      "name",
      "state",
      "hashData",
    ] as const) {
      expect(pulumi.Output.isInstance(key[name]), name).toBe(true);
    }
    expect(await new Promise((resolve) => key.keyId.apply(resolve))).toBe("KEYID");
  });

  it("is exported from the package entry point", () => {
    expect(index.ApiKey).toBe(ApiKey);
  });
});
