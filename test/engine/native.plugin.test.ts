// The native plugin, `pulumi-resource-alertpipe` as the packed package installs it, started by the
// real Pulumi engine (found on PATH, as npm's node_modules/.bin puts it there) for a TypeScript
// inline program of `pulumi.CustomResource("alertpipe:index:ApiKey", ...)`, against the bundled
// emulator. What only a native provider can do is proven here on the engine itself: a detailed
// diff, replaceOnChanges, import, and a secret the plugin marks.

import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../support/engine";
import { byHand, ourState, pluginOnPath, requestLog, sharedStack, succeeded, told } from "../support/engine";
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

const isWrite = (method: string) => method !== "GET";

describe("the native plugin on the real engine", () => {
  pluginOnPath();
  const t = sharedStack("native", program(DEPLOYER), {
    emulator: { rateLimits: { cloud: false, alerting: false } },
    config: { "alertpipe:cloudRateLimit": { value: "off" }, "alertpipe:alertingRateLimit": { value: "off" } },
  });

  it("creates the key through the plugin, found on PATH, with one POST", async () => {
    const t0 = Date.now();
    const result = succeeded(await t.stack.up());
    console.log(`native up (create): ${Date.now() - t0} ms`);
    expect(stepOf(result, "deployer")?.op).toBe("create");
    expect(requestLog(t.emu, isWrite)).toEqual([`POST /v1/organizations/${ORG_ID}/keys`]);
    expect(told(result)).toContain("using pulumi-resource-alertpipe from $PATH");
  });

  it("keeps keySecret as a secret in state, which the plugin marked, never in plain text", () => {
    const key = ourState(t.stack).get("deployer");
    expect((key?.outputs?.keySecret as Record<string, unknown> | undefined)?.["4dabf18193072939515e22adb298388d"]).toBe(
      SECRET_SIG,
    );
    expect(t.stack.readStateFile()).not.toMatch(/"keySecret":\s*"/);
  });

  it("previews the same program as no change", async () => {
    const t0 = Date.now();
    const result = succeeded(await t.stack.preview());
    console.log(`native preview (no change): ${Date.now() - t0} ms`);
    expect(stepOf(result, "deployer")?.op).toBe("same");
  });

  it("names only the changed property in an update's detailed diff", async () => {
    const result = succeeded(await t.stack.preview({ program: program({ ...DEPLOYER, name: "renamed" }), diff: true }));
    expect(stepOf(result, "deployer")).toMatchObject({ op: "update", diffs: ["name"] });
  });

  it("turns that update into a replacement when the program says replaceOnChanges", async () => {
    const result = succeeded(
      await t.stack.preview({ program: program({ ...DEPLOYER, name: "renamed" }, { replaceOnChanges: ["name"] }) }),
    );
    expect(stepOf(result, "deployer")).toMatchObject({
      ops: ["create-replacement", "replace", "delete-replaced"],
      keys: ["name"],
    });
  });

  it("finds a change made by hand on refresh and puts it back on up", async () => {
    const id = ourState(t.stack).get("deployer")?.id ?? "";
    await byHand(t.emu, "PATCH", `/v1/organizations/${ORG_ID}/keys/${id}`, { name: "by hand" });
    succeeded(await t.stack.refresh());
    expect(ourState(t.stack).get("deployer")?.outputs?.name).toBe("by hand");
    t.emu.resetRequestLog();
    succeeded(await t.stack.up());
    expect(requestLog(t.emu, isWrite)).toEqual([`PATCH /v1/organizations/${ORG_ID}/keys/${id}`]);
    expect(ourState(t.stack).get("deployer")?.outputs?.name).toBe("deployer");
  });

  it("imports a key made by hand by <organizationId>/<id>, with no write, its resource id the key's uuid", async () => {
    const made = (await byHand(t.emu, "POST", `/v1/organizations/${ORG_ID}/keys`, {
      name: "ci",
      roles: ["admin"],
    })) as {
      result: { key: { id: string } };
    };
    const id = made.result.key.id;
    t.emu.resetRequestLog();
    const result = succeeded(
      await t.stack.up({
        program: program(DEPLOYER, {}, { id: `${ORG_ID}/${id}`, args: { name: "ci", roles: ["admin"] } }),
      }),
    );
    expect(stepOf(result, "imported")?.op).toBe("import");
    expect(requestLog(t.emu, isWrite)).toEqual([]);
    expect(ourState(t.stack).get("imported")?.id).toBe(id);
  });

  it("destroys every key it manages", async () => {
    succeeded(await t.stack.destroy());
    expect(Object.keys(t.emu.snapshot().keys)).toEqual([]);
  });
});
