// The pieces the end-to-end programs are made of, stated once: the alert and the key most programs
// hold, and the stack outputs through which the tests read a key.

import type { AlertArgs, ApiKey, ApiKeyArgs } from "../../provider";
import { ORG_ID } from "./fixtures";

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
