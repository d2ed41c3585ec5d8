// Moving a TypeScript stack from the dynamic classes to the native resources, on the real engine:
// the same stack, first made by `Alert`, `PipeSettings` and `ApiKey` (pulumi-alertpipe as the packed
// package installs it), then run with the native plugin's resources under the same names, each with
// `aliases: [{ type: "pulumi-nodejs:dynamic/alertpipe:<Kind>" }]` and the same arguments. Nothing is
// deleted, created or written on the service, the ids stay, and the key keeps the secret the service
// will never send again. docs/guides/other-languages.md gives these steps to users.

import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { delimiter } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import {
  emulator,
  installedPackage,
  ourState,
  pluginFolder,
  requestLog,
  stackOn,
  succeeded,
  type EngineStack,
  type StateResource,
} from "../support/engine";
import { PIPE_IDS, PIPE_RESOURCE_ID } from "../support/fixtures";
import { SECRET_SIG } from "../../scripts/engine/stack";
import { DEPLOYER_KEY, LAG_ALERT } from "../support/programs";

const KINDS = ["Alert", "PipeSettings", "ApiKey"] as const;
type Kind = (typeof KINDS)[number];

/** Each resource's arguments, the same in both programs. */
const ARGS: Record<Kind, Record<string, unknown>> = {
  PipeSettings: { ...PIPE_IDS, dbMaxThreads: 8, resetOnDelete: true },
  ApiKey: { ...DEPLOYER_KEY },
  Alert: { ...LAG_ALERT },
};

const NAMES: Record<Kind, string> = { PipeSettings: "ingest", ApiKey: "deployer", Alert: "ingest-lag" };

/** The stack as the dynamic classes made it. */
const dynamicProgram: PulumiFn = async () => {
  const { Alert, ApiKey, PipeSettings } = installedPackage();
  new PipeSettings(NAMES.PipeSettings, ARGS.PipeSettings as unknown as ConstructorParameters<typeof PipeSettings>[1]);
  const key = new ApiKey(NAMES.ApiKey, ARGS.ApiKey as unknown as ConstructorParameters<typeof ApiKey>[1]);
  new Alert(NAMES.Alert, ARGS.Alert as unknown as ConstructorParameters<typeof Alert>[1]);
  return { keySecret: key.keySecret };
};

/** A native resource, as a program without the generated SDK declares it; `keySecret` and `keyId` read back. */
class Native extends pulumi.CustomResource {
  declare readonly keySecret: pulumi.Output<string | undefined>;
  constructor(kind: Kind, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions) {
    super(`alertpipe:index:${kind}`, name, props, opts);
  }
}

/** The same stack with the native resources, each aliased to the dynamic type it was. */
const nativeProgram: PulumiFn = async () => {
  const made = KINDS.map(
    (kind) =>
      new Native(kind, NAMES[kind], kind === "ApiKey" ? { ...ARGS[kind], keySecret: undefined } : ARGS[kind], {
        aliases: [{ type: `pulumi-nodejs:dynamic/alertpipe:${kind}` }],
        ...(kind === "ApiKey" ? { additionalSecretOutputs: ["keySecret"] } : {}),
      }),
  );
  return { keySecret: made[KINDS.indexOf("ApiKey")]?.keySecret };
};

/** Type and id of each of our resources in the state, by name. */
function typesAndIds(state: Map<string, StateResource>): Record<string, { type: string; id: string | undefined }> {
  return Object.fromEntries([...state].map(([name, r]) => [name, { type: r.type, id: r.id }]));
}

describe("moving a stack from the dynamic classes to the native resources with aliases", () => {
  let emu: RunningEmulator;
  let stack: EngineStack;
  let before: Map<string, StateResource>;
  let keySecretBefore: unknown;
  const savedPath = process.env.PATH;

  beforeAll(async () => {
    // The plugin as the packed package installs it, on PATH as npm's node_modules/.bin puts it.
    process.env.PATH = `${pluginFolder()}${delimiter}${savedPath ?? ""}`;
    emu = await emulator({ rateLimits: { cloud: false, alerting: false } });
    stack = await stackOn(emu, "migration", {
      program: dynamicProgram,
      config: { "alertpipe:cloudRateLimit": { value: "off" }, "alertpipe:alertingRateLimit": { value: "off" } },
    });
    const made = succeeded(await stack.up());
    keySecretBefore = made.outputs.keySecret?.value;
    before = ourState(stack);
    emu.resetRequestLog();
  });

  afterAll(() => {
    process.env.PATH = savedPath;
  });

  it("starts from the three dynamic resources, the key's secret known", () => {
    expect(
      Object.values(typesAndIds(before))
        .map((r) => r.type)
        .sort(),
    ).toEqual(KINDS.map((k) => `pulumi-nodejs:dynamic/alertpipe:${k}`).sort());
    expect(keySecretBefore).toEqual(expect.any(String));
  });

  it("previews the move as nothing to do", async () => {
    const preview = succeeded(await stack.preview({ program: nativeProgram }));
    expect(preview.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual([]);
  });

  it("moves with no request that changes anything on the service", async () => {
    emu.resetRequestLog();
    succeeded(await stack.up({ program: nativeProgram }));
    expect(requestLog(emu, (method) => method !== "GET")).toEqual([]);
  });

  it("keeps every id, now under the native types", () => {
    const after = typesAndIds(ourState(stack));
    const expected = Object.fromEntries(
      [...before].map(([name, r]) => [
        name,
        { type: r.type.replace("pulumi-nodejs:dynamic/alertpipe:", "alertpipe:index:"), id: r.id },
      ]),
    );
    expect(after).toEqual(expected);
  });

  it("keeps the key's secret, still a secret in state", async () => {
    const again = succeeded(await stack.up({ program: nativeProgram }));
    expect(again.outputs.keySecret).toEqual({ value: keySecretBefore, secret: true });
    const key = ourState(stack).get(NAMES.ApiKey);
    expect((key?.outputs?.keySecret as Record<string, unknown> | undefined)?.["4dabf18193072939515e22adb298388d"]).toBe(
      SECRET_SIG,
    );
    expect(stack.readStateFile()).not.toContain(String(keySecretBefore));
  });

  it("leaves the native resources in charge: destroy deletes the key and the alert and resets the settings", async () => {
    succeeded(await stack.destroy({ program: nativeProgram }));
    const snap = emu.snapshot();
    expect(snap.keys).toEqual({});
    expect(snap.alerts).toEqual({});
    expect(snap.pipes[PIPE_RESOURCE_ID]?.db_max_threads).toBeNull();
  });
});
