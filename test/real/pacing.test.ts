// Pacing by the service's own count, on the real service: its answers state how many of the key's
// 100 a minute remain (RateLimit-*), so a run that starts after the key was used elsewhere waits for
// the service's window rather than drawing 429s. This file takes about a minute: the run has to
// outlast the server's window, which is one minute for every key (HyperDX's express-rate-limit).

import { performance } from "node:perf_hooks";
import { beforeAll, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import {
  answersLogged,
  call,
  makeReferents,
  providerOn,
  realServicePerFile,
  type Referents,
} from "../support/realService";

const service = realServicePerFile();
let referents: Referents;

beforeAll(async () => {
  referents = await makeReferents(service());
});

/** Spends the key by hand until the service says `left` remain in its window; answers the seconds until that window resets. */
async function spendUntil(left: number): Promise<number> {
  for (;;) {
    const answer = await call(service(), "GET", "/api/v2/alerts?limit=1");
    const remaining = Number(answer.headers["ratelimit-remaining"]);
    if (answer.status !== 200 || !Number.isInteger(remaining)) throw new Error(`spending answered ${answer.status}`);
    if (remaining <= left) return Number(answer.headers["ratelimit-reset"]);
  }
}

it("with 60 of the key's 100 spent by hand just before, creates 105 alerts with no 429, in about the time to the window's reset", async () => {
  const resetSeconds = await spendUntil(40);
  const provider = providerOn(service());
  try {
    const started = performance.now();
    const created = await Promise.all(
      Array.from({ length: 105 }, (_, i) =>
        alert.create({
          threshold: i,
          interval: "5m",
          source: "tile",
          thresholdType: "above",
          channel: { type: "webhook", webhookId: referents.webhookId },
          dashboardId: referents.dashboardId,
          tileId: referents.tileId,
          name: `paced ${i}`,
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const refused = answersLogged(service(), 429);
    console.log(
      `105 alerts created in ${seconds.toFixed(1)} s with ${refused} answers 429; the window had ${resetSeconds} s left after the 60 spent by hand`,
    );
    expect(refused).toBe(0);
    expect(new Set(created.map((c) => c.id)).size).toBe(105);
    // 40 fit in the window that was left; the other 65 wait for its reset, then go at once.
    expect(seconds).toBeGreaterThanOrEqual(resetSeconds - 1);
    expect(seconds).toBeLessThanOrEqual(resetSeconds + 15);
  } finally {
    provider.restore();
  }
}, 180_000);
