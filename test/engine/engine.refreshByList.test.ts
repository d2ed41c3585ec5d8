// `pulumi refresh` on the real engine reads alerts and keys by list (docs/design/reading.md): under
// the published limits, a stack of 3 keys, 3 alerts and 1 PipeSettings is read with one list of
// the organization's keys, one page of alerts and the settings' one GET, never a GET per alert or
// key; what the lists no longer hold is gone from state, and drift still shows.

import type { PulumiFn } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import {
  byHand,
  changes,
  emulator as startEmulator,
  installedPackage,
  ourState,
  requestLog,
  stackOn,
  succeeded,
  type EngineStack,
  type RunResult,
} from "../support/engine";
import { ORG_ID as ORG } from "../support/fixtures";
import { DEPLOYER_KEY, LAG_ALERT } from "../support/programs";

const SERVICE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const PIPE = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";
const KEYS_PATH = `/v1/organizations/${ORG}/keys`;
const ALERTS_PATH = "/api/v2/alerts";
const SETTINGS_PATH = `/v1/organizations/${ORG}/services/${SERVICE}/pipes/${PIPE}/settings`;

describe("pulumi refresh of 3 keys, 3 alerts and a PipeSettings, under the published limits", () => {
  let emu: RunningEmulator;
  let s: EngineStack;
  let refreshed: RunResult;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    // The emulator's and the provider's default limits: area B 10 per 10 s, area A 100 per minute.
    emu = await startEmulator();
    const { Alert, ApiKey, PipeSettings } = installedPackage();
    const program: PulumiFn = async () => {
      for (const i of [0, 1, 2]) {
        new ApiKey(`key-${i}`, { ...DEPLOYER_KEY, name: `deployer-${i}` });
        new Alert(`alert-${i}`, { ...LAG_ALERT, name: `lag ${i}`, threshold: 100 + i });
      }
      new PipeSettings("ingest", { organizationId: ORG, serviceId: SERVICE, pipeId: PIPE, dbMaxThreads: 8 });
    };
    s = await stackOn(emu, "refresh-by-list", { program });
    succeeded(await s.up());
    for (const [name, r] of ourState(s)) ids.set(name, r.id ?? "");
    // Out of band: one key and one alert deleted, one alert's threshold changed.
    await byHand(emu, "DELETE", `${KEYS_PATH}/${ids.get("key-1")}`);
    await byHand(emu, "DELETE", `${ALERTS_PATH}/${ids.get("alert-1")}`);
    const changed = emu.snapshot().alerts[ids.get("alert-2") ?? ""];
    await byHand(emu, "PUT", `${ALERTS_PATH}/${ids.get("alert-2")}`, {
      name: changed?.name,
      source: changed?.source,
      threshold: 42,
      thresholdType: changed?.thresholdType,
      interval: changed?.interval,
      channel: changed?.channel,
    });
    emu.resetRequestLog();
    refreshed = succeeded(await s.refresh());
  });

  it("reads with one list of the keys, one of the alerts and one GET of the settings, and nothing else", () => {
    expect(requestLog(emu).sort()).toEqual([`GET ${ALERTS_PATH}`, `GET ${KEYS_PATH}`, `GET ${SETTINGS_PATH}`].sort());
  });

  it("draws no 429", () => {
    expect(emu.requests.filter((r) => r.status === 429)).toEqual([]);
  });

  it("drops from state the key and the alert the lists no longer hold, and shows the changed threshold", () => {
    expect(changes(refreshed).sort()).toEqual([
      "refresh-delete alert-1",
      "refresh-delete key-1",
      "refresh-update alert-2",
    ]);
    const state = ourState(s);
    expect([...state.keys()].sort()).toEqual(["alert-0", "alert-2", "ingest", "key-0", "key-2"]);
  });
});
