// Reads served by a list (provider/reading/listedReads.ts, docs/design/reading.md), against the
// emulator over real HTTP: one listing per collection shared by the reads of one provider process,
// reused until a write to the collection, gone when the complete list lacks the object; recovery
// lists afresh; settings keep their GET; alerts page by 1000.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { ALERT_LIST_PAGE_MAX } from "../../provider/serviceFacts/alertRules";
import { alertEmulatorPerTest } from "../support/alertEmulator";
import { ALERTS_PATH, KEYS_PATH, ORG_ID } from "../support/fixtures";
import { keyEmulatorPerTest } from "../support/keyEmulator";

/** What the state holds of a key the provider manages, as a read is handed it. */
const stored = (name: string) => ({
  organizationId: ORG_ID,
  name,
  roles: ["developer"],
  managedArgs: ["name", "roles"],
});

/** A key the provider makes whose pair it holds, so a create whose answer is lost adopts what it finds. */
const newKey = { organizationId: ORG_ID, name: "made", roles: ["developer"], keyMaterial: "local" };

const lists = (requests: string[], path: string) => requests.filter((r) => r === `GET ${path}`).length;
const singleGets = (requests: string[], path: string) => requests.filter((r) => r.startsWith(`GET ${path}/`)).length;

describe("reads of keys served by the organization's list", () => {
  const emu = keyEmulatorPerTest();

  async function threeKeys(): Promise<string[]> {
    const ids = [];
    for (const name of ["a", "b", "c"]) ids.push((await emu.byHand({ name, roles: ["developer"] })).id);
    emu.emulator.resetRequestLog();
    return ids;
  }

  it("reads arriving together share one list request", async () => {
    const ids = await threeKeys();
    const read = await Promise.all(ids.map((id, i) => apiKey.read(id, stored(`key ${i}`))));
    expect(read.map((r) => (r.props as Record<string, unknown> | undefined)?.name)).toEqual(["a", "b", "c"]);
    expect(emu.requests()).toEqual([`GET ${KEYS_PATH}`]);
  });

  it("a later read of the same run reuses the completed list", async () => {
    const ids = await threeKeys();
    for (const id of ids) await apiKey.read(id, stored("x"));
    expect(emu.requests()).toEqual([`GET ${KEYS_PATH}`]);
  });

  it("a key the complete list does not hold is gone, as a 404 says", async () => {
    const ids = await threeKeys();
    await apiKey.read(ids[0] ?? "", stored("a"));
    expect(await apiKey.read("9b2c1f7e-0d4a-4e8b-8a61-3c5d7e9f1a2b", stored("gone"))).toEqual({});
    expect(emu.requests()).toEqual([`GET ${KEYS_PATH}`]);
  });

  it("a write to the collection makes the next read list again, and shows what it wrote", async () => {
    const ids = await threeKeys();
    const id = ids[1] ?? "";
    await apiKey.read(id, stored("b"));
    await apiKey.update(id, stored("b"), { ...stored("b"), name: "renamed" });
    expect((await apiKey.read(id, stored("renamed"))).props?.name).toBe("renamed");
    expect(lists(emu.requests(), KEYS_PATH)).toBe(2);
  });

  it("a write that failed makes the next read list again too", async () => {
    const ids = await threeKeys();
    await apiKey.read(ids[0] ?? "", stored("a"));
    // A PATCH of a key that is not there: 404, nothing written, yet the listing is dropped.
    await expect(
      apiKey.update("9b2c1f7e-0d4a-4e8b-8a61-3c5d7e9f1a2b", stored("a"), { ...stored("a"), name: "z" }),
    ).rejects.toThrow(/404/);
    await apiKey.read(ids[0] ?? "", stored("a"));
    expect(lists(emu.requests(), KEYS_PATH)).toBe(2);
  });

  it("a create whose answer was lost makes the next read list again, and finds the key it made", async () => {
    await threeKeys();
    await apiKey.read(emu.keyIds()[0] ?? "", stored("a"));
    emu.emulator.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 } });
    const made = await apiKey.create(newKey);
    emu.emulator.resetRequestLog();
    expect((await apiKey.read(made.id, { ...stored("made"), ...made.outs })).props?.name).toBe("made");
    expect(emu.requests()).toEqual([`GET ${KEYS_PATH}`]);
  });

  it("recovery after a lost create lists afresh, never the list reads were served by", async () => {
    await threeKeys();
    await apiKey.read(emu.keyIds()[0] ?? "", stored("a"));
    emu.emulator.setFaults({ cutAfterCommit: { method: "POST", pathPattern: /\/keys$/, count: 1 } });
    const made = await apiKey.create(newKey);
    // The listing that served the read did not hold the new key; the look found it in its own.
    expect(emu.keyIds()).toContain(made.id);
    expect(emu.requests().slice(0, 3)).toEqual([`GET ${KEYS_PATH}`, `POST ${KEYS_PATH}`, `GET ${KEYS_PATH}`]);
    expect(emu.keyIds()).toHaveLength(4);
  });

  it("settings have no list: each pipe's read is its own GET", async () => {
    const pipe = {
      organizationId: ORG_ID,
      serviceId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      pipeId: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
      dbMaxThreads: 8,
    };
    const made = await pipeSettings.create(pipe);
    emu.emulator.resetRequestLog();
    await pipeSettings.read(made.id, made.outs);
    await pipeSettings.read(made.id, made.outs);
    const path = `/v1/organizations/${pipe.organizationId}/services/${pipe.serviceId}/pipes/${pipe.pipeId}/settings`;
    expect(emu.requests()).toEqual([`GET ${path}`, `GET ${path}`]);
  });
});

describe("reads of alerts served by the paged list", () => {
  const emu = alertEmulatorPerTest();
  const body = (i: number) => ({
    name: `alert ${i}`,
    source: "search",
    threshold: i,
    thresholdType: "above",
    interval: "5m",
    channel: { type: "webhook", webhookId: "hook" },
  });

  it("reads arriving together share one list request, and no alert is read alone", async () => {
    const ids = [];
    for (const i of [1, 2, 3]) ids.push(await emu.byHand(body(i)));
    emu.emulator.resetRequestLog();
    const read = await Promise.all(ids.map((id) => alert.read(id, body(0))));
    expect(read.map((r) => (r.props as Record<string, unknown> | undefined)?.threshold)).toEqual([1, 2, 3]);
    expect(emu.requests()).toEqual([`GET ${ALERTS_PATH}`]);
    expect(singleGets(emu.requests(), ALERTS_PATH)).toBe(0);
  });

  it("an alert the complete list does not hold is gone", async () => {
    await emu.byHand(body(1));
    emu.emulator.resetRequestLog();
    expect(await alert.read("65f0c1a2b3c4d5e6f7a8b9c0", body(1))).toEqual({});
    expect(emu.requests()).toEqual([`GET ${ALERTS_PATH}`]);
  });

  it("a DELETE makes the next read list again, which finds the alert gone", async () => {
    const id = await emu.byHand(body(1));
    await alert.read(id, body(1));
    await alert.delete(id, body(1));
    emu.emulator.resetRequestLog();
    expect(await alert.read(id, body(1))).toEqual({});
    expect(emu.requests()).toEqual([`GET ${ALERTS_PATH}`]);
  });

  it(`pages by ${ALERT_LIST_PAGE_MAX} over more alerts than a page holds, finding the last one`, async () => {
    const count = 2 * ALERT_LIST_PAGE_MAX + 5;
    let last = "";
    for (let i = 0; i < count; i++) last = await emu.byHand(body(i));
    emu.emulator.resetRequestLog();
    expect((await alert.read(last, body(0))).props?.threshold).toBe(count - 1);
    // Three pages: two full, one short.
    expect(emu.requests()).toEqual([`GET ${ALERTS_PATH}`, `GET ${ALERTS_PATH}`, `GET ${ALERTS_PATH}`]);
  });

  it(`reads ${ALERT_LIST_PAGE_MAX} alerts in one GET: the answer's meta.total says the page was the last`, async () => {
    let last = "";
    for (let i = 0; i < ALERT_LIST_PAGE_MAX; i++) last = await emu.byHand(body(i));
    emu.emulator.resetRequestLog();
    expect((await alert.read(last, body(0))).props?.threshold).toBe(ALERT_LIST_PAGE_MAX - 1);
    expect(emu.requests()).toEqual([`GET ${ALERTS_PATH}`]);
  });
});
