// Ids that would move a request to another path (issue 24): every id part of the five resources,
// through every verb that puts one in a path (check of importId and the path ids, create's
// take-over, import (the behaviour's, as both doors call it), read, update, delete), against the
// emulator over real HTTP. Each is refused with a stable code naming the resource and the id, and
// the emulator's request log shows that nothing was sent at all, so nothing reached another path.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import * as webhook from "../../provider/webhook/provider";
import * as savedSearch from "../../provider/savedSearch/provider";
import { behaviour as alertCore } from "../../provider/alert/behaviour";
import { behaviour as apiKeyCore } from "../../provider/apiKey/behaviour";
import { behaviour as pipeSettingsCore } from "../../provider/pipeSettings/behaviour";
import { behaviour as webhookCore } from "../../provider/webhook/behaviour";
import { behaviour as savedSearchCore } from "../../provider/savedSearch/behaviour";
import { AlertpipeError } from "../../provider/errors";
import { emulatorPerTest, envFor, setEnv } from "../support/emulatorPerTest";
import { failure } from "../support/failures";
import { KEY_UUID, ORG_ID, PIPE_IDS, storedKey, tileAlert } from "../support/fixtures";

/** Ids that name another path once folded or decoded, or no object at all; and one far too long. */
const HOSTILE = ["", " ", ".", "..", "a/b", "../x", "%2e%2e", "%2E", "a%2Fb", "..%2F..", "x\\y", "a".repeat(100_000)];

const service = emulatorPerTest({ service: "alerting", helper: "hostileIds" });
let restoreCloudEnv = (): void => {};
beforeEach(() => {
  restoreCloudEnv = setEnv(envFor("cloud", service.emulator));
});
afterEach(() => {
  restoreCloudEnv();
  // Nothing was sent: not to another path, not to the resource's own.
  expect(service.requests()).toEqual([]);
});

/** The error a verb failed with: of `code`, naming the resource and carrying the whole id. */
async function refused(call: Promise<unknown>, code: string, what: string, id: string): Promise<void> {
  const err = await failure(call);
  expect(err).toBeInstanceOf(AlertpipeError);
  const e = err as AlertpipeError & { id?: unknown };
  expect(e.code).toBe(code);
  expect(e.message).toContain(what);
  // The message quotes a long id shortened; the error object keeps it whole.
  expect(e.message.length).toBeLessThan(1_000);
  expect(typeof e.id === "string" && e.id.includes(id.trim())).toBe(true);
}

/** What check says of `props` over a valid program: the failure at `property`. */
async function checkRefuses(
  check: (o: Record<string, unknown>, n: Record<string, unknown>) => Promise<{ failures?: unknown[] }>,
  base: Record<string, unknown>,
  property: string,
  id: string,
): Promise<void> {
  const { failures = [] } = await check({}, { ...base, [property]: id });
  expect(failures).toEqual(expect.arrayContaining([expect.objectContaining({ property })]));
}

describe.each(HOSTILE.map((id) => [id.length > 20 ? `${id.slice(0, 10)}… (${id.length})` : JSON.stringify(id), id]))(
  "the id %s",
  (_label, id) => {
    describe("as an alert's id", () => {
      it("fails check as importId", () => checkRefuses(alert.check, tileAlert, "importId", id));
      it("is refused by a take-over", () =>
        refused(alert.create({ ...tileAlert, importId: id }), "ID_FORM", "alert", id));
      it("is refused as an import id", () => refused(alertCore.readImported(id), "IMPORT_ID_FORM", "alert", id));
      it("is refused by read", () => refused(alert.read(id, {}), "ID_FORM", "alert", id));
      it("is refused by update", () => refused(alert.update(id, tileAlert, tileAlert), "ID_FORM", "alert", id));
      it("is refused by delete", () => refused(alert.delete(id, tileAlert), "ID_FORM", "alert", id));
    });

    // Webhooks are read through their list: a hostile id is refused before the list is asked too.
    describe.each([
      ["webhook", webhook, webhookCore, { name: "ops", service: "generic", url: "https://hooks.example.com/ops" }],
      ["saved search", savedSearch, savedSearchCore, { name: "errors", sourceId: "65f0c1a2b3c4d5e6f7a8b9c1" }],
    ] as const)("as a %s's id", (what, door, core, args) => {
      it("is refused as an import id", () => refused(core.readImported(id), "IMPORT_ID_FORM", what, id));
      it("is refused by read", () => refused(door.read(id, args), "ID_FORM", what, id));
      it("is refused by update", () => refused(door.update(id, args, args), "ID_FORM", what, id));
      it("is refused by delete", () => refused(door.delete(id, args), "ID_FORM", what, id));
    });

    describe.each(["organizationId", "id"] as const)("as an API key's %s", (part) => {
      const org = part === "organizationId" ? id : ORG_ID;
      const key = part === "id" ? id : KEY_UUID;
      const stored = { ...storedKey, organizationId: org };
      it("fails check", () =>
        checkRefuses(
          apiKey.check,
          { organizationId: ORG_ID, roles: ["developer"] },
          part === "id" ? "importId" : part,
          id,
        ));
      it("is refused by a take-over", () =>
        refused(apiKey.create({ organizationId: org, roles: ["developer"], importId: key }), "ID_FORM", "API key", id));
      it("is refused as a part of an import id", () =>
        refused(apiKeyCore.readImported(`${org}/${key}`), "IMPORT_ID_FORM", "API key", id));
      it("is refused by read", () => refused(apiKey.read(key, stored), "ID_FORM", "API key", id));
      it("is refused by update", () =>
        refused(apiKey.update(key, stored, { ...stored, name: "renamed" }), "ID_FORM", "API key", id));
      it("is refused by delete", () => refused(apiKey.delete(key, stored), "ID_FORM", "API key", id));
    });

    describe.each(["organizationId", "serviceId", "pipeId"] as const)("as a pipe's %s", (part) => {
      const ids = { ...PIPE_IDS, [part]: id };
      const stored = { ...ids, dbMaxThreads: 8, managedSettings: ["dbMaxThreads"], resetOnDelete: true };
      const resourceId = `${ids.organizationId}/${ids.serviceId}/${ids.pipeId}`;
      it("fails check", () => checkRefuses(pipeSettings.check, { ...PIPE_IDS, dbMaxThreads: 8 }, part, id));
      it("is refused by create", () =>
        refused(pipeSettings.create({ ...ids, dbMaxThreads: 8 }), "ID_FORM", "pipe settings", id));
      it("is refused as a part of an import id", () =>
        refused(pipeSettingsCore.readImported(resourceId), "IMPORT_ID_FORM", "pipe settings", id));
      it("is refused by read", () => refused(pipeSettings.read(resourceId, stored), "ID_FORM", "pipe settings", id));
      it("is refused by update", () =>
        refused(
          pipeSettings.update(resourceId, stored, { ...stored, dbMaxThreads: 16 }),
          "ID_FORM",
          "pipe settings",
          id,
        ));
      it("is refused by delete", () =>
        refused(pipeSettings.delete(resourceId, stored), "ID_FORM", "pipe settings", id));
    });
  },
);
