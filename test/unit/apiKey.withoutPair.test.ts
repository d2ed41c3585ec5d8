// A key whose create answer lacked its key ID or secret is kept in state with an error; the next
// run must not clear that error silently and keep a key nobody can use: its diff proposes a
// replacement (the new key created before this one is deleted) and a line says why. Keys whose pair
// is unknown by design (taken over, imported) or held by the program (hashData) are not this.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as provider from "../../provider/apiKey/provider";
import { PartialFailure } from "../../provider/errors";
import { useRuntime } from "../../provider/runtime/runtime";
import { answerOnce, cloudAnswer, mockApiPerTest } from "../support/mockApi";
import { failure } from "../support/failures";
import { CREATED_KEY_ID, CREATED_SECRET, KEYS_PATH, KEY_UUID, keyInputs, storedKey } from "../support/fixtures";
import { hashDataFor } from "../support/hashData";

const mock = mockApiPerTest();
const notices: string[] = [];

beforeEach(() => {
  notices.length = 0;
  useRuntime({ notices: (line) => notices.push(line) });
});

afterEach(() => {
  notices.length = 0;
});

/** The state a create keeps when its answer is `result`: the PartialFailure's properties. */
async function keptAfterAnswer(result: unknown): Promise<Record<string, unknown>> {
  answerOnce(mock.api.cloud, mock.seen, { method: "POST", path: KEYS_PATH }, 200, cloudAnswer(result));
  const err = await failure(provider.create(keyInputs));
  expect(err).toBeInstanceOf(PartialFailure);
  return (err as PartialFailure).properties;
}

const key = {
  id: KEY_UUID,
  name: "deployer",
  roles: ["developer"],
  state: "enabled",
  createdAt: "2026-11-22T09:00:00.000Z",
};

describe("ApiKey created without its pair, at the next diff", () => {
  it("proposes a replacement, created before the delete, when the answer lacked the keySecret", async () => {
    const kept = await keptAfterAnswer({ key, keyId: CREATED_KEY_ID });
    const d = await provider.diff(KEY_UUID, kept, keyInputs);
    expect(d).toMatchObject({
      changes: true,
      replaces: ["keySecret"],
      deleteBeforeReplace: false,
      detailedDiff: { keySecret: { kind: "add", replaces: true } },
    });
  });

  it("proposes a replacement when the answer lacked the keyId", async () => {
    const kept = await keptAfterAnswer({ key, keySecret: CREATED_SECRET });
    expect((await provider.diff(KEY_UUID, kept, keyInputs)).replaces).toEqual(["keySecret"]);
  });

  it("says why in a line the preview shows, naming the key", async () => {
    const kept = await keptAfterAnswer({ key, keyId: CREATED_KEY_ID });
    await provider.diff(KEY_UUID, kept, keyInputs);
    expect(notices).toEqual([
      expect.stringMatching(
        new RegExp(`API key ${KEY_UUID} was created without its key ID or secret.*nobody can use it: replacing it`),
      ),
    ]);
  });

  it("proposes nothing for a taken-over or imported key, whose pair is null by design", async () => {
    const d = await provider.diff(KEY_UUID, { ...storedKey, keyId: null, keySecret: null }, keyInputs);
    expect(d).toMatchObject({ changes: false, replaces: [] });
    expect(notices).toEqual([]);
  });

  it("proposes nothing for a key made from the program's hashData, which keeps no pair in state", async () => {
    const hashData = hashDataFor("AAAAAAAAAAAAAAAAWXYZ", "secret-of-the-program");
    const { keyId: _id, keySecret: _secret, ...stored } = storedKey;
    const d = await provider.diff(KEY_UUID, { ...stored, hashData }, { ...keyInputs, hashData });
    expect(d).toMatchObject({ changes: false, replaces: [] });
  });
});
