// Source and Dashboard on managed ClickStack: the emulator's ClickHouse Cloud mode over real HTTP,
// through the dynamic door's methods. Each goes to the service's /clickstack path with the Cloud key;
// a source names the connection the platform made (there is no connections route); what the Cloud's
// schemas differ in is translated at the wire or refused in preview, never sent wrong.

import { describe, expect, it } from "vitest";
import { SEEDED_CONNECTION, SEEDED_SOURCES } from "../../emulator";
import * as source from "../../provider/source/provider";
import * as dashboard from "../../provider/dashboard/provider";
import * as lookups from "../../provider/dynamic/lookups";
import { CLICKSTACK_IDS, emulatorPerTest } from "../support/emulatorPerTest";
import { TRACE_SOURCE, logSource } from "../support/sources";

const BASE = `/v1/organizations/${CLICKSTACK_IDS.organizationId}/services/${CLICKSTACK_IDS.serviceId}/clickstack`;
const PLATFORM = SEEDED_CONNECTION.id;
const logs = logSource(PLATFORM);
const traces = { ...TRACE_SOURCE, connection: PLATFORM };
const tile = (name: string, sourceId: string, displayType = "line", x = 0) => ({
  name,
  x,
  y: 0,
  w: 6,
  h: 3,
  config: { displayType, sourceId, select: [{ aggFn: "count" }] },
});

describe("Source and Dashboard on managed ClickStack against the emulator's ClickHouse Cloud mode", () => {
  const service = emulatorPerTest({ service: "clickstack", helper: "managed ClickStack observability test" });
  const basic = () =>
    `Basic ${Buffer.from(`${service.emulator.keyId}:${service.emulator.keySecret}`).toString("base64")}`;
  /** `wrong`: a request the Cloud's document refuses, sent on purpose (left out of the OpenAPI tier). */
  const send = async (method: string, path: string, body?: unknown, wrong = false) => {
    const res = await fetch(`${service.emulator.url}${BASE}${path}`, {
      method,
      headers: {
        authorization: basic(),
        "content-type": "application/json",
        ...(wrong ? { "x-alertpipe-deliberate": "invalid" } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type") ?? "", text };
  };

  it("makes a source on the platform's connection and a dashboard on it under /clickstack, read back with no difference", async () => {
    const logsMade = await source.create(logs);
    const ops = { name: "Ops", tiles: [tile("Errors", logsMade.id), tile("Latency", logsMade.id, "number", 6)] };
    const made = await dashboard.create(ops);
    expect(service.requests()).toEqual([`POST ${BASE}/sources`, `POST ${BASE}/dashboards`]);
    expect(service.emulator.snapshot().sources?.[logsMade.id]).toMatchObject({ connection: PLATFORM });
    expect(Object.keys(made.outs.tileIds as Record<string, string>).sort()).toEqual(["Errors", "Latency"]);

    service.emulator.resetRequestLog();
    const sourceRead = await source.read(logsMade.id, logsMade.outs);
    const boardRead = await dashboard.read(made.id, made.outs);
    // Through the lists, though the Cloud document has a GET of one of each.
    expect(service.requests()).toEqual([`GET ${BASE}/sources`, `GET ${BASE}/dashboards`]);
    expect((await source.diff(logsMade.id, sourceRead.props, logs)).changes).toBe(false);
    expect((await dashboard.diff(made.id, boardRead.props, ops)).changes).toBe(false);
  });

  it("updates the dashboard keeping its tiles' ids, then deletes both, leaving the seeded sources alone", async () => {
    const logsMade = await source.create(logs);
    const ops = { name: "Ops", tiles: [tile("Errors", logsMade.id), tile("Latency", logsMade.id, "number", 6)] };
    const made = await dashboard.create(ops);
    const swapped = {
      ...ops,
      tiles: [
        { ...ops.tiles[1], x: 0 },
        { ...ops.tiles[0], x: 6 },
      ],
    };
    const updated = await dashboard.update(made.id, made.outs, swapped);
    expect(updated.outs.tileIds).toEqual(made.outs.tileIds);
    await dashboard.delete(made.id, updated.outs);
    await source.delete(logsMade.id, logsMade.outs);
    const s = service.emulator.snapshot();
    expect(s.dashboards).toEqual({});
    expect(Object.keys(s.sources ?? {}).sort()).toEqual(SEEDED_SOURCES.map((x) => x.id).sort());
  });

  it("sends a trace source's durationPrecision, which the Cloud's schema requires, when the program leaves it out", async () => {
    const made = await source.create(traces);
    expect(service.emulator.snapshot().sources?.[made.id]).toMatchObject({ durationPrecision: 3 });
    // Without it the Cloud mode refuses, as the schema says.
    const bare = await send("POST", "/sources", { ...traces, name: "bare" }, true);
    expect(bare.status).toBe(400);
    expect(bare.text).toContain("durationPrecision");
  });

  it("lists the platform's sources by getSources, each naming the platform's connection, the id a Source takes", async () => {
    const { sources } = await lookups.getSources();
    expect(sources.map((x) => x.connection)).toEqual(SEEDED_SOURCES.map(() => PLATFORM));
    // Said before any request, rather than the gateway's HTML 404 blaming the settings.
    const failed = await lookups.getConnections().catch((e: unknown) => e);
    expect(String(failed)).toContain("managed ClickStack");
    expect(String(failed)).toContain("getSources lists them");
    await expect(lookups.getConnection({ id: PLATFORM })).rejects.toThrow(/no connections route/);
    expect(service.requests()).toEqual([`GET ${BASE}/sources`]);
  });

  it("serves no connections route: an HTML 404, as for any route the gateway does not serve", async () => {
    const list = await send("GET", "/connections", undefined, true);
    expect([list.status, list.type]).toEqual([404, expect.stringMatching(/^text\/html/)]);
    const one = await send("GET", `/connections/${PLATFORM}`, undefined, true);
    expect([one.status, one.type]).toEqual([404, expect.stringMatching(/^text\/html/)]);
  });

  it("refuses a dashboard POST whose filter carries an id, as the Cloud's create schema has none", async () => {
    const filter = { type: "QUERY_EXPRESSION", name: "env", expression: "env", sourceId: SEEDED_SOURCES[0].id };
    const refused = await send(
      "POST",
      "/dashboards",
      { name: "F", tiles: [], filters: [{ ...filter, id: "f1" }] },
      true,
    );
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ status: 400, error: expect.stringContaining("filters.0.id") });
    const taken = await send("POST", "/dashboards", { name: "F", tiles: [], filters: [filter] });
    expect(taken.status).toBe(200);
  });

  it("validates a dashboard in the Cloud envelope without keeping it", async () => {
    const good = await send("POST", "/dashboards/validate", { name: "V", tiles: [tile("A", SEEDED_SOURCES[0].id)] });
    expect(JSON.parse(good.text)).toMatchObject({ status: 200, result: { valid: true, errors: [] } });
    const bad = await send("POST", "/dashboards/validate", { name: "V", tiles: [{ ...tile("A", "x"), x: 30 }] });
    expect(JSON.parse(bad.text)).toMatchObject({
      result: { valid: false, errors: [{ path: "tiles.0.x" }], normalized: null },
    });
    expect(service.emulator.snapshot().dashboards ?? {}).toEqual({});
  });

  it("refuses in preview what managed ClickStack's schemas lack, before any request", async () => {
    const formulas = {
      name: "F",
      tiles: [
        {
          ...tile("A", SEEDED_SOURCES[0].id),
          config: { displayType: "line", sourceId: SEEDED_SOURCES[0].id, select: [{ aggFn: "count" }], seriesLimit: 5 },
        },
      ],
    };
    const board = await dashboard.check({}, formulas);
    expect(board.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(/^\[INVALID_INPUT\] tiles\[0\]\.config\.seriesLimit is not a field of managed ClickStack/),
    ]);
    const versioned = await source.check({}, { ...logs, serviceVersionExpression: "ServiceVersion" });
    expect(versioned.failures).toEqual([
      expect.objectContaining({
        property: "serviceVersionExpression",
        reason: expect.stringContaining("not a field of managed ClickStack's sources"),
      }),
    ]);
    expect(service.requests()).toEqual([]);
  });
});
