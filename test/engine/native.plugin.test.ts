// The native plugin, `pulumi-resource-alertpipe` as the packed package installs it, started by the
// real Pulumi engine (found on PATH, as npm's node_modules/.bin puts it there) for a TypeScript
// inline program of `pulumi.CustomResource("alertpipe:index:ApiKey", ...)`, against the bundled
// emulator. What only a native provider can do is proven here on the engine itself: a detailed
// diff, replaceOnChanges, import, and a secret the plugin marks.

import { delimiter } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import {
  byHand,
  emulator as startEmulator,
  pluginFolder,
  stackOn,
  succeeded,
  told,
  type EngineStack,
  type RunResult,
  type StateResource,
} from "../support/engine";
import { ORG_ID } from "../support/fixtures";
import { SECRET_SIG } from "../../scripts/engine/stack";

const API_KEY = "alertpipe:index:ApiKey";

interface KeyArgs {
  name: string;
  roles: string[];
}

/** A key of the native provider, as a program without a generated SDK declares it. */
class NativeApiKey extends pulumi.CustomResource {
  constructor(name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super(API_KEY, name, props, opts);
  }
}

/** The program: one key made through the plugin, and, when asked, one more taken in by `import`. */
function program(
  args: KeyArgs,
  opts: pulumi.CustomResourceOptions = {},
  imported?: { id: string; args: KeyArgs },
): PulumiFn {
  return async () => {
    const outputs = { keyId: undefined, keySecret: undefined, keySuffix: undefined, managedArgs: undefined };
    new NativeApiKey("deployer", { organizationId: ORG_ID, ...args, ...outputs }, opts);
    if (imported !== undefined)
      new NativeApiKey("imported", { organizationId: ORG_ID, ...imported.args }, { import: imported.id });
  };
}

const DEPLOYER: KeyArgs = { name: "deployer", roles: ["developer"] };

/** Our resources in the stack's state file, by name. */
function nativeState(s: EngineStack): Map<string, StateResource> {
  const state = JSON.parse(s.readStateFile()) as { checkpoint: { latest?: { resources?: StateResource[] } } };
  return new Map(
    (state.checkpoint.latest?.resources ?? [])
      .filter((r) => r.type === API_KEY)
      .map((r) => [r.urn.split("::").pop() ?? "", r]),
  );
}

/** The engine's steps for `name`, by its own events: each op in order, and the properties it names as changed or replacing. */
function stepOf(
  result: RunResult,
  name: string,
): { op: string; ops: string[]; diffs: string[]; keys: string[] } | undefined {
  const ops: string[] = [];
  let diffs: string[] = [];
  let keys: string[] = [];
  for (const e of result.events) {
    const m = e.resourcePreEvent?.metadata;
    if (m === undefined || !m.urn.endsWith(`::${name}`) || m.type !== API_KEY) continue;
    ops.push(m.op);
    if ((m.diffs ?? []).length > 0) diffs = m.diffs ?? [];
    if ((m.keys ?? []).length > 0) keys = m.keys ?? [];
  }
  // A replacement is three steps (create-replacement, replace, delete-replaced); "replace" names it.
  const op = ops.includes("replace") ? "replace" : ops[0];
  return op === undefined ? undefined : { op, ops, diffs, keys };
}

const writes = (emu: RunningEmulator) =>
  emu.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

describe("the native plugin on the real engine", () => {
  let emu: RunningEmulator;
  let stack: EngineStack;
  let pluginDir: string;
  const savedPath = process.env.PATH;

  beforeAll(async () => {
    pluginDir = pluginFolder();
    // The stack's CLI takes this process's PATH, behind its own folder.
    process.env.PATH = `${pluginDir}${delimiter}${savedPath ?? ""}`;
    emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    stack = await stackOn(emu, "native", {
      program: program(DEPLOYER),
      config: { "alertpipe:cloudRateLimit": { value: "off" }, "alertpipe:alertingRateLimit": { value: "off" } },
    });
  });

  afterAll(() => {
    process.env.PATH = savedPath;
  });

  it("creates the key through the plugin, found on PATH, with one POST", async () => {
    const t0 = Date.now();
    const result = succeeded(await stack.up());
    console.log(`native up (create): ${Date.now() - t0} ms`);
    expect(stepOf(result, "deployer")?.op).toBe("create");
    expect(writes(emu)).toEqual([`POST /v1/organizations/${ORG_ID}/keys`]);
    expect(told(result)).toContain("using pulumi-resource-alertpipe from $PATH");
  });

  it("keeps keySecret as a secret in state, which the plugin marked, never in plain text", () => {
    const key = nativeState(stack).get("deployer");
    expect((key?.outputs?.keySecret as Record<string, unknown> | undefined)?.["4dabf18193072939515e22adb298388d"]).toBe(
      SECRET_SIG,
    );
    expect(stack.readStateFile()).not.toMatch(/"keySecret":\s*"/);
  });

  it("previews the same program as no change", async () => {
    const t0 = Date.now();
    const result = succeeded(await stack.preview());
    console.log(`native preview (no change): ${Date.now() - t0} ms`);
    expect(stepOf(result, "deployer")?.op).toBe("same");
  });

  it("names only the changed property in an update's detailed diff", async () => {
    const result = succeeded(await stack.preview({ program: program({ ...DEPLOYER, name: "renamed" }), diff: true }));
    expect(stepOf(result, "deployer")).toMatchObject({ op: "update", diffs: ["name"] });
  });

  it("turns that update into a replacement when the program says replaceOnChanges", async () => {
    const result = succeeded(
      await stack.preview({ program: program({ ...DEPLOYER, name: "renamed" }, { replaceOnChanges: ["name"] }) }),
    );
    expect(stepOf(result, "deployer")).toMatchObject({
      ops: ["create-replacement", "replace", "delete-replaced"],
      keys: ["name"],
    });
  });

  it("finds a change made by hand on refresh and puts it back on up", async () => {
    const id = nativeState(stack).get("deployer")?.id ?? "";
    await byHand(emu, "PATCH", `/v1/organizations/${ORG_ID}/keys/${id}`, { name: "by hand" });
    succeeded(await stack.refresh());
    expect(nativeState(stack).get("deployer")?.outputs?.name).toBe("by hand");
    emu.resetRequestLog();
    succeeded(await stack.up());
    expect(writes(emu)).toEqual([`PATCH /v1/organizations/${ORG_ID}/keys/${id}`]);
    expect(nativeState(stack).get("deployer")?.outputs?.name).toBe("deployer");
  });

  it("imports a key made by hand by <organizationId>/<id>, with no write, its resource id the key's uuid", async () => {
    const made = (await byHand(emu, "POST", `/v1/organizations/${ORG_ID}/keys`, { name: "ci", roles: ["admin"] })) as {
      result: { key: { id: string } };
    };
    const id = made.result.key.id;
    emu.resetRequestLog();
    const result = succeeded(
      await stack.up({
        program: program(DEPLOYER, {}, { id: `${ORG_ID}/${id}`, args: { name: "ci", roles: ["admin"] } }),
      }),
    );
    expect(stepOf(result, "imported")?.op).toBe("import");
    expect(writes(emu)).toEqual([]);
    expect(nativeState(stack).get("imported")?.id).toBe(id);
  });

  it("destroys every key it manages", async () => {
    succeeded(await stack.destroy());
    expect(Object.keys(emu.snapshot().keys)).toEqual([]);
  });
});
