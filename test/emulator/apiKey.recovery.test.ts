// An ApiKey create whose POST answer is lost finds the key it made, against the emulator's faults
// after commit over real HTTP: one key on the service, and it is the one recorded. A key the
// service made is unusable without the lost secret, so it is deleted and made again, as often as
// the answer is lost within the retry budget; a key whose pair we made (keyMaterial "local", or the program's hashData) is kept, found by its suffix.

import { describe, expect, it, vi } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { AmbiguousCreateError } from "../../provider/errors";
import { CLOCK_SKEW_MS } from "../../provider/creation/recovery";
import { runtime, useRuntime } from "../../provider/runtime/runtime";
import { FAST_RETRIES } from "../support/emulatorPerTest";
import { failure } from "../support/failures";
import { armLostAnswer, lostAnswers, type LostAnswer } from "../support/lostAnswers";
import { ORG_ID } from "../support/fixtures";
import { hashDataFor } from "../support/hashData";
import { SYSTEM_ROLES } from "../../emulator/roles";
import { KEYS, keyEmulatorPerTest } from "../support/keyEmulator";

const serviceKey = {
  organizationId: ORG_ID,
  name: "deployer",
  roles: ["developer", "query_endpoints"],
  __provider: "serialized",
};
const localKey = { ...serviceKey, keyMaterial: "local" };
const [ADMIN = "", DEVELOPER = ""] = Object.keys(SYSTEM_ROLES);
/** A key given role uuids only: recovery knows it by its name and assignedRoleIds. */
const roleIdKey = { organizationId: ORG_ID, name: "deployer", assignedRoleIds: [ADMIN], __provider: "serialized" };
const POST_KEY = { method: "POST", pathPattern: /\/keys$/, count: 1 };

/** The faults after which the POST's outcome is unknown though the key was made. */
const AFTER_COMMIT = lostAnswers(POST_KEY);

describe("ApiKey create made by the service whose answer is lost, against the emulator", () => {
  const service = keyEmulatorPerTest();

  /** Creates the key under the fault; answers the result and the id of the first key made. */
  async function createUnder(
    fault: (typeof AFTER_COMMIT)[number],
  ): Promise<{ id: string; outs: Record<string, unknown>; first: string }> {
    armLostAnswer(service.emulator, fault);
    const result = await provider.create(serviceKey);
    const first =
      service.emulator.requests
        .find((r) => r.method === "DELETE")
        ?.path.split("/")
        .pop() ?? "";
    return { id: result.id, outs: result.outs ?? {}, first };
  }

  for (const fault of AFTER_COMMIT) {
    it(`after ${fault.name}, leaves exactly one key, not the first one made, and records it`, async () => {
      const { id, first } = await createUnder(fault);
      expect(first).not.toBe("");
      expect(service.keyIds()).toEqual([id]);
      expect(id).not.toBe(first);
    });

    it(`after ${fault.name}, records a pair that authenticates`, async () => {
      const { outs } = await createUnder(fault);
      expect(await service.statusWithKey(outs.keyId, outs.keySecret)).toBe(200);
    });
  }

  it("lists, deletes the key found, and posts again: nothing else", async () => {
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const { id } = await provider.create(serviceKey);
    const deleted = service.requests().find((r) => r.startsWith("DELETE"));
    expect(service.requests()).toEqual([`POST ${KEYS}`, `GET ${KEYS}`, deleted, `POST ${KEYS}`]);
    expect(deleted).toMatch(new RegExp(`^DELETE ${KEYS}/[0-9a-f-]{36}$`));
    expect(deleted).not.toContain(id);
  });

  /** Arms the fault and a budget of `posts` POSTs (the fast retries' two would stop the chase early). */
  function armInARow(fault: LostAnswer, posts: number): void {
    armLostAnswer(service.emulator, fault);
    useRuntime({ retryPolicy: { ...runtime().retryPolicy, maxAttempts: posts } });
  }

  for (const lostInARow of [2, 3]) {
    for (const fault of lostAnswers({ ...POST_KEY, count: lostInARow })) {
      it(`after ${fault.name}, ${lostInARow} times in a row, leaves exactly one key, the one recorded, whose pair authenticates`, async () => {
        armInARow(fault, lostInARow + 1);
        const { id, outs } = await provider.create(serviceKey);
        expect(service.keyIds()).toEqual([id]);
        expect(await service.statusWithKey(outs?.keyId, outs?.keySecret)).toBe(200);
      });
    }
  }

  it("after a cut, a 500 and a timeout in a row, deletes each key found and records the fourth POST's", async () => {
    armInARow(
      {
        name: "cut, 500, timeout",
        plan: { cutAfterCommit: POST_KEY, failAfterCommit: POST_KEY, delayAfterCommit: { ...POST_KEY, ms: 10_000 } },
        attemptTimeoutMs: 300,
      },
      4,
    );
    const { id } = await provider.create(serviceKey);
    const writes = service.requests().filter((r) => !r.startsWith("GET"));
    expect(writes.filter((r) => r.startsWith("POST"))).toHaveLength(4);
    expect(writes.filter((r) => r.startsWith("DELETE"))).toHaveLength(3);
    expect(service.keyIds()).toEqual([id]);
  });

  it("once the budget of POSTs is spent, deletes the last key found and fails saying so", async () => {
    armInARow({ name: "cut", plan: { cutAfterCommit: { ...POST_KEY, count: 2 } } }, 2);
    const err = await failure(provider.create(serviceKey));
    expect(String(err)).toMatch(
      /sent 2 times, each answer lost, the retry budget is spent, and the one it made \(id [0-9a-f-]{36}\) was deleted/,
    );
    expect(service.keyIds()).toEqual([]);
  });

  it("tells the user it deleted the key whose secret was lost and made it again", async () => {
    service.emulator.setFaults({ failAfterCommit: POST_KEY });
    await provider.create(serviceKey);
    const deleted =
      service
        .requests()
        .find((r) => r.startsWith("DELETE"))
        ?.split("/")
        .pop() ?? "";
    expect(service.notices).toEqual([
      expect.stringMatching(
        new RegExp(
          `lost its answer .*found the API key "deployer" it made \\(id ${deleted}\\) but its secret was in the lost answer.*deleting it and making the key again\\.`,
        ),
      ),
    ]);
  });

  it("fails naming both keys when a key of the same name and roles was made within the clock-skew window, deleting and creating nothing more", async () => {
    const other = await service.byHand({ name: "deployer", roles: ["query_endpoints", "developer"] });
    service.emulator.resetRequestLog();
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const err = await failure(provider.create(serviceKey));
    const made = service.keyIds().filter((id) => id !== other.id);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect((err as AmbiguousCreateError).candidates).toEqual([other.id, ...made]);
    expect(String(err)).toContain(other.id);
    expect(service.keyIds()).toHaveLength(2);
    expect(service.requests().filter((r) => !r.startsWith("GET"))).toEqual([`POST ${KEYS}`]);
  });

  it("does not take a key of the same name made before the send, beyond the clock skew", async () => {
    const longAgo = Date.now() - CLOCK_SKEW_MS - 60_000;
    const now = vi.spyOn(Date, "now").mockReturnValue(longAgo);
    let older: string;
    try {
      older = (await service.byHand({ name: "deployer", roles: ["developer", "query_endpoints"] })).id;
    } finally {
      now.mockRestore();
    }
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const { id } = await provider.create(serviceKey);
    expect(service.keyIds()).toContain(older);
    expect(service.keyIds()).toEqual([older, id]);
    expect(service.requests().filter((r) => r.startsWith("DELETE"))).not.toContain(`DELETE ${KEYS}/${older}`);
  });

  it("does not take a key of the same name and roles made in the window that has been used, such as the key a rotation replaces", async () => {
    const inUse = await service.byHand({ name: "deployer", roles: ["developer", "query_endpoints"] });
    expect(await service.statusWithKey(inUse.keyId, inUse.keySecret)).toBe(200);
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const { id } = await provider.create(serviceKey);
    expect(service.keyIds()).toEqual([inUse.id, id]);
  });

  it("names the unusable key it could not delete, recording none", async () => {
    // One attempt: a retried DELETE would meet the 404 of the deletion its 500 hid, and succeed.
    useRuntime({ retryPolicy: { ...FAST_RETRIES, maxAttempts: 1 } });
    service.emulator.setFaults({
      cutAfterCommit: POST_KEY,
      failAfterCommit: { method: "DELETE", pathPattern: /\/keys\/[^/]+$/, count: 1 },
    });
    const err = await failure(provider.create(serviceKey));
    const made =
      service.emulator.requests
        .find((r) => r.method === "DELETE")
        ?.path.split("/")
        .pop() ?? "";
    expect(err).toMatchObject({ code: "UNUSABLE_KEY_LEFT", keyUuid: made });
    expect(String(err)).toContain(`If it is still there, delete it (in the console, or DELETE ${KEYS}/${made})`);
    expect(service.emulator.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("does not take a key made in the window with other roles", async () => {
    const other = await service.byHand({ name: "deployer", roles: ["admin"] });
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const { id } = await provider.create(serviceKey);
    expect(service.keyIds()).toEqual([other.id, id]);
  });

  for (const fault of AFTER_COMMIT) {
    it(`after ${fault.name}, takes the key of the assignedRoleIds sent, not one of the same name with others`, async () => {
      const other = await service.byHand({ name: "deployer", assignedRoleIds: [DEVELOPER] });
      service.emulator.resetRequestLog();
      armLostAnswer(service.emulator, fault);
      const { id } = await provider.create(roleIdKey);
      // The one DELETE is of the key the lost POST made: the other key is left, and the new one recorded.
      const deleted = service.requests().filter((r) => r.startsWith("DELETE"));
      expect(deleted).toHaveLength(1);
      expect(deleted[0]).not.toContain(other.id);
      expect(service.keyIds()).toEqual([other.id, id]);
      expect(service.emulator.snapshot().keys[id]?.assignedRoleIds).toEqual([ADMIN]);
    });
  }
});

describe("ApiKey create of local material whose answer is lost, against the emulator", () => {
  const service = keyEmulatorPerTest();

  for (const fault of AFTER_COMMIT) {
    it(`after ${fault.name}, keeps the one key the POST made, found by its suffix, and records it`, async () => {
      armLostAnswer(service.emulator, fault);
      const { id, outs } = await provider.create(localKey);
      expect(service.keyIds()).toEqual([id]);
      expect(service.emulator.snapshot().keys[id]?.keySuffix).toBe(String(outs?.keyId).slice(-4));
    });

    it(`after ${fault.name}, records the pair it made, which authenticates`, async () => {
      armLostAnswer(service.emulator, fault);
      const { outs } = await provider.create(localKey);
      expect(await service.statusWithKey(outs?.keyId, outs?.keySecret)).toBe(200);
    });
  }

  it("sends the POST once, then only lists", async () => {
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    await provider.create(localKey);
    expect(service.requests()).toEqual([`POST ${KEYS}`, `GET ${KEYS}`]);
  });

  it("records the kept key's outputs as a create does", async () => {
    service.emulator.setFaults({ failAfterCommit: POST_KEY });
    const { outs } = await provider.create(localKey);
    expect(outs).toMatchObject({
      organizationId: ORG_ID,
      name: "deployer",
      roles: ["developer", "query_endpoints"],
      keyMaterial: "local",
      keyId: expect.stringMatching(/^[A-Z0-9]{20}$/),
      keySecret: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(outs).not.toHaveProperty("hashData");
  });

  it("tells the user which key it recovered", async () => {
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const { id } = await provider.create(localKey);
    expect(service.notices).toEqual([
      expect.stringMatching(
        new RegExp(`lost its answer .*found the API key "deployer" it made \\(id ${id}\\) and recorded it`),
      ),
    ]);
  });

  it("does not take a key of the same name whose suffix differs", async () => {
    const other = await service.byHand({
      name: "deployer",
      roles: ["developer"],
      ...hashDataOf("SOMEOTHERKEYID00ZZZZ"),
    });
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const { id } = await provider.create(localKey);
    expect(service.keyIds()).toEqual([other.id, id]);
  });
});

/** hashData, as a body member, for a key ID and some secret. */
function hashDataOf(keyId: string): { hashData: ReturnType<typeof hashDataFor> } {
  return { hashData: hashDataFor(keyId, `secret-of-${keyId}`) };
}

describe("ApiKey create with the program's hashData whose answer is lost, against the emulator", () => {
  const service = keyEmulatorPerTest();
  const KEY_ID = "PROGRAMMADEKEYID0001";
  const hashed = { ...serviceKey, ...hashDataOf(KEY_ID) };

  it("keeps the key found by the suffix sent, with no DELETE and no second POST", async () => {
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const { id } = await provider.create(hashed);
    expect(service.keyIds()).toEqual([id]);
    expect(service.requests()).toEqual([`POST ${KEYS}`, `GET ${KEYS}`]);
  });

  it("fails naming each key when two of the same name carry the suffix sent, recording none", async () => {
    // Another key whose ID ends as ours does: the listing cannot tell them apart.
    const other = await service.byHand({ name: "deployer", roles: ["admin"], ...hashDataOf("ANOTHERKEYIDXYZ00001") });
    service.emulator.setFaults({ cutAfterCommit: POST_KEY });
    const err = await failure(provider.create(hashed));
    const made = service.keyIds().filter((id) => id !== other.id);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect((err as AmbiguousCreateError).candidates).toEqual([other.id, ...made]);
    for (const id of service.keyIds()) expect(String(err)).toContain(id);
  });
});
