// `keyMaterial: "local"` on the real Pulumi engine (the CLI via the Automation API) against the
// emulator: the provider makes the key ID and secret itself and sends only their hashes, so the
// secret never crosses the network; the pair works against the service, and the secret is a Pulumi
// secret, never in plain text in the state or its export. (That no request body holds the secret is
// asserted by the unit tests: the emulator logs no bodies.)

import { describe, expect, it } from "vitest";
import type { RunResult } from "../support/engine";
import { changes, ourState, requestLog, sharedStack, statusWithKey, succeeded } from "../support/engine";
import { KEYS_PATH, ORG_ID } from "../support/fixtures";
import { sha256Base64 } from "../support/hashData";
import { keyOutputs } from "../support/programs";

describe("an ApiKey whose material is made locally", () => {
  const t = sharedStack("local-key", async ({ ApiKey }) =>
    keyOutputs(new ApiKey("ci", { organizationId: ORG_ID, name: "ci", roles: ["developer"], keyMaterial: "local" })),
  );
  let up: RunResult;
  // The pair from the stack outputs; never printed (assertions on it say only true or false).
  let keyId = "";
  let keySecret = "";

  it("creates the key with one POST, and outputs a key ID of 20 characters A-Z and 0-9", async () => {
    up = succeeded(await t.stack.up());
    expect(changes(up)).toEqual(["create ci"]);
    expect(requestLog(t.emu)).toEqual([`POST ${KEYS_PATH}`]);
    keyId = String(up.outputs.keyId?.value);
    keySecret = String(up.outputs.keySecret?.value);
    expect(keyId).toMatch(/^[A-Z0-9]{20}$/);
    expect(ourState(t.stack).get("ci")?.id).toBe(up.outputs.keyUuid?.value);
  });

  it("outputs the secret as a Pulumi secret of at least 40 URL-safe characters", () => {
    expect(up.outputs.keySecret?.secret).toBe(true);
    expect(/^[A-Za-z0-9_-]{40,}$/.test(keySecret), "the secret is 40+ characters of A-Z a-z 0-9 _ -").toBe(true);
  });

  it("gave the service only the pair's hashes and the key ID's suffix", () => {
    const keys = Object.values(t.emu.snapshot().keys);
    expect(keys).toHaveLength(1);
    const stored = keys[0];
    // The emulator keeps a key ID and a secret hash only for a key it made itself.
    expect(stored?.keyId).toBe("");
    expect(stored?.keySecretSha256).toBe("");
    expect(stored?.keySuffix).toBe(keyId.slice(-4));
    expect(stored?.hashData?.keyIdHash === sha256Base64(keyId), "the stored key ID hash is the output key ID's").toBe(
      true,
    );
    expect(
      stored?.hashData?.keySecretHash === sha256Base64(keySecret),
      "the stored secret hash is the output secret's",
    ).toBe(true);
  });

  it("makes a pair that works against the service", async () => {
    expect(await statusWithKey(t.emu, ORG_ID, keyId, keySecret)).toBe(200);
  });

  it("keeps neither the secret nor its hash in plain text in the state file or pulumi stack export", async () => {
    const secretHash = sha256Base64(keySecret);
    for (const [where, text] of [
      ["state file", t.stack.readStateFile()],
      ["stack export", await t.stack.exportText()],
    ] as const) {
      expect(text.includes(keySecret), `the secret in plain text in the ${where}`).toBe(false);
      expect(text.includes(secretHash), `the secret's hash in plain text in the ${where}`).toBe(false);
    }
  });

  it("changes nothing on a second up, keeping the same pair", async () => {
    t.emu.resetRequestLog();
    const again = succeeded(await t.stack.up());
    expect(changes(again)).toEqual([]);
    expect(requestLog(t.emu, (m) => m !== "GET")).toEqual([]);
    expect(again.outputs.keyId?.value).toBe(keyId);
    expect(again.outputs.keySecret?.value === keySecret, "the same secret as after the create").toBe(true);
  });
});
