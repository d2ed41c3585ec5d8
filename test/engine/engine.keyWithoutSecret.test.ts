// A key whose create was answered without its secret, on the real engine: the first up keeps it in
// state with an error; the next preview proposes replacing it, saying why, instead of clearing the
// error with no request; the up after replaces it, leaving one key on the service whose pair logs
// in. The emulator always answers the secret, so a proxy in front of it drops it from the first
// POST's answer, as a faulty service would.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { EngineStack, RunResult } from "../support/engine";
import {
  changes,
  emulator as startEmulator,
  installedPackage,
  ourState,
  stackOn,
  statusWithKey,
  succeeded,
  told,
} from "../support/engine";
import { ORG_ID } from "../support/fixtures";
import { DEPLOYER_KEY, keyOutputs } from "../support/programs";

/** Forwards every request to the emulator; drops `result.keySecret` from the first 2xx answer to a key POST. */
async function secretDroppingProxy(emu: RunningEmulator): Promise<Server> {
  let dropped = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const body = chunks.length === 0 ? undefined : Buffer.concat(chunks).toString("utf8");
        const headers: Record<string, string> = {};
        for (const name of ["authorization", "content-type", "accept"]) {
          const value = req.headers[name];
          if (typeof value === "string") headers[name] = value;
        }
        const answer = await fetch(emu.url + (req.url ?? "/"), {
          method: req.method ?? "GET",
          headers,
          ...(body === undefined ? {} : { body }),
        });
        let text = await answer.text();
        if (!dropped && req.method === "POST" && /\/keys$/.test(req.url ?? "") && answer.ok) {
          dropped = true;
          const parsed = JSON.parse(text) as { result: Record<string, unknown> };
          delete parsed.result.keySecret;
          text = JSON.stringify(parsed);
        }
        res.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

describe("a key created without its secret, on the real engine", () => {
  let emu: RunningEmulator;
  let proxy: Server;
  let s: EngineStack;
  let preview: RunResult;

  beforeAll(async () => {
    emu = await startEmulator();
    proxy = await secretDroppingProxy(emu);
    const { ApiKey } = installedPackage();
    const program: PulumiFn = async () => keyOutputs(new ApiKey("deployer", DEPLOYER_KEY));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    s = await stackOn(emu, "key-without-secret", { program, config: { "alertpipe:cloudUrl": { value: url } } });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it("fails the first up, keeping the key in state with an error and without a secret", async () => {
    const up = await s.up();
    expect(up.ok).toBe(false);
    const kept = ourState(s).get("deployer");
    expect(kept?.id).toBe(Object.keys(emu.snapshot().keys)[0]);
    expect(kept?.initErrors?.join("\n")).toContain("the next pulumi up replaces it");
    expect(kept?.outputs?.keySecret).toBeUndefined();
  });

  it("shows a replacement of the key in the next preview, saying why", async () => {
    preview = succeeded(await s.preview());
    expect(changes(preview)).toContain("replace deployer");
    expect(told(preview)).toContain("was created without its key ID or secret in the answer, so nobody can use it");
  });

  it("replaces it on the next up: one key on the service, the one in state, whose pair logs in", async () => {
    const unusable = ourState(s).get("deployer")?.id;
    const up = succeeded(await s.up());
    const ids = Object.keys(emu.snapshot().keys);
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(unusable);
    expect(ourState(s).get("deployer")?.id).toBe(ids[0]);
    expect(await statusWithKey(emu, ORG_ID, String(up.outputs.keyId?.value), String(up.outputs.keySecret?.value))).toBe(
      200,
    );
  });

  it("changes nothing on the up after", async () => {
    expect(changes(succeeded(await s.up()))).toEqual([]);
  });
});
