// `pulumi refresh` on the real engine reads alerts and keys by list (docs/design/reading.md): under
// the published limits, a stack of 3 keys, 3 alerts and 1 PipeSettings is read with one list of
// the organization's keys, one page of alerts and the settings' one GET, never a GET per alert or
// key; what the lists no longer hold is gone from state, and drift still shows.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunResult } from "../support/engine";
import { byHand, changes, ourState, requestLog, sharedStack, succeeded, thresholdByHand } from "../support/engine";
import { ALERTS_PATH, KEYS_PATH, PIPE_IDS, SETTINGS_PATH } from "../support/fixtures";
import { DEPLOYER_KEY, LAG_ALERT } from "../support/programs";

describe("pulumi refresh of 3 keys, 3 alerts and a PipeSettings, under the published limits", () => {
  // The emulator's and the provider's default limits: area B 10 per 10 s, area A 100 per minute.
  const t = sharedStack("refresh-by-list", async ({ Alert, ApiKey, PipeSettings }) => {
    for (const i of [0, 1, 2]) {
      new ApiKey(`key-${i}`, { ...DEPLOYER_KEY, name: `deployer-${i}` });
      new Alert(`alert-${i}`, { ...LAG_ALERT, name: `lag ${i}`, threshold: 100 + i });
    }
    new PipeSettings("ingest", { ...PIPE_IDS, dbMaxThreads: 8 });
  });
  let refreshed: RunResult;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    succeeded(await t.stack.up());
    for (const [name, r] of ourState(t.stack)) ids.set(name, r.id ?? "");
    // Out of band: one key and one alert deleted, one alert's threshold changed.
    await byHand(t.emu, "DELETE", `${KEYS_PATH}/${ids.get("key-1")}`);
    await byHand(t.emu, "DELETE", `${ALERTS_PATH}/${ids.get("alert-1")}`);
    await thresholdByHand(t.emu, ids.get("alert-2") ?? "", 42);
    t.emu.resetRequestLog();
    refreshed = succeeded(await t.stack.refresh());
  });

  it("reads with one list of the keys, one of the alerts and one GET of the settings, and nothing else", () => {
    expect(requestLog(t.emu).sort()).toEqual([`GET ${ALERTS_PATH}`, `GET ${KEYS_PATH}`, `GET ${SETTINGS_PATH}`].sort());
  });

  it("draws no 429", () => {
    expect(t.emu.requests.filter((r) => r.status === 429)).toEqual([]);
  });

  it("drops from state the key and the alert the lists no longer hold, and shows the changed threshold", () => {
    expect(changes(refreshed).sort()).toEqual([
      "refresh-delete alert-1",
      "refresh-delete key-1",
      "refresh-update alert-2",
    ]);
    const state = ourState(t.stack);
    expect([...state.keys()].sort()).toEqual(["alert-0", "alert-2", "ingest", "key-0", "key-2"]);
  });
});
