// Not a test: `npm run record:hyperdx` runs this (vitest project "record-hyperdx", on only when
// ALERTPIPE_RECORD_HYPERDX=1) to record the lifecycle of a program through each door against a
// running HyperDX API server, through a recording proxy: the requests the provider sends through
// the real engine, and the server's answers (test/recorded/hyperdx-b52a6fa/lifecycle-<door>.json).

import { expect, it } from "vitest";
import { record } from "../../scripts/record/hyperdx";
import { makeReferents } from "../../scripts/record/scenarios/referents";
import type { Session } from "../../scripts/record/session";
import { DOORS, RUNS, alertingConfig, lifecycleScenario, openDoor, type Door } from "../support/hyperdxLifecycle";
import { OBSERVABILITY_RUNS, OBSERVABILITY_SCENARIO, observabilityDoor } from "../support/observabilityLifecycle";
import {
  KEPT_RUNS,
  keptByHand,
  keptDoor,
  keptScenario,
  keptIn,
  putBody,
  setKeptByHand,
  type ByHand,
} from "../support/keptLifecycle";

const url = process.env.ALERTPIPE_RECORD_URL ?? "";
const key = process.env.ALERTPIPE_RECORD_KEY ?? "";
const only = process.env.ALERTPIPE_RECORD_ONLY?.split(",").filter((n) => n !== "");

/** The threshold of `id` set to 99 by hand, its other members as the server holds them. */
async function thresholdByHand(s: Session, id: string): Promise<void> {
  const live = await s.setup("read the search alert by hand", "GET", `/api/v2/alerts/${id}`);
  const data = (live.body as { data: Record<string, unknown> }).data;
  const changed = await s.setup("set its threshold to 99 by hand", "PUT", `/api/v2/alerts/${id}`, {
    ...putBody(data),
    threshold: 99,
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
}

async function lifecycle(s: Session, door: Door): Promise<void> {
  const refs = await makeReferents(s, `life-${door}`);
  let phase = "";
  const proxy = await s.proxy(() => phase);
  try {
    const stack = await openDoor(door, alertingConfig(proxy.url, key), refs);
    for (const run of RUNS) {
      if (run.label === "refresh") await thresholdByHand(s, stack.ids().onSearch ?? "");
      phase = run.label;
      const result = await stack.run(run.kind);
      expect(result.ok, `${door} ${run.label}: ${result.told}`).toBe(true);
    }
  } finally {
    await proxy.close();
  }
}

it.each(DOORS.filter((door) => only === undefined || only.includes(lifecycleScenario(door))))(
  "records the lifecycle through the %s door",
  async (door) => {
    expect(url, "ALERTPIPE_RECORD_URL").not.toBe("");
    const count = await record(url, key, {
      name: lifecycleScenario(door),
      about: `A program's lifecycle through the ${door} door: up, up again, a threshold changed by hand, refresh, up, destroy; the provider's requests as it sent them through the real engine.`,
      run: (s) => lifecycle(s, door),
    });
    console.log(`${lifecycleScenario(door)}: ${count} exchanges`);
  },
  600_000,
);

it.runIf(only === undefined || only.includes(OBSERVABILITY_SCENARIO))(
  "records the observability lifecycle through the dynamic door",
  async () => {
    expect(url, "ALERTPIPE_RECORD_URL").not.toBe("");
    const count = await record(url, key, {
      name: OBSERVABILITY_SCENARIO,
      about:
        "A whole observability program (connection, source, dashboard of three tiles, saved search, webhook, two tile " +
        "alerts by tileIds, a search alert) through the dynamic door: up, up again, tiles moved and renamed in place, an " +
        "alert moved to another tile, destroy; the provider's requests as it sent them through the real engine.",
      run: async (s) => {
        let phase = "";
        const proxy = await s.proxy(() => phase);
        try {
          const stack = await observabilityDoor(alertingConfig(proxy.url, key));
          for (const run of OBSERVABILITY_RUNS) {
            stack.phase(run.phase);
            phase = run.label;
            const result = await stack.run(run.kind);
            expect(result.ok, `${run.label}: ${result.told}`).toBe(true);
          }
        } finally {
          await proxy.close();
        }
      },
    });
    console.log(`${OBSERVABILITY_SCENARIO}: ${count} exchanges`);
  },
  600_000,
);

it.each(DOORS.filter((door) => only === undefined || only.includes(keptScenario(door))))(
  "records the kept-fields lifecycle through the %s door",
  async (door) => {
    expect(url, "ALERTPIPE_RECORD_URL").not.toBe("");
    const count = await record(url, key, {
      name: keptScenario(door),
      about:
        "Fields set by hand kept through updates (issue 44): a connection, a log source, a metric source and a dashboard " +
        `of a number tile, a table tile and a filter through the ${door} door; up; the sources' materialized views and ` +
        "exponential histogram table, the tiles' colorRules, backgroundChart and onClick and the filter's " +
        "appliesToSourceIds set by hand; an up that renames the sources, the dashboard and a tile; refresh; each " +
        "object read by hand; destroy; the provider's requests as it sent them through the real engine.",
      run: async (s) => {
        const hand: ByHand = async (what, method, path, body, refused = false) => {
          const answer = await s.setup(what, method, `/api/v2${path}`, body, { words: refused });
          expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(refused ? 400 : 200);
          return (answer.body as { data: Record<string, unknown> }).data;
        };
        let phase = "";
        const proxy = await s.proxy(() => phase);
        try {
          const stack = await keptDoor(door, alertingConfig(proxy.url, key));
          for (const run of KEPT_RUNS) {
            stack.phase(run.phase);
            if (run.kind === "destroy") {
              const ids = stack.ids();
              for (const kind of ["logs", "metrics", "ops"] as const) {
                const path = `/${kind === "ops" ? "dashboards" : "sources"}/${ids[kind] ?? ""}`;
                const held = await hand(`read ${kind} by hand after the refresh`, "GET", path);
                expect(keptIn(kind, held), kind).toEqual(keptByHand(kind, ids.logs ?? ""));
              }
            }
            phase = run.label;
            const result = await stack.run(run.kind);
            expect(result.ok, `${run.label}: ${result.told}`).toBe(true);
            if (run.label === "up") {
              const ids = stack.ids();
              for (const [name, id] of Object.entries(ids)) s.name(name, id);
              await setKeptByHand(hand, ids);
            }
          }
        } finally {
          await proxy.close();
        }
      },
    });
    console.log(`${keptScenario(door)}: ${count} exchanges`);
  },
  600_000,
);
