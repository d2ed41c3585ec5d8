// The pieces the end-to-end programs are made of, stated once: the alert and the key most programs
// hold, the stack outputs through which the tests read a key, and what a rotation of that key does.

import { expect } from "vitest";
import type { AlertArgs, ApiKey, ApiKeyArgs } from "../../provider";
import { changes, engineOrder, type RunResult } from "./engine";
import { ALERTS_PATH, KEYS_PATH, ORG_ID } from "./fixtures";

/** A search alert on ingest lag, to the on-call webhook. */
export const LAG_ALERT: AlertArgs = {
  name: "Ingest lag",
  source: "search",
  threshold: 300,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "ops-oncall" },
};

/** A developer key named "deployer" in the emulator's organization. */
export const DEPLOYER_KEY: ApiKeyArgs = { organizationId: ORG_ID, name: "deployer", roles: ["developer"] };

/** A key's uuid, pair and suffix, under the stack output names the tests read them by. */
export function keyOutputs(key: ApiKey) {
  return { keyUuid: key.id, keyId: key.keyId, keySecret: key.keySecret, keySuffix: key.keySuffix };
}

/** An alert as a person makes it at the console (no name, its own webhook): what a read or an import finds. */
export const HAND_MADE_ALERT = {
  source: "search",
  threshold: 123,
  thresholdType: "below",
  interval: "1h",
  channel: { type: "webhook", webhookId: "made-by-hand" },
};

/**
 * A keeper rotation of the "deployer" key with the "lag" alert built from it, as either front door
 * runs it: the new key made first, the alert moved to it, the old key deleted last.
 */
export function expectKeyRotated(result: Pick<RunResult, "steps" | "events">): void {
  expect(changes(result)).toEqual(["replace deployer", "update lag"]);
  expect(engineOrder(result)).toEqual([
    "create-replacement deployer",
    "replace deployer",
    "update lag",
    "delete-replaced deployer",
  ]);
}

/** The writes of that rotation, in the order the service must see them. */
export function keyRotationWrites(alertId: string, oldKeyUuid: string): string[] {
  return [`POST ${KEYS_PATH}`, `PUT ${ALERTS_PATH}/${alertId}`, `DELETE ${KEYS_PATH}/${oldKeyUuid}`];
}
