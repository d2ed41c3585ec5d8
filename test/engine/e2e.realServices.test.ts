// Issue 8 on the real Pulumi engine, against the emulator modelling the real services: an alert
// silenced in the UI (silenced answered as an object) refreshes and updates; an idle service fails
// a PipeSettings at once, saying it must be started; a hashData key is created with no credentials
// in its outputs and the pair the program made logs in.

import { createHash } from "node:crypto";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { changes, emulator, installedPackage, stackOn, told } from "../support/engine";

const ORG = "0f8fad5b-d9cb-469f-a165-70867728950e";
const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const PIPE = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";
const sha256Base64 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("the real services' known behaviour, end to end", () => {
  it("an alert silenced in the UI refreshes without error, keeps the object as output, and the next up changes nothing", async () => {
    const emu = await emulator();
    const { Alert } = installedPackage();
    const program: PulumiFn = async () => {
      const a = new Alert("lag", {
        name: "lag",
        source: "search",
        threshold: 1,
        thresholdType: "above",
        interval: "5m",
        channel: { type: "webhook", webhookId: "w" },
      });
      return { silenced: a.silenced, state: a.state };
    };
    const stack = await stackOn(emu, "silenced", { program });
    const up = await stack.up();
    expect(up.ok, up.error).toBe(true);
    expect(up.outputs.state?.value).toBe("OK");
    const [id] = Object.keys(emu.snapshot().alerts);
    const silenced = { by: "someone@example.com", at: "2026-11-20T10:00:00.000Z", until: "2026-11-21T10:00:00.000Z" };
    expect(emu.silence(id ?? "", silenced)).toBe(true);
    const refresh = await stack.refresh();
    expect(refresh.ok, refresh.error).toBe(true);
    const again = await stack.up();
    expect(again.ok, again.error).toBe(true);
    expect(changes(again)).toEqual([]);
    expect(again.outputs.silenced?.value).toEqual(silenced);
  });

  it("a PipeSettings on an idle service fails at once with one request, naming the service and saying to wake it", async () => {
    const emu = await emulator();
    emu.setFaults({ servicesIdle: true });
    const { PipeSettings } = installedPackage();
    const stack = await stackOn(emu, "idle", {
      program: async () => {
        new PipeSettings("ingest", { organizationId: ORG, serviceId: SERVICE, pipeId: PIPE, dbMaxThreads: 8 });
      },
    });
    const up = await stack.up();
    expect(up.ok).toBe(false);
    expect(emu.requests.filter((r) => r.path.endsWith("/settings"))).toHaveLength(1);
    expect(told(up)).toContain("failed with status 424: FAILED_DEPENDENCY");
    expect(told(up)).toContain(`Service "${SERVICE}" is idle: wake it`);
  });

  it("an ApiKey with hashData is created without credentials in its outputs, and the program's own pair logs in", async () => {
    const emu = await emulator();
    const { ApiKey } = installedPackage();
    const keyId = "PROGRAMKEYID00000042";
    const keySecret = "a-secret-the-program-made";
    const stack = await stackOn(emu, "hashed", {
      program: async () => {
        const key = new ApiKey("hashed", {
          organizationId: ORG,
          roles: ["developer"],
          hashData: {
            keyIdHash: sha256Base64(keyId),
            keyIdSuffix: keyId.slice(-4),
            keySecretHash: sha256Base64(keySecret),
          },
        });
        return { id: key.id, keyId: key.keyId, keySuffix: key.keySuffix };
      },
    });
    const up = await stack.up();
    expect(up.ok, up.error).toBe(true);
    expect(up.outputs.keyId).toBeUndefined();
    expect(up.outputs.keySuffix?.value).toBe("0042");
    const outputs = up.steps.find((s) => s.name === "hashed")?.outputs ?? {};
    expect(outputs).toHaveProperty("keySuffix");
    expect(outputs).not.toHaveProperty("keyId");
    expect(outputs).not.toHaveProperty("keySecret");
    const res = await fetch(`${emu.url}/v1/organizations/${ORG}/keys/${String(up.outputs.id?.value)}`, {
      headers: { authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}` },
    });
    expect(res.status).toBe(200);
  });
});
