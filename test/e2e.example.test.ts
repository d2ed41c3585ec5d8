// The example program, unmodified, through the whole lifecycle as `pulumi up` runs it: Pulumi's
// own language runtime and dynamic-provider host, the packed package installed in the program's
// node_modules, against the bundled emulator. Runs through the pulumi CLI too where it is on PATH.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../emulator";
import { startEmulator } from "../emulator";
import { emulatorConfig, forgetStack, openStack, prepareExamples, type Driver, type StackHandle } from "../scripts/exampleStack";
import { pulumiCliOnPath } from "./harness/cliStack";

const PIPE = {
  organizationId: "0f8fad5b-d9cb-469f-a165-70867728950e",
  serviceId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  pipeId: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
};
const PIPE_KEY = `${PIPE.organizationId}/${PIPE.serviceId}/${PIPE.pipeId}`;
const OTHER_PIPE = "2c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bee";

const drivers: Driver[] = pulumiCliOnPath() ? ["harness", "cli"] : ["harness"];
console.log(
  drivers.includes("cli")
    ? "pulumi CLI found on PATH: the end-to-end scenarios run through the harness and through the CLI."
    : "pulumi CLI not on PATH: the end-to-end scenarios run through the engine harness only; no CLI scenario ran.",
);

let programDir: string;
beforeAll(() => {
  programDir = prepareExamples();
});

interface Env {
  emulator: RunningEmulator;
  stack(config?: Record<string, string>): StackHandle;
  statePath: string;
}

async function environment(driver: Driver, name: string, emulatorOptions: Parameters<typeof startEmulator>[0] = {}): Promise<Env> {
  const emulator = await startEmulator({ port: 0, ...emulatorOptions });
  const stackName = `e2e-${driver}-${name}`;
  forgetStack(stackName);
  const base = emulatorConfig(emulator);
  let statePath = "";
  return {
    emulator,
    get statePath() {
      return statePath;
    },
    stack(config = {}) {
      const extra = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }]));
      const handle = openStack({ driver, name: stackName, programDir, config: { ...base, ...extra } });
      statePath = handle.statePath;
      return handle;
    },
  };
}

function cloudRequests(emulator: RunningEmulator, method?: string) {
  return emulator.requests.filter((r) => r.area === "cloud" && (method === undefined || r.method === method));
}

describe.each(drivers)("the example stack through %s", (driver) => {
  describe("a whole lifecycle", () => {
    let env: Env;
    beforeAll(async () => {
      env = await environment(driver, "lifecycle");
    });
    afterAll(async () => {
      await env.emulator.close();
    });

    it("previews three creates with unknown outputs and sends no request", async () => {
      const result = await env.stack().preview();
      expect(result.ok, result.error).toBe(true);
      const ours = result.steps.filter((s) => s.type.startsWith("pulumi-nodejs:dynamic/alertpipe:"));
      expect(ours.map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create deployer", "create ingest", "create ingest-lag"]);
      expect(env.emulator.requests).toEqual([]);
    });

    it("creates the pipe settings, the key and the alert with one request each", async () => {
      const result = await env.stack().up();
      expect(result.ok, result.error).toBe(true);
      const snap = env.emulator.snapshot();
      expect(Object.keys(snap.alerts)).toHaveLength(1);
      expect(Object.keys(snap.keys)).toHaveLength(1);
      expect(snap.pipes[PIPE_KEY]).toMatchObject({ db_max_threads: 8, object_storage_concurrency: 4, streaming_max_insert_wait_ms: 1000 });
      expect(env.emulator.requests.map((r) => `${r.method} ${r.status}`).sort()).toEqual(["POST 200", "POST 201", "PUT 200"].sort());
    });

    it("keeps the key secret encrypted in state and shows the alert built from other outputs", async () => {
      const key = Object.values(env.emulator.snapshot().keys)[0];
      expect(key).toBeDefined();
      const state = readFileSync(env.statePath, "utf8");
      const result = await env.stack().up();
      expect(JSON.stringify(result.outputs.deployerKeyId)).toContain(key?.keyId ?? "missing");
      expect(JSON.stringify(result.outputs.deployerKeySecret)).not.toMatch(/[A-Za-z0-9]{20,}/);
      expect(state).not.toContain(env.emulator.keySecret);
      const alert = Object.values(env.emulator.snapshot().alerts)[0];
      expect(alert?.message).toContain(PIPE.pipeId);
      expect(alert?.message).toContain(key?.keySuffix ?? "missing");
    });

    it("changes nothing and sends no write on an unchanged program", async () => {
      env.emulator.resetRequestLog();
      const result = await env.stack().up();
      expect(result.ok, result.error).toBe(true);
      expect(result.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(env.emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
    });

    it("updates one setting in place with one PUT of that setting alone", async () => {
      env.emulator.resetRequestLog();
      const result = await env.stack({ "alertpipe-example:dbMaxThreads": "16" }).up();
      expect(result.ok, result.error).toBe(true);
      expect(result.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual(["update ingest"]);
      expect(env.emulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /v1/organizations/${PIPE.organizationId}/services/${PIPE.serviceId}/pipes/${PIPE.pipeId}/settings`]);
      expect(env.emulator.snapshot().pipes[PIPE_KEY]?.db_max_threads).toBe(16);
    });

    it("shows drift on refresh after an out-of-band change, and up puts it back", async () => {
      await fetch(`${env.emulator.url}/v1/organizations/${PIPE.organizationId}/services/${PIPE.serviceId}/pipes/${PIPE.pipeId}/settings`, {
        method: "PUT",
        headers: { authorization: `Basic ${Buffer.from(`${env.emulator.keyId}:${env.emulator.keySecret}`).toString("base64")}`, "content-type": "application/json" },
        body: JSON.stringify({ db_max_threads: 2 }),
      });
      const refreshed = await env.stack({ "alertpipe-example:dbMaxThreads": "16" }).refresh();
      expect(refreshed.ok, refreshed.error).toBe(true);
      expect(refreshed.steps.find((s) => s.name === "ingest")?.op).toBe("refresh-update");
      const preview = await env.stack({ "alertpipe-example:dbMaxThreads": "16" }).preview();
      expect(preview.steps.find((s) => s.name === "ingest")?.op).toBe("update");
      await env.stack({ "alertpipe-example:dbMaxThreads": "16" }).up();
      expect(env.emulator.snapshot().pipes[PIPE_KEY]?.db_max_threads).toBe(16);
    });

    it("forgets an alert deleted out of band on refresh, and up creates it again", async () => {
      const [alertId] = Object.keys(env.emulator.snapshot().alerts);
      await fetch(`${env.emulator.url}/api/v2/alerts/${alertId}`, { method: "DELETE", headers: { authorization: `Bearer ${env.emulator.token}` } });
      const refreshed = await env.stack({ "alertpipe-example:dbMaxThreads": "16" }).refresh();
      expect(refreshed.steps.find((s) => s.name === "ingest-lag")?.op).toBe("refresh-delete");
      const result = await env.stack({ "alertpipe-example:dbMaxThreads": "16" }).up();
      expect(result.steps.find((s) => s.name === "ingest-lag")?.op).toBe("create");
      expect(Object.keys(env.emulator.snapshot().alerts)).toHaveLength(1);
    });

    it("replaces the pipe settings when the pipe changes: the new pipe is set, the old one reset", async () => {
      const result = await env.stack({ "alertpipe-example:dbMaxThreads": "16", "alertpipe-example:pipeId": OTHER_PIPE }).up();
      expect(result.ok, result.error).toBe(true);
      expect(result.steps.find((s) => s.name === "ingest")?.op).toBe("replace");
      const pipes = env.emulator.snapshot().pipes;
      expect(pipes[`${PIPE.organizationId}/${PIPE.serviceId}/${OTHER_PIPE}`]?.db_max_threads).toBe(16);
      expect(pipes[PIPE_KEY]?.db_max_threads).toBeNull();
    });

    it("destroys everything it made, leaving no alert, no key and no setting behind", async () => {
      const result = await env.stack({ "alertpipe-example:dbMaxThreads": "16", "alertpipe-example:pipeId": OTHER_PIPE }).destroy();
      expect(result.ok, result.error).toBe(true);
      const snap = env.emulator.snapshot();
      expect(snap.alerts).toEqual({});
      expect(snap.keys).toEqual({});
      for (const settings of Object.values(snap.pipes)) expect(Object.values(settings).every((v) => v === null)).toBe(true);
    });
  });

  describe("bad input and bad credentials", () => {
    it("fails preview on an out-of-range setting, naming it, before any request", async () => {
      const env = await environment(driver, "invalid");
      try {
        const result = await env.stack({ "alertpipe-example:dbMaxThreads": "65" }).preview();
        expect(result.ok).toBe(false);
        expect(`${result.error} ${result.diagnostics.join(" ")}`).toContain("dbMaxThreads must be an integer from 0 to 64");
        expect(env.emulator.requests).toEqual([]);
      } finally {
        await env.emulator.close();
      }
    });

    it("fails up with a clear 401 on a wrong key secret, and never prints the secret", async () => {
      const env = await environment(driver, "badcreds");
      try {
        const wrong = "wrong-secret-canary-31ab";
        const handle = openStack({
          driver,
          name: `e2e-${driver}-badcreds`,
          programDir,
          config: { ...emulatorConfig(env.emulator), "alertpipe:cloudKeySecret": { value: wrong, secret: true } },
        });
        const result = await handle.up();
        expect(result.ok).toBe(false);
        expect(`${result.error} ${result.diagnostics.join(" ")}`).toMatch(/401/);
        expect(result.log).not.toContain(wrong);
        expect(`${result.error}`).not.toContain(wrong);
        expect(readFileSync(handle.statePath, "utf8")).not.toContain(wrong);
      } finally {
        await env.emulator.close();
      }
    });
  });

  describe("faults on the way", () => {
    it("rides out 429 bursts when pacing is off, and paces to zero 429s when it is on", async () => {
      const env = await environment(driver, "ratelimit", { rateLimits: { cloud: { requests: 1, perSeconds: 1 } } });
      try {
        const unpaced = await env.stack({ "alertpipe:cloudRateLimit": "off" }).up();
        expect(unpaced.ok, unpaced.error).toBe(true);
        expect(cloudRequests(env.emulator).some((r) => r.status === 429)).toBe(true);
        // The service's window is shared with the run above; let it close so this run starts clean.
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        env.emulator.resetRequestLog();
        const paced = await env.stack({ "alertpipe:cloudRateLimit": "1/1" }).destroy();
        expect(paced.ok, paced.error).toBe(true);
        expect(cloudRequests(env.emulator).filter((r) => r.status === 429)).toEqual([]);
      } finally {
        await env.emulator.close();
      }
    });

    it("retries 503s on an idempotent update and succeeds", async () => {
      const env = await environment(driver, "unavailable");
      try {
        expect((await env.stack().up()).ok).toBe(true);
        env.emulator.setFaults({ failNext: 2 });
        const result = await env.stack({ "alertpipe-example:dbMaxThreads": "12" }).up();
        expect(result.ok, result.error).toBe(true);
        expect(env.emulator.snapshot().pipes[PIPE_KEY]?.db_max_threads).toBe(12);
        await env.stack({ "alertpipe-example:dbMaxThreads": "12" }).destroy();
      } finally {
        await env.emulator.close();
      }
    });

    it("never creates a duplicate key when the connection is cut after the key was made, and says what may exist", async () => {
      const env = await environment(driver, "cut");
      try {
        env.emulator.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 } });
        const result = await env.stack().up();
        expect(result.ok).toBe(false);
        expect(`${result.error} ${result.diagnostics.join(" ")}`).toContain('the API key "deployer" may have been created');
        expect(cloudRequests(env.emulator, "POST")).toHaveLength(1);
        expect(Object.keys(env.emulator.snapshot().keys)).toHaveLength(1);
      } finally {
        await env.emulator.close();
      }
    });
  });

  describe("secret hygiene", () => {
    it("keeps canary credentials and the created key's secret out of state, logs, errors and __provider", async () => {
      const canary = { token: "canary-token-e2e-8c1d", keySecret: "canary-secret-e2e-4f9a" };
      const env = await environment(driver, "hygiene", { token: canary.token, keySecret: canary.keySecret });
      try {
        const stack = env.stack();
        const up = await stack.up();
        expect(up.ok, up.error).toBe(true);
        const again = await stack.up();
        const state = readFileSync(env.statePath, "utf8");
        const keyHashes = Object.values(env.emulator.snapshot().keys).map((k) => k.keySecretSha256);
        expect(keyHashes).toHaveLength(1);
        const destroy = await stack.destroy();
        const texts = [state, up.log, again.log, destroy.log, String(up.error), up.diagnostics.join("\n"), JSON.stringify(up.outputs)];
        for (const text of texts) {
          expect(text).not.toContain(canary.token);
          expect(text).not.toContain(canary.keySecret);
          // The created key's secret is known to the emulator only by its hash: no token anywhere may hash to it.
          const leaked = (text.match(/[A-Za-z0-9_-]{40}/g) ?? []).filter((t) => keyHashes.includes(createHash("sha256").update(t).digest("hex")));
          expect(leaked).toEqual([]);
        }
      } finally {
        await env.emulator.close();
      }
    });
  });
});
