// The fault soak's phases as tests, for any scenario through either door (scripts/engine/soak.ts):
// one SIGINT during the first up; up re-run under the same faults until it converges; the changed
// program (scenarios with one) applied under the same faults; faults off, a
// census of service against state (no duplicate, no orphan), a clean up that writes nothing, a
// refresh without drift, each key's login (scenarios with keys); a destroy under the faults that
// leaves nothing of the program. Each run prints its seed, the faults it met and its seconds.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS_SOAK, Soak, type SoakDoor, type SoakScenario } from "../../scripts/engine/soak";
import { pluginFolder } from "./engine";

/** Re-runs allowed after the interrupted first up, and destroy runs allowed. */
const MAX_RUNS = 3;
/** Time for a test of several runs of the engine; a run here takes seconds to a minute. */
const RUNS_TIMEOUT_MS = 6 * 60_000;

export interface SoakRunSpec {
  door: SoakDoor;
  seed: number;
  /** Probability a write is faulted. */
  rate: number;
  scenario?: SoakScenario;
}

/** Seeds from the environment variable `name` ("1,2,3"), else `fallback`. */
export const seedsFrom = (name: string, fallback: string): number[] =>
  (process.env[name] ?? fallback).split(",").map(Number);

/** One describe block of the soak's phases per run. */
export function soakSuite(runs: readonly SoakRunSpec[]): void {
  for (const { door, seed, rate, scenario = KEYS_SOAK } of runs)
    describe(`the ${scenario.name} soak through the ${door === "native" ? "native plugin" : "dynamic classes"} with ${rate * 100}% of writes faulted, seed ${seed}`, () => {
      const tag = `[${scenario.name} ${door} seed ${seed}]`;
      let soak: Soak;
      let started: number;

      beforeAll(async () => {
        started = Date.now();
        soak = await Soak.open({
          scenario,
          seed,
          rate,
          door,
          // The plugin as the packed package installs it, as npm's node_modules/.bin holds it.
          ...(door === "native" ? { pluginDir: pluginFolder() } : {}),
          log: (line) => console.log(`${tag} ${line}`),
        });
        console.log(`${tag} soak: ${rate * 100}% of writes faulted, seed ${seed}`);
      });

      afterAll(async () => {
        if (soak === undefined) return;
        console.log(`${tag} ${soak.summary()}; ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
        await soak.close();
      });

      it(
        "takes one SIGINT during the first up, which then stops",
        async () => {
          const { run, interrupted } = await soak.interruptedUp();
          expect(interrupted).toBe(true);
          expect(run.ok).toBe(false);
        },
        RUNS_TIMEOUT_MS,
      );

      it(
        `converges within ${MAX_RUNS} re-runs of up under the same faults`,
        async () => {
          const runs = await soak.upUntilOk(MAX_RUNS);
          expect(runs.at(-1)?.ok, runs.flatMap((r) => r.errors).join("\n")).toBe(true);
        },
        RUNS_TIMEOUT_MS,
      );

      if (scenario.changed !== undefined)
        it(
          `applies the changed program under the same faults within ${MAX_RUNS} runs of up`,
          async () => {
            const runs = await soak.changeUntilOk(MAX_RUNS);
            expect(runs.at(-1)?.ok, runs.flatMap((r) => r.errors).join("\n")).toBe(true);
          },
          RUNS_TIMEOUT_MS,
        );

      it("leaves the service holding exactly the objects state records: no duplicate, no orphan, every setting set", () => {
        soak.faultsOff();
        expect(soak.duplicated()).toEqual([]);
        expect(soak.census()).toEqual({
          duplicates: 0,
          orphans: 0,
          missing: 0,
          settingsOff: 0,
          recorded: scenario.declared,
          pending: 0,
        });
      });

      it(
        "changes nothing and sends no write on a clean up, which registers every resource and deletes none",
        async () => {
          const clean = await soak.cleanUp();
          const { run, changes, writes } = clean;
          expect(soak.uncleanCleanUp(clean)).toEqual([]);
          expect(run.ok, run.errors.join("\n")).toBe(true);
          expect(run.registered).toBe(scenario.declared);
          expect(changes).toEqual([]);
          expect(writes).toEqual([]);
        },
        RUNS_TIMEOUT_MS,
      );

      it(
        "finds no drift on refresh",
        async () => {
          const { run, drift } = await soak.refresh();
          expect(run.ok, run.errors.join("\n")).toBe(true);
          expect(drift).toEqual([]);
        },
        RUNS_TIMEOUT_MS,
      );

      if (scenario.keys !== undefined)
        it(
          "logs in with every key's recorded pair",
          async () => {
            const statuses = await soak.logins();
            expect(Object.keys(statuses)).toHaveLength(scenario.keys ?? 0);
            expect(Object.entries(statuses).filter(([, status]) => status !== 200)).toEqual([]);
          },
          RUNS_TIMEOUT_MS,
        );

      it(
        `destroys under the same faults within ${MAX_RUNS} runs, leaving nothing the program made`,
        async () => {
          const runs = await soak.destroyUntilOk(MAX_RUNS);
          expect(runs.at(-1)?.ok, runs.flatMap((r) => r.errors).join("\n")).toBe(true);
          soak.faultsOff();
          const left = soak.leftovers();
          expect(left).toEqual(Object.fromEntries(Object.keys(left).map((k) => [k, 0])));
          expect(Object.keys(left)).toEqual(expect.arrayContaining([...scenario.kinds]));
        },
        RUNS_TIMEOUT_MS,
      );
    });
}
