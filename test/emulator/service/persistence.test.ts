import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SEEDED_SOURCES, startEmulator } from "../../../emulator/index";
import { alerting, basic, cloud, createKey, data, result, settingsPath, start, validAlert } from "./helpers";

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "alertpipe-emulator-"));
  file = join(dir, "state.json");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("persistence with dataFile", () => {
  it("alerts, pipe settings and the team survive a restart", async () => {
    const first = await start({ dataFile: file });
    const alert = data(await alerting(first, "POST", "/api/v2/alerts", validAlert));
    const path = settingsPath();
    await cloud(first, "PUT", path, { db_max_threads: 8 });
    await first.close();

    const second = await start({ dataFile: file });
    expect(data(await alerting(second, "GET", `/api/v2/alerts/${alert.id}`))).toEqual(alert);
    expect(result(await cloud(second, "GET", path))).toMatchObject({ db_max_threads: 8 });
    expect(second.snapshot().team).toBe(alert.team);
  });

  it("a managed ClickStack alert's email channel survives a restart", async () => {
    const base =
      "/v1/organizations/6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/services/7b2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e/clickstack";
    const options = { dataFile: file, cloudDialect: "clickhouse", rateLimits: { cloud: false } } as const;
    const first = await start(options);
    const search = result<{ id: string }>(
      await cloud(first, "POST", `${base}/saved-searches`, { name: "errors", sourceId: SEEDED_SOURCES[0].id }),
    );
    const channel = { type: "email", emailRecipients: ["oncall@example.com"] };
    const body = { ...validAlert, source: "saved_search", savedSearchId: search.id, channel };
    const made = result<{ id: string }>(await cloud(first, "POST", `${base}/alerts`, body));
    await first.close();

    const second = await start(options);
    expect(result(await cloud(second, "GET", `${base}/alerts/${made.id}`))).toMatchObject({ channel });
  });

  it("a created key still authenticates after a restart", async () => {
    const org = randomUUID();
    const first = await start({ dataFile: file });
    const created = await createKey(first, org);
    await first.close();

    const second = await start({ dataFile: file });
    expect(
      (await cloud(second, "GET", settingsPath(org), undefined, basic(created.keyId, created.keySecret))).status,
    ).toBe(200);
  });

  it("writes each change before answering, without leaving temp files", async () => {
    const emu = await start({ dataFile: file });
    const alert = data(await alerting(emu, "POST", "/api/v2/alerts", validAlert));
    const onDisk = JSON.parse(readFileSync(file, "utf8")) as { alerts: Record<string, unknown> };
    expect(onDisk.alerts[alert.id]).toEqual(alert);
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("never writes a key secret to the data file", async () => {
    const emu = await start({ dataFile: file });
    const created = await createKey(emu, randomUUID());
    expect(readFileSync(file, "utf8")).not.toContain(created.keySecret);
  });

  it("refuses to start on a file that is not an emulator state, and leaves it untouched", async () => {
    writeFileSync(file, '{"hello":"world"}');
    await expect(startEmulator({ port: 0, dataFile: file })).rejects.toThrow(/not an emulator state file/);
    expect(readFileSync(file, "utf8")).toBe('{"hello":"world"}');
  });
});
