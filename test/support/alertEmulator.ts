// Test support: a fresh emulator for each test with the Alert provider pointed at it over real
// HTTP (emulatorPerTest.ts), and the alerts made by hand as someone in the UI would.

import { emulatorPerTest, type EmulatorPerTest } from "./emulatorPerTest";
import { ALERTS_PATH } from "./fixtures";

export interface AlertEmulator extends EmulatorPerTest {
  /** Creates an alert outside the provider (as in the UI) and answers its id. */
  byHand(body: Record<string, unknown>): Promise<string>;
  /** The ids of the alerts on the service. */
  alertIds(): string[];
}

export function alertEmulatorPerTest(): AlertEmulator {
  const base = emulatorPerTest({ service: "alerting", helper: "alertEmulatorPerTest" });
  return Object.assign(base, {
    async byHand(body: Record<string, unknown>): Promise<string> {
      const res = await fetch(`${base.emulator.url}${ALERTS_PATH}`, {
        method: "POST",
        headers: { authorization: `Bearer ${base.emulator.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { data?: { id?: unknown } };
      if (res.status !== 200 || typeof answer.data?.id !== "string")
        throw new Error(`creating an alert by hand answered ${res.status}`);
      return answer.data.id;
    },
    alertIds(): string[] {
      return Object.keys(base.emulator.snapshot().alerts);
    },
  });
}
