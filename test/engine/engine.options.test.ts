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
import { SECRET_SIG } from "../../scripts/engine/stack";
import type { EngineStack, PackageProgram, RunningEmulator, StateResource } from "../support/engine";
import { changes, installedPackage, newStack, ourState, requestLog, succeeded, told } from "../support/engine";
import { hashDataFor } from "../support/hashData";

const ORG = "0f8fad5b-d9cb-469f-a165-70867728950e";
const OTHER_ORG = "3e1c2b4a-5d6f-4a7b-8c9d-0e1f2a3b4c5d";
const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const PIPE = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";

interface StateFile {
  checkpoint: { latest?: { resources?: StateResource[]; pending_operations?: unknown[] } };
}

function stateResources(s: EngineStack): StateResource[] {
  return (JSON.parse(s.readStateFile()) as StateFile).checkpoint.latest?.resources ?? [];
}

/** "METHOD path" of the requests that change something, in the order the emulator answered them. */
const writes = (emu: RunningEmulator): string[] => requestLog(emu, (method) => method !== "GET");

/** A stack of `program` after its first up, the id of the one alert or key it made, and the emulator's log reset. */
async function upWithOne(name: string, program: PulumiFn) {
  const { emu, stack: s } = await newStack(name, program);
  succeeded(await s.up());
  const { alerts, keys } = emu.snapshot();
  const [id = ""] = [...Object.keys(alerts), ...Object.keys(keys)];
  emu.resetRequestLog();
  return { emu, s, id };
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
      const { emu, s, id: alertId } = await upWithOne("protect", alertProgram("guarded", {}, { protect: true }));
      expect(ourState(s).get("guarded")?.protect).toBe(true);

      const refused = await s.destroy();
      expect(refused.ok).toBe(false);
      expect(told(refused)).toMatch(/guarded.*protected|protected.*guarded/s);
      expect(writes(emu)).toEqual([]);
      expect(Object.keys(emu.snapshot().alerts)).toEqual([alertId]);
      expect(ourState(s).has("guarded")).toBe(true);

      // Destroy does not run the program, so the flag is lifted by an up of the program without it.
      const lifted = await s.up({ program: alertProgram("guarded", {}) });
      succeeded(lifted);
      expect(changes(lifted)).toEqual([]);
      expect(writes(emu)).toEqual([]);
      expect(ourState(s).get("guarded")?.protect).toBeFalsy();

      const destroyed = await s.destroy();
      succeeded(destroyed);
      expect(writes(emu)).toEqual([`DELETE /api/v2/alerts/${alertId}`]);
      expect(emu.snapshot().alerts).toEqual({});
    });
  });

  describe("retainOnDelete", () => {
    it("drops a retained alert removed from the program from state, and leaves it on the service with no DELETE", async () => {
      const { emu, s, id } = await upWithOne("retain-removed", alertProgram("kept", {}, { retainOnDelete: true }));

      const removed = await s.up({ program: empty });
      succeeded(removed);
      expect(changes(removed)).toEqual(["delete kept"]);
      expect(ourState(s).has("kept")).toBe(false);
      expect(writes(emu)).toEqual([]);
      expect(Object.keys(emu.snapshot().alerts)).toEqual([id]);
    });

    it("destroys a stack with a retained key: gone from state, still on the service, no DELETE", async () => {
      const { emu, s, id: keyUuid } = await upWithOne("retain-destroy", keyProgram(ORG, { retainOnDelete: true }));

      const destroyed = await s.destroy();
      succeeded(destroyed);
      expect(ourState(s).size).toBe(0);
      expect(writes(emu)).toEqual([]);
      expect(Object.keys(emu.snapshot().keys)).toEqual([keyUuid]);
    });
  });

  describe("ignoreChanges on a nested property path", () => {
    it("ignores a change of channel.webhookId: no diff, no request; another change updates with the webhook left as it is live", async () => {
      const ignore: CustomResourceOptions = { ignoreChanges: ["channel.webhookId"] };
      const { emu, s, id } = await upWithOne("ignore", alertProgram("watched", { webhookId: "hook-a" }, ignore));

      const moved = alertProgram("watched", { webhookId: "hook-b" }, ignore);
      const preview = await s.preview({ program: moved });
      succeeded(preview);
      expect(changes(preview)).toEqual([]);
      const same = await s.up({ program: moved });
      succeeded(same);
      expect(changes(same)).toEqual([]);
      expect(writes(emu)).toEqual([]);
      expect(emu.snapshot().alerts[id]?.channel.webhookId).toBe("hook-a");

      const raise = alertProgram("watched", { webhookId: "hook-b", threshold: 400 }, ignore);
      // The dynamic-provider host reports no property names in its diff, so the property-level
      // change is what the engine prints itself with --diff, from the inputs after ignoreChanges.
      const shown = await s.preview({ program: raise, diff: true });
      succeeded(shown);
      expect(shown.log).toMatch(/threshold\s*:\s*300\s*=>\s*400/);
      expect(shown.log).toMatch(/webhookId\s*:\s*"hook-a"/);
      expect(shown.log).not.toContain("hook-b");
      const raised = await s.up({ program: raise });
      succeeded(raised);
      expect(changes(raised)).toEqual(["update watched"]);
      expect(writes(emu)).toEqual([`PUT /api/v2/alerts/${id}`]);
      const live = emu.snapshot().alerts[id];
      expect(live?.threshold).toBe(400);
      expect(live?.channel.webhookId).toBe("hook-a");
    });
  });

  describe("deleteBeforeReplace", () => {
    it("deletes the old key before creating the new one when its organization changes", async () => {
      const { emu, s, id: oldUuid } = await upWithOne("dbr", keyProgram(ORG, { deleteBeforeReplace: true }));

      const replaced = await s.up({ program: keyProgram(OTHER_ORG, { deleteBeforeReplace: true }) });
      succeeded(replaced);
      expect(changes(replaced)).toEqual(["replace deployer"]);
      expect(writes(emu)).toEqual([
        `DELETE /v1/organizations/${ORG}/keys/${oldUuid}`,
        `POST /v1/organizations/${OTHER_ORG}/keys`,
      ]);
      const keys = Object.values(emu.snapshot().keys);
      expect(keys.map((k) => k.organizationId)).toEqual([OTHER_ORG]);
      expect(ourState(s).get("deployer")?.id).toBe(keys[0]?.id);
    });

    it("without it, creates the new key first and deletes the old one after (the engine's default)", async () => {
      const { emu, s, id: oldUuid } = await upWithOne("cbd", keyProgram(ORG));

      succeeded(await s.up({ program: keyProgram(OTHER_ORG) }));
      expect(writes(emu)).toEqual([
        `POST /v1/organizations/${OTHER_ORG}/keys`,
        `DELETE /v1/organizations/${ORG}/keys/${oldUuid}`,
      ]);
    });

    it("resets the old pipe before setting the new one when a PipeSettings' pipe changes", async () => {
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
      const { emu, stack: s } = await newStack("dbr-pipe", pipeProgram(PIPE));
      succeeded(await s.up());

      emu.resetRequestLog();
      succeeded(await s.up({ program: pipeProgram(otherPipe) }));
      const settings = (pipe: string) => `PUT /v1/organizations/${ORG}/services/${SERVICE}/pipes/${pipe}/settings`;
      expect(writes(emu)).toEqual([settings(PIPE), settings(otherPipe)]);
      const pipes = emu.snapshot().pipes;
      expect(pipes[`${ORG}/${SERVICE}/${PIPE}`]?.db_max_threads).toBeNull();
      expect(pipes[`${ORG}/${SERVICE}/${otherPipe}`]?.db_max_threads).toBe(8);
    });
  });

  describe("aliases", () => {
    it("renames an alert with an alias: no create, no delete, no request, the same object", async () => {
      const { emu, s, id: alertId } = await upWithOne("alias", alertProgram("old-name", {}));

      const renamed = await s.up({ program: alertProgram("new-name", {}, { aliases: [{ name: "old-name" }] }) });
      succeeded(renamed);
      expect(changes(renamed)).toEqual([]);
      expect(requestLog(emu)).toEqual([]);
      expect(Object.keys(emu.snapshot().alerts)).toEqual([alertId]);
      expect([...ourState(s).keys()]).toEqual(["new-name"]);
      expect(ourState(s).get("new-name")?.id).toBe(alertId);
    });

    it("without the alias, a rename creates a new alert and then deletes the old one", async () => {
      const { emu, s, id: oldId } = await upWithOne("no-alias", alertProgram("old-name", {}));

      const renamed = await s.up({ program: alertProgram("new-name", {}) });
      succeeded(renamed);
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
      const program: PackageProgram = async ({ Alert, ApiKey }) => {
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
      const { emu, stack: s } = await newStack("secrets", program, { emulator: canary });
      succeeded(await s.up());

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
      const { stack: s } = await newStack("plain-config", keyProgram(ORG), {
        emulator: { keySecret: canary },
        config: { "alertpipe:cloudKeySecret": { value: canary } },
      });
      succeeded(await s.up());
      const provider = stateResources(s).find((r) => r.type === "pulumi:providers:pulumi-nodejs");
      expect(provider?.inputs?.["alertpipe:cloudKeySecret"]).toBe(canary);
      expect(await s.exportText()).toContain(canary);
    });
  });
});
