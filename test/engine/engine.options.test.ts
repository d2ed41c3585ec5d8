// Pulumi's resource options on our resources, through the real engine (the CLI via the Automation
// API), against the emulator. These options are implemented by the engine, not by our provider, so
// what is checked here is the combination a user gets: what the engine decides, and which requests
// our provider then sends (or does not send) to the service.
//
// Programs build resources from pulumi-alertpipe as installed in examples/node_modules
// (installedPackage), so the provider serializes into state as a user's would.

import { createHash } from "node:crypto";
import type { CustomResourceOptions } from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import type { RecordedRequest, RunningEmulator } from "../../emulator";
import { SECRET_SIG } from "../../scripts/engine/stack";
import {
  changes,
  emulator,
  installedPackage,
  stackOn,
  told,
  type EngineStack,
  type RunResult,
} from "../support/engine";
import { hashDataFor } from "../support/hashData";

const ORG = "0f8fad5b-d9cb-469f-a165-70867728950e";
const OTHER_ORG = "3e1c2b4a-5d6f-4a7b-8c9d-0e1f2a3b4c5d";
const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const PIPE = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";

/** The parts of a state resource these tests read (the file backend's checkpoint format). */
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  protect?: boolean;
  retainOnDelete?: boolean;
}

interface StateFile {
  checkpoint: { latest?: { resources?: StateResource[]; pending_operations?: unknown[] } };
}

function stateResources(s: EngineStack): StateResource[] {
  return (JSON.parse(s.readStateFile()) as StateFile).checkpoint.latest?.resources ?? [];
}

/** Our resources in state, by name (the last part of the URN). */
function ours(s: EngineStack): Map<string, StateResource> {
  const found = new Map<string, StateResource>();
  for (const r of stateResources(s)) {
    if (r.type.startsWith("pulumi-nodejs:dynamic/alertpipe:")) found.set(r.urn.split("::").slice(3).join("::"), r);
  }
  return found;
}

function expectOk(result: RunResult): void {
  expect(result.ok, told(result)).toBe(true);
}

/** "METHOD path" of the requests that change something, in the order the emulator answered them. */
function writes(emu: RunningEmulator): string[] {
  return emu.requests.filter((r: RecordedRequest) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
}

interface AlertShape {
  threshold?: number;
  webhookId?: string;
}

/** A program of one alert on a search, with the options given. */
function alertProgram(name: string, shape: AlertShape, opts: CustomResourceOptions = {}): PulumiFn {
  return async () => {
    const { Alert } = installedPackage();
    const alert = new Alert(
      name,
      {
        name: "Ingest lag",
        source: "search",
        threshold: shape.threshold ?? 300,
        thresholdType: "above",
        interval: "5m",
        channel: { type: "webhook", webhookId: shape.webhookId ?? "ops-oncall" },
      },
      opts,
    );
    return { alertId: alert.id };
  };
}

function keyProgram(organizationId: string, opts: CustomResourceOptions = {}): PulumiFn {
  return async () => {
    const { ApiKey } = installedPackage();
    const key = new ApiKey("deployer", { organizationId, name: "deployer", roles: ["developer"] }, opts);
    return { keyId: key.keyId };
  };
}

/** How the engine marks a secret value in state: `{ [SECRET_MARKER]: SECRET_SIG, ciphertext }`. */
const SECRET_MARKER = "4dabf18193072939515e22adb298388d";

const empty: PulumiFn = async () => ({});

describe("resource options on the real engine", () => {
  describe("protect", () => {
    it("refuses to destroy a protected alert, naming it, and keeps it on the service until protect is removed", async () => {
      const emu = await emulator();
      const s = await stackOn(emu, "protect", { program: alertProgram("guarded", {}, { protect: true }) });
      expectOk(await s.up());
      const [alertId] = Object.keys(emu.snapshot().alerts);
      expect(ours(s).get("guarded")?.protect).toBe(true);

      emu.resetRequestLog();
      const refused = await s.destroy();
      expect(refused.ok).toBe(false);
      expect(told(refused)).toMatch(/guarded.*protected|protected.*guarded/s);
      expect(writes(emu)).toEqual([]);
      expect(Object.keys(emu.snapshot().alerts)).toEqual([alertId]);
      expect(ours(s).has("guarded")).toBe(true);

      // Destroy does not run the program, so the flag is lifted by an up of the program without it.
      const lifted = await s.up({ program: alertProgram("guarded", {}) });
      expectOk(lifted);
      expect(changes(lifted)).toEqual([]);
      expect(writes(emu)).toEqual([]);
      expect(ours(s).get("guarded")?.protect).toBeFalsy();

      const destroyed = await s.destroy();
      expectOk(destroyed);
      expect(writes(emu)).toEqual([`DELETE /api/v2/alerts/${alertId}`]);
      expect(emu.snapshot().alerts).toEqual({});
    });
  });

  describe("retainOnDelete", () => {
    it("drops a retained alert removed from the program from state, and leaves it on the service with no DELETE", async () => {
      const emu = await emulator();
      const s = await stackOn(emu, "retain-removed", { program: alertProgram("kept", {}, { retainOnDelete: true }) });
      expectOk(await s.up());
      const [alertId] = Object.keys(emu.snapshot().alerts);

      emu.resetRequestLog();
      const removed = await s.up({ program: empty });
      expectOk(removed);
      expect(changes(removed)).toEqual(["delete kept"]);
      expect(ours(s).has("kept")).toBe(false);
      expect(writes(emu)).toEqual([]);
      expect(Object.keys(emu.snapshot().alerts)).toEqual([alertId]);
    });

    it("destroys a stack with a retained key: gone from state, still on the service, no DELETE", async () => {
      const emu = await emulator();
      const s = await stackOn(emu, "retain-destroy", { program: keyProgram(ORG, { retainOnDelete: true }) });
      expectOk(await s.up());
      const [keyUuid] = Object.keys(emu.snapshot().keys);

      emu.resetRequestLog();
      const destroyed = await s.destroy();
      expectOk(destroyed);
      expect(ours(s).size).toBe(0);
      expect(writes(emu)).toEqual([]);
      expect(Object.keys(emu.snapshot().keys)).toEqual([keyUuid]);
    });
  });

  describe("ignoreChanges on a nested property path", () => {
    it("ignores a change of channel.webhookId: no diff, no request; another change updates with the webhook left as it is live", async () => {
      const emu = await emulator();
      const ignore: CustomResourceOptions = { ignoreChanges: ["channel.webhookId"] };
      const s = await stackOn(emu, "ignore", { program: alertProgram("watched", { webhookId: "hook-a" }, ignore) });
      expectOk(await s.up());
      const [alertId] = Object.keys(emu.snapshot().alerts);

      emu.resetRequestLog();
      const moved = alertProgram("watched", { webhookId: "hook-b" }, ignore);
      const preview = await s.preview({ program: moved });
      expectOk(preview);
      expect(changes(preview)).toEqual([]);
      const same = await s.up({ program: moved });
      expectOk(same);
      expect(changes(same)).toEqual([]);
      expect(writes(emu)).toEqual([]);
      expect(emu.snapshot().alerts[alertId ?? ""]?.channel.webhookId).toBe("hook-a");

      const raise = alertProgram("watched", { webhookId: "hook-b", threshold: 400 }, ignore);
      // The dynamic-provider host reports no property names in its diff, so the property-level
      // change is what the engine prints itself with --diff, from the inputs after ignoreChanges.
      const shown = await s.preview({ program: raise, diff: true });
      expectOk(shown);
      expect(shown.log).toMatch(/threshold\s*:\s*300\s*=>\s*400/);
      expect(shown.log).toMatch(/webhookId\s*:\s*"hook-a"/);
      expect(shown.log).not.toContain("hook-b");
      const raised = await s.up({ program: raise });
      expectOk(raised);
      expect(changes(raised)).toEqual(["update watched"]);
      expect(writes(emu)).toEqual([`PUT /api/v2/alerts/${alertId}`]);
      const live = emu.snapshot().alerts[alertId ?? ""];
      expect(live?.threshold).toBe(400);
      expect(live?.channel.webhookId).toBe("hook-a");
    });
  });

  describe("deleteBeforeReplace", () => {
    it("deletes the old key before creating the new one when its organization changes", async () => {
      const emu = await emulator();
      const s = await stackOn(emu, "dbr", { program: keyProgram(ORG, { deleteBeforeReplace: true }) });
      expectOk(await s.up());
      const [oldUuid] = Object.keys(emu.snapshot().keys);

      emu.resetRequestLog();
      const replaced = await s.up({ program: keyProgram(OTHER_ORG, { deleteBeforeReplace: true }) });
      expectOk(replaced);
      expect(changes(replaced)).toEqual(["replace deployer"]);
      expect(writes(emu)).toEqual([
        `DELETE /v1/organizations/${ORG}/keys/${oldUuid}`,
        `POST /v1/organizations/${OTHER_ORG}/keys`,
      ]);
      const keys = Object.values(emu.snapshot().keys);
      expect(keys.map((k) => k.organizationId)).toEqual([OTHER_ORG]);
      expect(ours(s).get("deployer")?.id).toBe(keys[0]?.id);
    });

    it("without it, creates the new key first and deletes the old one after (the engine's default)", async () => {
      const emu = await emulator();
      const s = await stackOn(emu, "cbd", { program: keyProgram(ORG) });
      expectOk(await s.up());
      const [oldUuid] = Object.keys(emu.snapshot().keys);

      emu.resetRequestLog();
      expectOk(await s.up({ program: keyProgram(OTHER_ORG) }));
      expect(writes(emu)).toEqual([
        `POST /v1/organizations/${OTHER_ORG}/keys`,
        `DELETE /v1/organizations/${ORG}/keys/${oldUuid}`,
      ]);
    });

    it("resets the old pipe before setting the new one when a PipeSettings' pipe changes", async () => {
      const emu = await emulator();
      const pipeProgram =
        (pipeId: string): PulumiFn =>
        async () => {
          const { PipeSettings } = installedPackage();
          new PipeSettings(
            "ingest",
            { organizationId: ORG, serviceId: SERVICE, pipeId, dbMaxThreads: 8, resetOnDelete: true },
            { deleteBeforeReplace: true },
          );
          return {};
        };
      const otherPipe = "2c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bee";
      const s = await stackOn(emu, "dbr-pipe", { program: pipeProgram(PIPE) });
      expectOk(await s.up());

      emu.resetRequestLog();
      expectOk(await s.up({ program: pipeProgram(otherPipe) }));
      const settings = (pipe: string) => `PUT /v1/organizations/${ORG}/services/${SERVICE}/pipes/${pipe}/settings`;
      expect(writes(emu)).toEqual([settings(PIPE), settings(otherPipe)]);
      const pipes = emu.snapshot().pipes;
      expect(pipes[`${ORG}/${SERVICE}/${PIPE}`]?.db_max_threads).toBeNull();
      expect(pipes[`${ORG}/${SERVICE}/${otherPipe}`]?.db_max_threads).toBe(8);
    });
  });

  describe("aliases", () => {
    it("renames an alert with an alias: no create, no delete, no request, the same object", async () => {
      const emu = await emulator();
      const s = await stackOn(emu, "alias", { program: alertProgram("old-name", {}) });
      expectOk(await s.up());
      const [alertId] = Object.keys(emu.snapshot().alerts);

      emu.resetRequestLog();
      const renamed = await s.up({ program: alertProgram("new-name", {}, { aliases: [{ name: "old-name" }] }) });
      expectOk(renamed);
      expect(changes(renamed)).toEqual([]);
      expect(emu.requests).toEqual([]);
      expect(Object.keys(emu.snapshot().alerts)).toEqual([alertId]);
      expect([...ours(s).keys()]).toEqual(["new-name"]);
      expect(ours(s).get("new-name")?.id).toBe(alertId);
    });

    it("without the alias, a rename creates a new alert and then deletes the old one", async () => {
      const emu = await emulator();
      const s = await stackOn(emu, "no-alias", { program: alertProgram("old-name", {}) });
      expectOk(await s.up());
      const [oldId] = Object.keys(emu.snapshot().alerts);

      emu.resetRequestLog();
      const renamed = await s.up({ program: alertProgram("new-name", {}) });
      expectOk(renamed);
      expect(changes(renamed)).toEqual(["create new-name", "delete old-name"]);
      const [newId] = Object.keys(emu.snapshot().alerts);
      expect(newId).not.toBe(oldId);
      expect(writes(emu)).toEqual(["POST /api/v2/alerts", `DELETE /api/v2/alerts/${oldId}`]);
    });
  });

  describe("secrets in state and in pulumi stack export", () => {
    it("holds no credential, key secret or hashData in plain text, the default provider's entry included", async () => {
      const canary = { token: "canary-token-opts-5e2b", keySecret: "canary-secret-opts-9d4c" };
      // A pair the program made; the service sees only its hashes, which must not sit in state in plain text either.
      const hashData = hashDataFor("CANARYKEYIDOPTS0Q7A1", "canary-local-secret-opts-made-by-the-program");
      const emu = await emulator({ token: canary.token, keySecret: canary.keySecret });
      const program: PulumiFn = async () => {
        const { Alert, ApiKey } = installedPackage();
        const key = new ApiKey("hashed", { organizationId: ORG, roles: ["developer"], hashData });
        new Alert("paged", {
          source: "search",
          threshold: 1,
          thresholdType: "above",
          interval: "1m",
          channel: { type: "webhook", webhookId: "w" },
        });
        return { keySecret: key.keySecret };
      };
      const s = await stackOn(emu, "secrets", { program });
      expectOk(await s.up());

      const state = s.readStateFile();
      const exported = await s.exportText();
      const keyHashes = Object.values(emu.snapshot().keys).map((k) => k.keySecretSha256);
      expect(keyHashes).toHaveLength(1);
      const plain = [canary.token, canary.keySecret, hashData.keyIdHash, hashData.keySecretHash];
      for (const text of [state, exported]) {
        for (const value of plain) expect(text).not.toContain(value);
        // The emulator knows the created key's secret only by its SHA-256: no token may hash to it.
        const leaked = (text.match(/[A-Za-z0-9_-]{40}/g) ?? []).filter((t) =>
          keyHashes.includes(createHash("sha256").update(t).digest("hex")),
        );
        expect(leaked).toEqual([]);
      }

      // The engine records the stack's alertpipe:* config in the default provider's entry, inputs and
      // outputs alike: the two secrets must be there as ciphertext, in the state file and the export.
      const exportedResources =
        (JSON.parse(exported) as { deployment: { resources?: StateResource[] } }).deployment.resources ?? [];
      for (const resources of [stateResources(s), exportedResources]) {
        const providers = resources.filter((r) => r.type.startsWith("pulumi:providers:"));
        expect(providers.map((r) => r.urn.split("::").slice(2).join("::"))).toEqual([
          "pulumi:providers:pulumi-nodejs::default",
        ]);
        const provider = providers[0];
        for (const value of plain) expect(JSON.stringify(provider)).not.toContain(value);
        for (const props of [provider?.inputs, provider?.outputs]) {
          expect(props?.["alertpipe:alertingUrl"]).toBe(emu.url);
          expect(props?.["alertpipe:cloudKeyId"]).toBe(emu.keyId);
          for (const secret of ["alertpipe:alertingToken", "alertpipe:cloudKeySecret"]) {
            expect(props?.[secret]).toEqual({ [SECRET_MARKER]: SECRET_SIG, ciphertext: expect.stringMatching(/^v1:/) });
          }
        }
      }
    });

    it("stores a credential set as plain config (no --secret) in plain text in the default provider's entry", async () => {
      // What happens to a user who forgets --secret: the engine, not our provider, copies the config
      // into state, so only the README's advice stands between the secret and the state file.
      const canary = "canary-unmarked-secret-2f6d";
      const emu = await emulator({ keySecret: canary });
      const s = await stackOn(emu, "plain-config", {
        program: keyProgram(ORG),
        config: { "alertpipe:cloudKeySecret": { value: canary } },
      });
      expectOk(await s.up());
      const provider = stateResources(s).find((r) => r.type === "pulumi:providers:pulumi-nodejs");
      expect(provider?.inputs?.["alertpipe:cloudKeySecret"]).toBe(canary);
      expect(await s.exportText()).toContain(canary);
    });
  });
});
