// Test support: a fresh emulator for each test with the ApiKey provider pointed at it over real
// HTTP, the notices the provider says collected, every request body it sends captured, and keys
// made by hand as someone in the console would.

import { Agent, type Dispatcher } from "undici";
import { afterEach, beforeEach } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { resetConfiguration } from "../../provider/connection";
import { useDispatcher, useRetryPolicy } from "../../provider/http/client";
import { resetLimiters } from "../../provider/http/rateLimit";
import { useNotices } from "../../provider/notices";
import { useSecondLookDelay } from "../../provider/recovery";
import { FAST_RETRIES } from "./alertEmulator";
import { ORG_ID } from "./fixtures";

export { FAST_RETRIES };

const ENV = ["ALERTPIPE_CLOUD_URL", "ALERTPIPE_CLOUD_KEY_ID", "ALERTPIPE_CLOUD_KEY_SECRET", "ALERTPIPE_CLOUD_RATE_LIMIT"] as const;

export const KEYS = `/v1/organizations/${ORG_ID}/keys`;

/** A key made by hand: its uuid, and the pair the service answered (none when hashData was sent). */
export interface HandMadeKey {
  readonly id: string;
  readonly keyId?: string;
  readonly keySecret?: string;
}

export interface KeyEmulator {
  readonly emulator: RunningEmulator;
  /** Lines the provider said to the user during the test. */
  readonly notices: readonly string[];
  /** The body of every request the provider sent during the test, as sent (text), in order. */
  readonly bodies: readonly string[];
  /** Creates a key outside the provider (as in the console). */
  byHand(body: Record<string, unknown>): Promise<HandMadeKey>;
  /** The uuids of the keys on the service, in creation order. */
  keyIds(): string[];
  /** "METHOD path" of each request since the test began (or since `emulator.resetRequestLog()`). */
  requests(): string[];
  /** The status the service answers to a key's own use (listing its organization's keys). */
  statusWithKey(keyId: unknown, keySecret: unknown): Promise<number>;
}

/** A dispatcher that goes to the network as the provider's own does, noting each request body. */
function recordingAgent(bodies: string[]): Dispatcher {
  return new Agent().compose((dispatch) => (opts, handler) => {
    if (opts.body !== undefined && opts.body !== null)
      bodies.push(typeof opts.body === "string" ? opts.body : Buffer.from(opts.body as Uint8Array).toString("utf8"));
    return dispatch(opts, handler);
  });
}

export function keyEmulatorPerTest(): KeyEmulator {
  let current: RunningEmulator | undefined;
  let agent: Dispatcher | undefined;
  const notices: string[] = [];
  const bodies: string[] = [];
  const saved: Record<string, string | undefined> = {};
  const emulator = (): RunningEmulator => {
    if (!current) throw new Error("keyEmulatorPerTest: the emulator exists only while a test runs");
    return current;
  };
  const basic = (keyId: unknown, keySecret: unknown) => `Basic ${Buffer.from(`${String(keyId)}:${String(keySecret)}`).toString("base64")}`;

  beforeEach(async () => {
    current = await startEmulator({ port: 0, rateLimits: { cloud: false, alerting: false } });
    for (const name of ENV) saved[name] = process.env[name];
    process.env.ALERTPIPE_CLOUD_URL = current.url;
    process.env.ALERTPIPE_CLOUD_KEY_ID = current.keyId;
    process.env.ALERTPIPE_CLOUD_KEY_SECRET = current.keySecret;
    process.env.ALERTPIPE_CLOUD_RATE_LIMIT = "off";
    bodies.length = 0;
    agent = recordingAgent(bodies);
    useDispatcher(agent);
    useRetryPolicy(FAST_RETRIES);
    resetConfiguration();
    resetLimiters();
    notices.length = 0;
    useNotices((line) => notices.push(line));
    useSecondLookDelay(50);
  });

  afterEach(async () => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    useDispatcher(undefined);
    useRetryPolicy(undefined);
    useNotices(undefined);
    useSecondLookDelay(undefined);
    resetConfiguration();
    await agent?.close();
    agent = undefined;
    await current?.close();
    current = undefined;
  });

  return {
    get emulator() {
      return emulator();
    },
    notices,
    bodies,
    async byHand(body) {
      const res = await fetch(`${emulator().url}${KEYS}`, {
        method: "POST",
        headers: { authorization: basic(emulator().keyId, emulator().keySecret), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { result?: { key?: { id?: unknown }; keyId?: string; keySecret?: string } };
      const id = answer.result?.key?.id;
      if (res.status !== 200 || typeof id !== "string") throw new Error(`creating a key by hand answered ${res.status}`);
      return { id, ...(answer.result?.keyId === undefined ? {} : { keyId: answer.result.keyId, keySecret: answer.result.keySecret }) };
    },
    keyIds() {
      return Object.keys(emulator().snapshot().keys);
    },
    requests() {
      return emulator().requests.map((r) => `${r.method} ${r.path}`);
    },
    async statusWithKey(keyId, keySecret) {
      const res = await fetch(`${emulator().url}${KEYS}`, { headers: { authorization: basic(keyId, keySecret) } });
      await res.arrayBuffer();
      return res.status;
    },
  };
}
