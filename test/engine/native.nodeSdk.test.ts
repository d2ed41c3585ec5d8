// The generated Node.js SDK (sdk/nodejs, package @alertpipe/pulumi) as a TypeScript user builds it
// (`tsc` in a copy of the folder, then its package.json copied into bin/), used by an inline program on the real engine against the bundled
// emulator, with the plugin found on PATH as the packed package's node_modules/.bin puts it: the SDK
// asks for the plugin's own version, and its ApiKey marks keySecret secret.

import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { copyFileSync, cpSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/packedPackage";
import { sdkDir } from "../../scripts/sdk";
import type { EngineStack, RunningEmulator } from "../support/engine";
import { newStack, ourState, pluginOnPath, succeeded } from "../support/engine";
import { PIPE_IDS, PIPE_RESOURCE_ID } from "../support/fixtures";
import { run, scratch } from "../support/languagePrograms";
import { SECRET_SIG } from "../../scripts/engine/stack";

type Resource<Outputs> = new (
  name: string,
  args: Record<string, unknown>,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource & Outputs;

/** The part of the built SDK this program uses. */
interface NodeSdk {
  PipeSettings: Resource<{ dbMaxThreads: pulumi.Output<number | undefined> }>;
  ApiKey: Resource<{
    keyId: pulumi.Output<string>;
    keySecret: pulumi.Output<string>;
    keySuffix: pulumi.Output<string>;
  }>;
  Alert: Resource<Record<never, never>>;
}

function program(sdk: NodeSdk): PulumiFn {
  return async () => {
    const settings = new sdk.PipeSettings("ingest", { ...PIPE_IDS, dbMaxThreads: 8, resetOnDelete: true });
    const key = new sdk.ApiKey("deployer", {
      organizationId: PIPE_IDS.organizationId,
      name: "deployer",
      roles: ["developer"],
    });
    const alert = new sdk.Alert("ingest-lag", {
      name: "Ingest lag",
      message: pulumi.interpolate`Ingest lag (deploy key ending ${key.keySuffix})`,
      source: "search",
      threshold: 300,
      thresholdType: "above",
      interval: "5m",
      channel: { type: "webhook", webhookId: "ops-oncall" },
    });
    return { keySecret: key.keySecret, dbMaxThreads: settings.dbMaxThreads, alertId: alert.id };
  };
}

describe("a TypeScript program using the generated Node.js SDK", () => {
  let emu: RunningEmulator;
  let stack: EngineStack;
  pluginOnPath();

  beforeAll(async () => {
    const built = join(scratch("node-sdk"), "nodejs");
    cpSync(join(sdkDir(), "nodejs"), built, { recursive: true });
    // Our @pulumi/pulumi, the one this inline program's runtime is: one copy in the process.
    symlinkSync(join(repoRoot(), "node_modules"), join(built, "node_modules"));
    await run(process.execPath, [join(repoRoot(), "node_modules", "typescript", "bin", "tsc"), "-p", built]);
    // The SDK reads its version from a package.json beside its compiled files, as Pulumi's provider builds copy it.
    copyFileSync(join(built, "package.json"), join(built, "bin", "package.json"));
    const sdk = createRequire(join(built, "package.json"))("./bin/index.js") as NodeSdk;
    ({ emu, stack } = await newStack("node-sdk", program(sdk), {
      emulator: { rateLimits: { cloud: false, alerting: false } },
    }));
  }, 300_000);

  it("creates the pipe settings, the key and the alert", async () => {
    const result = succeeded(await stack.up());
    expect(
      result.steps
        .filter((s) => s.op === "create")
        .map((s) => s.name)
        .sort(),
    ).toEqual(["deployer", "ingest", "ingest-lag"]);
    expect(Object.keys(emu.snapshot().keys)).toHaveLength(1);
    expect(emu.snapshot().pipes[PIPE_RESOURCE_ID]?.db_max_threads).toBe(8);
  });

  it("records them under the native types, keySecret a secret in state", () => {
    const state = ourState(stack);
    expect([...state.values()].map((r) => r.type).sort()).toEqual([
      "alertpipe:index:Alert",
      "alertpipe:index:ApiKey",
      "alertpipe:index:PipeSettings",
    ]);
    expect(
      (state.get("deployer")?.outputs?.keySecret as Record<string, unknown> | undefined)?.[
        "4dabf18193072939515e22adb298388d"
      ],
    ).toBe(SECRET_SIG);
  });

  it("destroys all three", async () => {
    succeeded(await stack.destroy());
    expect(emu.snapshot().keys).toEqual({});
    expect(emu.snapshot().alerts).toEqual({});
  });
});
