// Test support: a fresh emulator for each test with the ApiKey provider pointed at it over real
// HTTP (emulatorPerTest.ts), every request body it sends captured, and keys made by hand as someone
// in the console would.

import { Agent, type Dispatcher } from "undici";
import { emulatorPerTest, type EmulatorPerTest } from "./emulatorPerTest";
import { KEYS_PATH } from "./fixtures";

export const KEYS = KEYS_PATH;

/** A key made by hand: its uuid, and the pair the service answered (none when hashData was sent). */
export interface HandMadeKey {
  readonly id: string;
  readonly keyId?: string;
  readonly keySecret?: string;
}

export interface KeyEmulator extends EmulatorPerTest {
  /** The body of every request the provider sent during the test, as sent (text), in order. */
  readonly bodies: readonly string[];
  /** Creates a key outside the provider (as in the console). */
  byHand(body: Record<string, unknown>): Promise<HandMadeKey>;
  /** The uuids of the keys on the service, in creation order. */
  keyIds(): string[];
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

const basic = (keyId: unknown, keySecret: unknown) =>
  `Basic ${Buffer.from(`${String(keyId)}:${String(keySecret)}`).toString("base64")}`;

export function keyEmulatorPerTest(): KeyEmulator {
  const bodies: string[] = [];
  // Each test's agent starts the list afresh.
  const dispatcher = (): Dispatcher => {
    bodies.length = 0;
    return recordingAgent(bodies);
  };
  const base = emulatorPerTest({ service: "cloud", helper: "keyEmulatorPerTest", dispatcher });
  return Object.assign(base, {
    bodies,
    async byHand(body: Record<string, unknown>): Promise<HandMadeKey> {
      const res = await fetch(`${base.emulator.url}${KEYS}`, {
        method: "POST",
        headers: {
          authorization: basic(base.emulator.keyId, base.emulator.keySecret),
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { result?: { key?: { id?: unknown }; keyId?: string; keySecret?: string } };
      const id = answer.result?.key?.id;
      if (res.status !== 200 || typeof id !== "string")
        throw new Error(`creating a key by hand answered ${res.status}`);
      return {
        id,
        ...(answer.result?.keyId === undefined
          ? {}
          : { keyId: answer.result.keyId, keySecret: answer.result.keySecret }),
      };
    },
    keyIds(): string[] {
      return Object.keys(base.emulator.snapshot().keys);
    },
    async statusWithKey(keyId: unknown, keySecret: unknown): Promise<number> {
      const res = await fetch(`${base.emulator.url}${KEYS}`, { headers: { authorization: basic(keyId, keySecret) } });
      await res.arrayBuffer();
      return res.status;
    },
  });
}
