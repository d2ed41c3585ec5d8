// The seeded random fault plan (issue 18, point 4): each write, with probability `rate`, takes one
// of the four faults the fixed plan members inject, drawn from a PRNG seeded with `seed`, so a soak
// that prints its seed can be replayed as far as the order of its writes allows. Seeds here are
// fixed: the assertions hold for any seed, and each test prints the one it used.

import { randomUUID } from "node:crypto";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { FAULT_KINDS, type FaultKind, type RandomFaults, type RunningEmulator } from "../../../emulator";
import { alerting, basic, cloud, start, validAlert } from "./helpers";

/** Sends `count` alert POSTs one after another and gives each one's fault (undefined: none), as the log records it. */
async function faultsOfPosts(emu: RunningEmulator, count: number): Promise<Array<FaultKind | "failNext" | undefined>> {
  for (let i = 0; i < count; i++) await send(emu, "POST", "/api/v2/alerts", validAlert);
  return emu.requests.map((r) => r.fault);
}

/** One request that may be cut or held: resolves with its status, 0 when no answer came. */
async function send(emu: RunningEmulator, method: string, path: string, body?: unknown): Promise<number> {
  const authorization = path.startsWith("/v1/") ? basic(emu.keyId, emu.keySecret) : `Bearer ${emu.token}`;
  try {
    const answer = await request(`${emu.url}${path}`, {
      method,
      headers: { authorization, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    await answer.body.arrayBuffer();
    return answer.statusCode;
  } catch {
    return 0;
  }
}

function plan(random: RandomFaults): RandomFaults {
  console.log(`random faults: seed ${random.seed}, rate ${random.rate}`);
  return random;
}

describe("a random fault plan", () => {
  it("gives the same faults to the same writes for the same seed, and other faults for another seed", async () => {
    const runs: Array<Array<FaultKind | "failNext" | undefined>> = [];
    for (const seed of [1801, 1801, 1802]) {
      const emu = await start({ rateLimits: { alerting: false } });
      emu.setFaults({ random: plan({ seed, rate: 0.5, kinds: ["failBeforeCommit", "failAfterCommit"] }) });
      runs.push(await faultsOfPosts(emu, 24));
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]).not.toEqual(runs[2]);
    // Rate 0.5 over 24 writes: some faulted, some not (the seed fixes which).
    expect(runs[0]?.some((f) => f === undefined)).toBe(true);
    expect(runs[0]?.some((f) => f !== undefined)).toBe(true);
  });

  it("starts again from its seed when the plan is set again", async () => {
    const emu = await start({ rateLimits: { alerting: false } });
    const random = plan({ seed: 77, rate: 0.5, kinds: ["failBeforeCommit"] });
    emu.setFaults({ random });
    const first = await faultsOfPosts(emu, 12);
    emu.resetRequestLog();
    emu.setFaults({ random });
    expect(await faultsOfPosts(emu, 12)).toEqual(first);
  });

  it("faults nothing at rate 0", async () => {
    const emu = await start({ rateLimits: { alerting: false } });
    emu.setFaults({ random: plan({ seed: 5, rate: 0 }) });
    expect(await faultsOfPosts(emu, 20)).toEqual(Array<undefined>(20).fill(undefined));
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(20);
  });

  it("faults only the writes its routes name, when it names some", async () => {
    const emu = await start({ rateLimits: { alerting: false } });
    const routes = [{ method: "PUT", pathPattern: /^\/api\/v2\/alerts\/[^/]+$/ }];
    emu.setFaults({ random: plan({ seed: 4601, rate: 1, kinds: ["failBeforeCommit"], routes }) });
    // The POSTs are outside the routes: none faulted, even at rate 1; the PUT is.
    expect(await faultsOfPosts(emu, 5)).toEqual(Array<undefined>(5).fill(undefined));
    expect(await send(emu, "PUT", "/api/v2/alerts/0123456789abcdef01234567", validAlert)).toBe(503);
    expect(emu.requests.at(-1)?.fault).toBe("failBeforeCommit");
  });

  it("never faults a read, even at rate 1", async () => {
    const emu = await start();
    emu.setFaults({ random: plan({ seed: 9, rate: 1 }) });
    const org = randomUUID();
    const statuses = [
      await send(emu, "GET", "/api/v2/alerts"),
      await send(emu, "GET", "/api/v2/alerts/0123456789abcdef01234567"),
      await send(emu, "GET", `/v1/organizations/${org}/keys`),
    ];
    expect(statuses).toEqual([200, 404, 200]);
    expect(emu.requests.map((r) => r.fault)).toEqual([undefined, undefined, undefined]);
  });

  it("faults writes of both areas, every method, at rate 1", async () => {
    const emu = await start();
    emu.setFaults({ random: plan({ seed: 11, rate: 1, kinds: ["failBeforeCommit"] }) });
    const org = randomUUID();
    const pipe = `/v1/organizations/${org}/services/${randomUUID()}/pipes/${randomUUID()}/settings`;
    const statuses = [
      await send(emu, "POST", "/api/v2/alerts", validAlert),
      await send(emu, "PUT", "/api/v2/alerts/0123456789abcdef01234567", validAlert),
      await send(emu, "DELETE", "/api/v2/alerts/0123456789abcdef01234567"),
      await send(emu, "POST", `/v1/organizations/${org}/keys`, { name: "k", roles: ["admin"] }),
      await send(emu, "PATCH", `/v1/organizations/${org}/keys/${randomUUID()}`, { name: "k" }),
      await send(emu, "PUT", pipe, { db_max_threads: 8 }),
    ];
    expect(statuses).toEqual([503, 503, 503, 503, 503, 503]);
    expect(emu.requests.map((r) => r.fault)).toEqual(Array<string>(6).fill("failBeforeCommit"));
    expect(emu.snapshot()).toMatchObject({ alerts: {}, keys: {}, pipes: {} });
  });

  it("draws every kind over many writes", async () => {
    const emu = await start({ rateLimits: { alerting: false } });
    emu.setFaults({ random: plan({ seed: 2026, rate: 1, delayMs: 1 }) });
    const seen = new Set(await faultsOfPosts(emu, 40));
    expect([...seen].sort()).toEqual([...FAULT_KINDS].sort());
  });

  it("refuses a rate outside 0 to 1, a seed that is not an integer and no kinds", async () => {
    const emu = await start();
    expect(() => emu.setFaults({ random: { seed: 1, rate: 1.5 } })).toThrow("rate must be 0 to 1");
    expect(() => emu.setFaults({ random: { seed: 1.5, rate: 0.3 } })).toThrow("seed must be an integer");
    expect(() => emu.setFaults({ random: { seed: 1, rate: 0.3, kinds: [] } })).toThrow("kinds must not be empty");
  });
});

describe("each kind of the random plan behaves as its fixed counterpart", () => {
  it("failBeforeCommit: 503, nothing made", async () => {
    const emu = await start();
    emu.setFaults({ random: plan({ seed: 3, rate: 1, kinds: ["failBeforeCommit"] }) });
    const answer = await alerting(emu, "POST", "/api/v2/alerts", validAlert);
    expect(answer.status).toBe(503);
    expect(emu.snapshot().alerts).toEqual({});
  });

  it("cutAfterCommit: no answer, the object made", async () => {
    const emu = await start();
    emu.setFaults({ random: plan({ seed: 3, rate: 1, kinds: ["cutAfterCommit"] }) });
    expect(await send(emu, "POST", "/api/v2/alerts", validAlert)).toBe(0);
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(1);
    expect(emu.requests.map((r) => [r.status, r.fault])).toEqual([[0, "cutAfterCommit"]]);
  });

  it("failAfterCommit: 500 in the area's shape, the change made", async () => {
    const emu = await start();
    const org = randomUUID();
    emu.setFaults({ random: plan({ seed: 3, rate: 1, kinds: ["failAfterCommit"] }) });
    const answer = await cloud(emu, "POST", `/v1/organizations/${org}/keys`, { name: "lost", roles: ["admin"] });
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ status: 500, error: expect.any(String) });
    expect(Object.values(emu.snapshot().keys)).toEqual([expect.objectContaining({ name: "lost" })]);
  });

  it("delayAfterCommit: the real answer, delayMs late, the object made before it", async () => {
    const emu = await start();
    emu.setFaults({ random: plan({ seed: 3, rate: 1, kinds: ["delayAfterCommit"], delayMs: 400 }) });
    const sent = Date.now();
    const answering = send(emu, "POST", "/api/v2/alerts", validAlert);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(Object.keys(emu.snapshot().alerts)).toHaveLength(1);
    expect(await answering).toBe(200);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(400);
    expect(emu.requests.map((r) => [r.status, r.fault])).toEqual([[200, "delayAfterCommit"]]);
  });

  it("leaves a write that a fixed fault took to that fault, drawing nothing for it", async () => {
    const emu = await start();
    emu.setFaults({
      failAfterCommit: { method: "POST", pathPattern: /^\/api\/v2\/alerts$/, count: 1 },
      random: plan({ seed: 3, rate: 1, kinds: ["cutAfterCommit"] }),
    });
    expect(await send(emu, "POST", "/api/v2/alerts", validAlert)).toBe(500);
    expect(await send(emu, "POST", "/api/v2/alerts", validAlert)).toBe(0);
    expect(emu.requests.map((r) => r.fault)).toEqual(["failAfterCommit", "cutAfterCommit"]);
  });
});
