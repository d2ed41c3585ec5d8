// The runtime context (provider/runtime/runtime.ts): one object holds what a provider process keeps
// for all its calls, one reset puts back a fresh process's state, every copy of the package in a
// process shares it, and loading it costs no undici or zod (the cold start).

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { claimForThisRun } from "../../provider/creation/runClaims";
import { configure } from "../../provider/runtime/connection";
import { DEFAULT_RETRY_POLICY } from "../../provider/http/retry";
import {
  DEFAULT_TIMINGS,
  forgetListingsUnder,
  resetRuntime,
  runtime,
  toStderr,
  useRuntime,
} from "../../provider/runtime/runtime";

const root = join(__dirname, "..", "..");

afterEach(() => {
  resetRuntime();
});

describe("the runtime context", () => {
  it("is put back as a fresh process has it by the one reset: no config, claim, listing or replacement, reads by list, the default policy, timings and notices", async () => {
    const agent = new MockAgent();
    configure({ get: () => "https://config.example.test" });
    claimForThisRun("a pipe", ["dbMaxThreads"]);
    runtime().listings.set("k", { credentialId: "c", path: "/p", secrets: [], items: Promise.resolve(new Map()) });
    useRuntime({
      dispatcher: agent,
      retryPolicy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 },
      notices: () => {},
      timings: { secondLookMs: 1 },
      readByList: false,
    });
    resetRuntime();
    const rt = runtime();
    expect({
      config: rt.config,
      dispatcher: rt.dispatcher,
      claims: rt.runClaims.size,
      listings: rt.listings.size,
      readByList: rt.readByList,
    }).toEqual({
      config: undefined,
      dispatcher: undefined,
      claims: 0,
      listings: 0,
      readByList: true,
    });
    expect({ policy: rt.retryPolicy, timings: rt.timings, notices: rt.notices }).toEqual({
      policy: DEFAULT_RETRY_POLICY,
      timings: DEFAULT_TIMINGS,
      notices: toStderr,
    });
    await agent.close();
  });

  it("drops on a write only the listings of the collection written to, with the same credential", () => {
    const keys = "/v1/organizations/o1/keys";
    const listing = (credentialId: string, path: string) => ({
      credentialId,
      path,
      secrets: [],
      items: Promise.resolve(new Map()),
    });
    const listings = runtime().listings;
    listings.set("own keys", listing("c1", keys));
    listings.set("other credential's", listing("c2", keys));
    listings.set("other organization's", listing("c1", "/v1/organizations/o10/keys"));
    listings.set("alerts", listing("c1", "/api/v2/alerts"));
    forgetListingsUnder("c1", `${keys}/k1`);
    expect([...listings.keys()]).toEqual(["other credential's", "other organization's", "alerts"]);
    forgetListingsUnder("c1", "/v1/organizations/o1/services/s/pipes/p/settings");
    expect(listings.size).toBe(3);
  });

  it("sets one timing alone, leaving the others as they were", () => {
    useRuntime({ timings: { secondLookMs: 7 } });
    expect(runtime().timings).toEqual({ ...DEFAULT_TIMINGS, secondLookMs: 7 });
  });

  it("is shared by a second copy of the package loaded in the same process", () => {
    const script = `
      const a = require(${JSON.stringify(transpiledCopy("a"))});
      const b = require(${JSON.stringify(transpiledCopy("b"))});
      a.useRuntime({ timings: { secondLookMs: 7 } });
      console.log(JSON.stringify({ same: a.runtime() === b.runtime(), secondLookMs: b.runtime().timings.secondLookMs }));
    `;
    expect(JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim())).toEqual({
      same: true,
      secondLookMs: 7,
    });
  });

  it("loads neither undici nor zod when imported, so a provider process starts without them", () => {
    const script = `
      require(${JSON.stringify(transpiledCopy("a"))}).runtime();
      console.log(JSON.stringify(Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/](undici|zod)[\\\\/]/.test(f))));
    `;
    expect(JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim())).toEqual([]);
  });
});

/**
 * runtime.ts and the one module it loads (http/retry.ts) as plain JavaScript for a fresh Node
 * process, in a folder of their own named `copy` (two folders are two copies of the package), beside
 * node_modules so that undici and zod would resolve if anything asked for them.
 */
function transpiledCopy(copy: string): string {
  const dir = join(root, "node_modules", ".cache", "alertpipe-unit", `runtime-${copy}`);
  for (const file of ["runtime/runtime.ts", "http/retry.ts"]) {
    const out = join(dir, file.replace(/\.ts$/, ".js"));
    mkdirSync(dirname(out), { recursive: true });
    const js = ts.transpileModule(readFileSync(join(root, "provider", file), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(out, js.outputText);
  }
  return join(dir, "runtime", "runtime.js");
}
