// The example program, unmodified, through the whole lifecycle on the real Pulumi engine (the CLI,
// driven by the Automation API with the example as an inline program), the packed package installed
// in the program's node_modules, against the bundled emulator.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { EmulatorOptions } from "../../emulator";
import type { RunningEmulator } from "../support/engine";
import {
  byHand,
  CREDENTIAL_READS,
  credentialChecks,
  expectExampleMade,
  newStack,
  ourState,
  requestLog,
  sharedStack,
  told,
} from "../support/engine";
import { PIPE_IDS as PIPE, PIPE_RESOURCE_ID as PIPE_KEY } from "../support/fixtures";

const OTHER_PIPE = "2c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bee";

/** The example on an emulator of its own, with plain config values added. */
function example(name: string, config: Record<string, string> = {}, emulator: EmulatorOptions = {}) {
  return newStack(name, undefined, {
    emulator,
    config: Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])),
  });
}

function cloudRequests(emulator: RunningEmulator, method?: string) {
  return emulator.requests.filter((r) => r.area === "cloud" && (method === undefined || r.method === method));
}

describe("the example stack on the real engine", () => {
  describe("a whole lifecycle", () => {
    // The example's own program: no program given.
    const t = sharedStack("lifecycle");

    it("previews three creates with unknown outputs and sends nothing but one check per credential", async () => {
      const result = await t.stack.preview();
      expect(result.ok, result.error).toBe(true);
      const ours = result.steps.filter((step) => step.type.startsWith("pulumi-nodejs:dynamic/alertpipe:"));
      expect(ours.map((step) => `${step.op} ${step.name}`).sort()).toEqual([
        "create deployer",
        "create ingest",
        "create ingest-lag",
      ]);
      expect(requestLog(t.emu)).toEqual([]);
      expect(credentialChecks(t.emu).sort()).toEqual(Object.values(CREDENTIAL_READS).sort());
    });

    it("creates the pipe settings, the key and the alert with one request each, the alert's spelling asked first", async () => {
      const result = await t.stack.up();
      expect(result.ok, result.error).toBe(true);
      expectExampleMade(t.emu);
      // The search alert's create first asks the service's spelling of `source` (alert/dialect.ts): a 404, the contract's.
      // Besides the credentials' checks of the preview before and of this up.
      expect(
        t.emu.requests
          .filter((r) => !(r.method === "GET" && ["/v1/organizations", "/api/v2/alerts"].includes(r.path)))
          .map((r) => `${r.method} ${r.path === "/api/v2" ? "/api/v2 " : ""}${r.status}`)
          .sort(),
      ).toEqual(["GET /api/v2 404", "POST 200", "POST 200", "PUT 200"].sort());
    });

    it("keeps the key secret encrypted in state and shows the alert built from other outputs", async () => {
      const key = Object.values(t.emu.snapshot().keys)[0];
      expect(key).toBeDefined();
      const result = await t.stack.up();
      expect(result.outputs.deployerKeyId?.value).toBe(key?.keyId);
      expect(result.outputs.deployerKeySecret?.secret).toBe(true);
      expect(t.stack.readStateFile()).not.toContain(t.emu.keySecret);
      const alert = Object.values(t.emu.snapshot().alerts)[0];
      expect(alert?.message).toContain(PIPE.pipeId);
      expect(alert?.message).toContain(key?.keySuffix ?? "missing");
    });

    it("changes nothing and sends no write on an unchanged program", async () => {
      t.emu.resetRequestLog();
      const result = await t.stack.up();
      expect(result.ok, result.error).toBe(true);
      expect(result.steps.filter((step) => step.op !== "same")).toEqual([]);
      expect(t.emu.requests.filter((r) => r.method !== "GET")).toEqual([]);
    });

    it("updates one setting in place with one PUT of that setting alone", async () => {
      t.emu.resetRequestLog();
      await t.stack.setConfig({ "alertpipe-example:dbMaxThreads": { value: "16" } });
      const result = await t.stack.up();
      expect(result.ok, result.error).toBe(true);
      expect(result.steps.filter((step) => step.op !== "same").map((step) => `${step.op} ${step.name}`)).toEqual([
        "update ingest",
      ]);
      expect(requestLog(t.emu)).toEqual([
        `PUT /v1/organizations/${PIPE.organizationId}/services/${PIPE.serviceId}/pipes/${PIPE.pipeId}/settings`,
      ]);
      expect(t.emu.snapshot().pipes[PIPE_KEY]?.db_max_threads).toBe(16);
    });

    it("shows drift on refresh after an out-of-band change, and up puts it back", async () => {
      await byHand(
        t.emu,
        "PUT",
        `/v1/organizations/${PIPE.organizationId}/services/${PIPE.serviceId}/pipes/${PIPE.pipeId}/settings`,
        { db_max_threads: 2 },
      );
      const refreshed = await t.stack.refresh();
      expect(refreshed.ok, refreshed.error).toBe(true);
      expect(refreshed.steps.find((step) => step.name === "ingest")?.op).toBe("refresh-update");
      const preview = await t.stack.preview();
      expect(preview.steps.find((step) => step.name === "ingest")?.op).toBe("update");
      await t.stack.up();
      expect(t.emu.snapshot().pipes[PIPE_KEY]?.db_max_threads).toBe(16);
    });

    it("forgets an alert deleted out of band on refresh, and up creates it again", async () => {
      const [alertId] = Object.keys(t.emu.snapshot().alerts);
      await byHand(t.emu, "DELETE", `/api/v2/alerts/${alertId}`);
      const refreshed = await t.stack.refresh();
      expect(refreshed.steps.find((step) => step.name === "ingest-lag")?.op).toBe("refresh-delete");
      const result = await t.stack.up();
      expect(result.steps.find((step) => step.name === "ingest-lag")?.op).toBe("create");
      expect(Object.keys(t.emu.snapshot().alerts)).toHaveLength(1);
    });

    it("replaces the pipe settings when the pipe changes: the new pipe is set, the old one reset", async () => {
      await t.stack.setConfig({ "alertpipe-example:pipeId": { value: OTHER_PIPE } });
      const result = await t.stack.up();
      expect(result.ok, result.error).toBe(true);
      expect(result.steps.find((step) => step.name === "ingest")?.op).toBe("replace");
      const pipes = t.emu.snapshot().pipes;
      expect(pipes[`${PIPE.organizationId}/${PIPE.serviceId}/${OTHER_PIPE}`]?.db_max_threads).toBe(16);
      expect(pipes[PIPE_KEY]?.db_max_threads).toBeNull();
    });

    it("destroys everything it made, leaving no alert, no key and no setting behind", async () => {
      const result = await t.stack.destroy();
      expect(result.ok, result.error).toBe(true);
      const snap = t.emu.snapshot();
      expect(snap.alerts).toEqual({});
      expect(snap.keys).toEqual({});
      for (const settings of Object.values(snap.pipes))
        expect(Object.values(settings).every((v) => v === null)).toBe(true);
    });
  });

  describe("bad input and bad credentials", () => {
    it("fails preview on an out-of-range setting, naming it, before any request", async () => {
      const { emu, stack: s } = await example("invalid", { "alertpipe-example:dbMaxThreads": "65" });
      const result = await s.preview();
      expect(result.ok).toBe(false);
      expect(told(result)).toMatch(/has a problem: \[INVALID_INPUT\] dbMaxThreads must be an integer from 0 to 64/);
      expect(requestLog(emu)).toEqual([]);
    });

    it("fails up with a clear 401 on a wrong key secret, and never prints the secret", async () => {
      const wrong = "wrong-secret-canary-31ab";
      const { stack: s } = await newStack("badcreds", undefined, {
        config: { "alertpipe:cloudKeySecret": { value: wrong, secret: true } },
      });
      const result = await s.up();
      expect(result.ok).toBe(false);
      expect(told(result)).toMatch(/401/);
      expect(told(result)).not.toContain(wrong);
      expect(s.readStateFile()).not.toContain(wrong);
    });
  });

  describe("faults on the way", () => {
    it("rides out 429 bursts when pacing is off", async () => {
      const limits = { rateLimits: { cloud: { requests: 1, perSeconds: 1 } } };
      const { emu, stack: s } = await example("unpaced", { "alertpipe:cloudRateLimit": "off" }, limits);
      const result = await s.up();
      expect(result.ok, result.error).toBe(true);
      expect(cloudRequests(emu).some((r) => r.status === 429)).toBe(true);
      expect(Object.keys(emu.snapshot().keys)).toHaveLength(1);
    });

    it("paces up and destroy to zero 429s when pacing matches the service's limit", async () => {
      const limits = { rateLimits: { cloud: { requests: 1, perSeconds: 1 } } };
      // Destroy configures the provider from the config stored in state, so pacing is set before up.
      const { emu, stack: s } = await example("paced", { "alertpipe:cloudRateLimit": "1/1" }, limits);
      const up = await s.up();
      expect(up.ok, up.error).toBe(true);
      // Each run is a new provider process, which cannot know the last run's requests: let the
      // service's window close first, as it would between two runs of a user.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const destroy = await s.destroy();
      expect(destroy.ok, destroy.error).toBe(true);
      expect(Object.keys(emu.snapshot().keys)).toEqual([]);
      expect(cloudRequests(emu).filter((r) => r.status === 429)).toEqual([]);
    });

    it("retries 503s on an idempotent update and succeeds", async () => {
      const { emu, stack: s } = await example("unavailable");
      expect((await s.up()).ok).toBe(true);
      emu.setFaults({ failNext: 2 });
      await s.setConfig({ "alertpipe-example:dbMaxThreads": { value: "12" } });
      const result = await s.up();
      expect(result.ok, result.error).toBe(true);
      expect(emu.snapshot().pipes[PIPE_KEY]?.db_max_threads).toBe(12);
    });

    it("leaves one key, the one in state, when the connection is cut after the key was made, and says it made it again", async () => {
      const { emu, stack: s } = await example("cut");
      emu.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 } });
      const result = await s.up();
      expect(result.ok, result.error).toBe(true);
      expect(told(result)).toContain('found the API key "deployer" it made');
      // The key the cut answer made is unusable (its secret was in that answer): deleted, made again once.
      expect(cloudRequests(emu, "POST")).toHaveLength(2);
      expect(cloudRequests(emu, "DELETE")).toHaveLength(1);
      const keys = Object.keys(emu.snapshot().keys);
      expect(keys).toHaveLength(1);
      expect(ourState(s).get("deployer")?.id).toBe(keys[0]);
    });
  });

  describe("secret hygiene", () => {
    it("keeps canary credentials and the created key's secret out of state, export, logs, errors and __provider", async () => {
      const canary = { token: "canary-token-e2e-8c1d", keySecret: "canary-secret-e2e-4f9a" };
      const { emu, stack: s } = await example("hygiene", {}, canary);
      const up = await s.up();
      expect(up.ok, up.error).toBe(true);
      const again = await s.up();
      const state = s.readStateFile();
      const exported = await s.exportText();
      const keyHashes = Object.values(emu.snapshot().keys).map((k) => k.keySecretSha256);
      expect(keyHashes).toHaveLength(1);
      const destroy = await s.destroy();
      const texts = [state, exported, told(up), told(again), told(destroy), JSON.stringify(up.outputs.deployerKeyId)];
      for (const text of texts) {
        expect(text).not.toContain(canary.token);
        expect(text).not.toContain(canary.keySecret);
        // The created key's secret is known to the emulator only by its hash: no token anywhere may hash to it.
        const leaked = (text.match(/[A-Za-z0-9_-]{40}/g) ?? []).filter((t) =>
          keyHashes.includes(createHash("sha256").update(t).digest("hex")),
        );
        expect(leaked).toEqual([]);
      }
    });
  });
});
