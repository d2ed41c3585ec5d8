// Preview says what up will do: the engine previews an update of a dynamic resource with the
// checked inputs as its outputs, so whatever an update cannot change must be among them, or the
// resources built from it preview as changing when up leaves them alone.

import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { byHand, changes, emulator, stackOn } from "../support/engine";

async function disableKeyByHand(emu: RunningEmulator): Promise<void> {
  const [key] = Object.values(emu.snapshot().keys);
  if (key === undefined) throw new Error("no key on the emulator");
  await byHand(emu, "PATCH", `/v1/organizations/${key.organizationId}/keys/${key.id}`, { state: "disabled" });
}

describe("preview on the real engine", () => {
  it("after a key's drift is refreshed, previews exactly the updates up then performs", async () => {
    const emu = await emulator();
    const stack = await stackOn(emu, "preview-drift");
    expect((await stack.up()).ok).toBe(true);
    await disableKeyByHand(emu);
    expect((await stack.refresh()).ok).toBe(true);

    const preview = await stack.preview();
    expect(preview.ok, preview.error).toBe(true);
    const up = await stack.up();
    expect(up.ok, up.error).toBe(true);
    // The alert's message names the key's suffix: it must not preview as changing.
    expect(changes(preview)).toEqual(["update deployer"]);
    expect(changes(up)).toEqual(changes(preview));
  });

  it("keeps the key's identity known through the preview of a later update, once refreshed", async () => {
    const emu = await emulator();
    const stack = await stackOn(emu, "preview-known");
    expect((await stack.up()).ok).toBe(true);
    expect((await stack.refresh()).ok).toBe(true);
    await disableKeyByHand(emu);
    expect((await stack.refresh()).ok).toBe(true);
    const preview = await stack.preview();
    const deployer = preview.steps.find((s) => s.name === "deployer");
    expect(deployer?.op).toBe("update");
    expect(deployer?.outputs?.keySuffix).toBe(Object.values(emu.snapshot().keys)[0]?.keySuffix);
  });
});
