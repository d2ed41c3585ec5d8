// `alertpipe export` against the emulator over loopback HTTP, run as its command line runs: an
// estate made by hand (alerts of both sources, keys, a pipe's settings) becomes a `pulumi import
// --file` document in one request per collection, with only GETs, and the same names each time.

import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEEDED_SOURCES, startEmulator, type RunningEmulator } from "../../emulator";
import { NAME_PATTERN } from "../../provider/export/naming";
import { ALERTS_PATH, KEYS_PATH, ORG_ID, SETTINGS_PATH } from "../support/fixtures";
import { byHand } from "../support/engine";
import {
  exportEnv,
  exportInProcess,
  seedEstate,
  seedTeamObjects,
  type Estate,
  type ExportRun,
} from "../support/exportRuns";

describe("alertpipe export against the emulator", () => {
  let emu: RunningEmulator;
  let estate: Estate;
  let run: ExportRun;
  const args = () => ["export", "--organization", ORG_ID, "--pipe", estate.pipe, "--pipe", estate.emptyPipe];
  const document = (r: ExportRun) =>
    JSON.parse(r.stdout) as { resources: Array<{ type: string; name: string; id: string }> };

  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    estate = await seedEstate(emu);
    emu.resetRequestLog();
    run = await exportInProcess(args(), exportEnv(emu));
  });
  afterAll(() => emu.close());

  it("exits 0 with every alert, key and set pipe's settings, each by its import id", () => {
    expect(run.code, run.stderr).toBe(0);
    const byType = (t: string) =>
      document(run)
        .resources.filter((r) => r.type === `alertpipe:index:${t}`)
        .map((r) => r.id)
        .sort();
    expect(byType("Alert")).toEqual([...estate.alerts].sort());
    expect(byType("ApiKey")).toEqual([...estate.keys].sort());
    expect(byType("PipeSettings")).toEqual([estate.pipe]);
  });

  it("names each by its own name where it is its alone, else with its id's last characters", () => {
    const names = document(run).resources.map((r) => r.name);
    for (const name of names) expect(name).toMatch(NAME_PATTERN);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(["ingestLag", "alert5xxErrors", "cafeLatency", "deployer"]));
    expect(names.filter((n) => /^highCpu[0-9a-f]{6}$/.test(n))).toHaveLength(2);
    expect(names.filter((n) => /^ci[0-9a-f]{6}$/.test(n))).toHaveLength(2);
    expect(names.filter((n) => /^alert[0-9a-f]{6}$/.test(n))).toHaveLength(1);
  });

  it("sends one GET per collection and per pipe, and nothing else", () => {
    const [org, service, pipe] = estate.emptyPipe.split("/");
    expect(emu.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        `GET ${ALERTS_PATH}`,
        "GET /api/v2/webhooks",
        "GET /api/v2/saved-searches",
        "GET /api/v2/dashboards",
        "GET /api/v2/sources",
        "GET /api/v2/connections",
        `GET ${KEYS_PATH}`,
        `GET ${SETTINGS_PATH}`,
        `GET /v1/organizations/${org}/services/${service}/pipes/${pipe}/settings`,
      ].sort(),
    );
  });

  it("reports on stderr the pipe with no setting set as skipped, and that keys come without their secret", () => {
    expect(run.stderr).toContain(`skipped PipeSettings ${estate.emptyPipe.split("/")[2]}`);
    expect(run.stderr).toContain("set at least one setting");
    expect(run.stderr).toContain("without their keyId and keySecret");
    // And the emulator's seeded connection and two sources, as a team's HyperDX holds its own.
    expect(run.stderr).toMatch(/alertpipe export: 14 resources written to stdout/);
  });

  it("gives the same document on a second export of the same objects", async () => {
    const again = await exportInProcess(args(), exportEnv(emu));
    expect(again.stdout).toBe(run.stdout);
  });

  it("writes the document to --out, leaving stdout empty", async () => {
    const dir = mkdtempSync(join(tmpdir(), "alertpipe-export-"));
    try {
      const out = join(dir, "import.json");
      const written = await exportInProcess([...args(), "--out", out], exportEnv(emu));
      expect(written.code).toBe(0);
      expect(written.stdout).toBe("");
      expect(readFileSync(out, "utf8")).toBe(run.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps only the types asked for and the names matching --name", async () => {
    const some = await exportInProcess(
      ["export", "--type", "ApiKey", "--organization", ORG_ID, "--name", "ci"],
      exportEnv(emu),
    );
    expect(document(some).resources.map((r) => r.type)).toEqual(["alertpipe:index:ApiKey", "alertpipe:index:ApiKey"]);
    expect(some.stderr).toContain("4 listed, 2 exported, 2 left out by --name");
  });
});

describe("alertpipe export of webhooks and saved searches", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
  });
  afterAll(() => emu.close());

  it("lists each with one GET and writes each by its id, saying headers are not adopted", async () => {
    const hook = {
      name: "ops",
      service: "generic",
      url: "https://hooks.example.com/ops",
      headers: { A: "s3cret-hdr" },
    };
    const madeHook = (await byHand(emu, "POST", "/api/v2/webhooks", hook)) as { data: { id: string } };
    const search = { name: "errors", sourceId: SEEDED_SOURCES[0].id };
    const madeSearch = (await byHand(emu, "POST", "/api/v2/saved-searches", search)) as { data: { id: string } };
    emu.resetRequestLog();
    const run = await exportInProcess(["export", "--type", "Webhook", "--type", "SavedSearch"], exportEnv(emu));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      resources: [
        { type: "alertpipe:index:Webhook", name: "ops", id: madeHook.data.id },
        { type: "alertpipe:index:SavedSearch", name: "errors", id: madeSearch.data.id },
      ],
    });
    expect(run.stderr).toContain("adopted without their headers and queryParams");
    expect(`${run.stdout}${run.stderr}`).not.toContain("s3cret-hdr");
    expect(emu.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "GET /api/v2/saved-searches",
      "GET /api/v2/webhooks",
    ]);
  });

  it("writes the webhooks and the saved search before the alert that uses them", async () => {
    const team = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    await seedTeamObjects(team);
    const run = await exportInProcess(["export"], exportEnv(team)).finally(() => team.close());
    expect(run.code, run.stderr).toBe(0);
    const types = (JSON.parse(run.stdout) as { resources: Array<{ type: string }> }).resources.map((r) => r.type);
    const last = (t: string) => types.lastIndexOf(`alertpipe:index:${t}`);
    expect(types.indexOf("alertpipe:index:Alert"), types.join(", ")).toBeGreaterThan(
      Math.max(last("Webhook"), last("SavedSearch")),
    );
  });
});
