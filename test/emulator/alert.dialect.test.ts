// How the provider spells a search alert's `source` (provider/alert/dialect.ts): programs say
// `search`; a service that answers `GET /api/v2` as HyperDX does (the emulator's 2026 mode) is sent
// `saved_search` and read back as `search`, so a read finds nothing to do; the contract's service
// (the default mode, which has no such path) is sent `search` as before. Asked once per process, and
// only for a search alert; `alertpipe:alertingDialect` says it instead of asking.

import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorMode, type RunningEmulator } from "../../emulator";
import * as alert from "../../provider/alert/provider";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { envFor, FAST_RETRIES, setEnv } from "../support/emulatorPerTest";
import { makeReferents } from "./service/helpers";

const host = { __provider: "serialized" };
const base = { name: "errors", threshold: 3, thresholdType: "above", interval: "5m" };
/** A search alert and a tile alert on the webhook and saved search made in the current emulator. */
let search: Record<string, unknown> = {};
let tile: Record<string, unknown> = {};

let emu: RunningEmulator | undefined;
let restoreEnv = (): void => {};

/** A fresh emulator in `mode` and a fresh provider process pointed at it, `dialect` in its config when given. */
async function serviceIn(mode: EmulatorMode, dialect?: string): Promise<RunningEmulator> {
  emu = await startEmulator({ port: 0, mode, rateLimits: { cloud: false, alerting: false } });
  // What the alerts name, made first (the 2026 mode checks each exists), out of the request log.
  const refs = await makeReferents(emu);
  emu.resetRequestLog();
  const channel = { type: "webhook", webhookId: refs.hooks[0] };
  search = { ...base, source: "search", channel, savedSearchId: refs.savedSearchId };
  tile = { ...base, source: "tile", channel, dashboardId: refs.dashboardId, tileId: refs.tileId };
  restoreEnv = setEnv({
    ...envFor("alerting", emu),
    ...(dialect === undefined ? {} : { ALERTPIPE_ALERTING_DIALECT: dialect }),
  });
  resetRuntime();
  useRuntime({ retryPolicy: FAST_RETRIES });
  return emu;
}

afterEach(async () => {
  restoreEnv();
  resetRuntime();
  await emu?.close();
  emu = undefined;
});

const log = (e: RunningEmulator) => e.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
const stored = (e: RunningEmulator, id: string) => e.snapshot().alerts[id];

describe("against the contract's service (the emulator's default mode)", () => {
  it("asks GET /api/v2 once, meets a 404, and sends source search, as before", async () => {
    const e = await serviceIn("contract");
    const first = await alert.create({ ...search, ...host });
    await alert.create({ ...search, name: "errors 2", ...host });
    expect(log(e)).toEqual(["GET /api/v2 404", "POST /api/v2/alerts 200", "POST /api/v2/alerts 200"]);
    expect(stored(e, first.id)?.source).toBe("search");
  });

  it("asks only whether the service holds dashboards for a tile alert, whose body both spell alike", async () => {
    const e = await serviceIn("contract");
    await alert.create({ ...tile, ...host });
    // The contract's dashboards are outside its API: no tile to check (issue 45).
    expect(log(e)).toEqual(["GET /api/v2 404", "POST /api/v2/alerts 200"]);
  });
});

describe("against a service that answers GET /api/v2 as HyperDX does (the emulator's 2026 mode)", () => {
  it("sends saved_search, records search, and a read finds nothing to do", async () => {
    const e = await serviceIn("2026");
    const made = await alert.create({ ...search, ...host });
    expect(log(e)).toEqual(["GET /api/v2 200", "POST /api/v2/alerts 200"]);
    expect(stored(e, made.id)?.source).toBe("saved_search");
    expect(made.outs.source).toBe("search");
    const read = await alert.read(made.id, { ...made.outs, ...host });
    expect(read.props.source).toBe("search");
    expect((await alert.diff(made.id, { ...read.props, ...host }, { ...search, ...host })).changes).toBe(false);
  });

  it("sends saved_search in an update's whole body too, without asking again", async () => {
    const e = await serviceIn("2026");
    const made = await alert.create({ ...search, ...host });
    e.resetRequestLog();
    const after = await alert.update(made.id, { ...made.outs, ...host }, { ...search, threshold: 9, ...host });
    expect(log(e)).toEqual([`PUT /api/v2/alerts/${made.id} 200`]);
    expect(stored(e, made.id)).toMatchObject({ source: "saved_search", threshold: 9 });
    expect(after.outs.source).toBe("search");
  });
});

describe("alertpipe:alertingDialect", () => {
  it('"2026" is taken as said: saved_search sent, nothing asked', async () => {
    const e = await serviceIn("2026", "2026");
    const made = await alert.create({ ...search, ...host });
    expect(log(e)).toEqual(["POST /api/v2/alerts 200"]);
    expect(stored(e, made.id)?.source).toBe("saved_search");
  });

  it('"contract" is taken as said, even against a 2026 service, which refuses search', async () => {
    const e = await serviceIn("2026", "contract");
    await expect(alert.create({ ...search, ...host })).rejects.toThrow(/POST \/api\/v2\/alerts failed with status 400/);
    expect(log(e)).toEqual(["POST /api/v2/alerts 400"]);
  });
});

describe("a tile alert moved to another tile", () => {
  it("is replaced against HyperDX, whose dashboard update may already have deleted it", async () => {
    await serviceIn("2026");
    const made = await alert.create({ ...tile, ...host });
    const moved = { ...tile, tileId: "65b000000000000000000001", ...host };
    const diff = await alert.diff(made.id, { ...made.outs, ...host }, moved);
    expect(diff.replaces).toEqual(expect.arrayContaining(["tileId"]));
    expect(diff.deleteBeforeReplace).toBe(false);
  });

  it("counts a 404 on the old one's delete as done", async () => {
    const e = await serviceIn("2026");
    const made = await alert.create({ ...tile, ...host });
    // The dashboard's update took it along.
    await fetch(`${e.url}/api/v2/alerts/${made.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${e.token}` },
    });
    await alert.delete(made.id, { ...made.outs, ...host });
    expect(log(e).at(-1)).toBe(`DELETE /api/v2/alerts/${made.id} 404`);
  });

  it("moves in place against the contract's service, its body as before", async () => {
    await serviceIn("contract");
    const made = await alert.create({ ...tile, ...host });
    const diff = await alert.diff(made.id, { ...made.outs, ...host }, { ...tile, tileId: "t2", ...host });
    expect(diff.replaces).not.toContain("tileId");
    expect(diff.changes).toBe(true);
  });
});
