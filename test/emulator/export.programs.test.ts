// `alertpipe export --format yaml|typescript` against the emulator (issue 38): the program written
// holds every object of an estate whose names meet, adopted by the import option or importId, each
// of its references wired by name whatever the names; and `--name` keeps what a kept alert uses.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ORG_ID } from "../support/fixtures";
import { envFor } from "../support/emulatorPerTest";
import {
  exportEnv,
  exportInProcess,
  seedDuplicateEstate,
  seedTeamObjects,
  TEAM_SECRET,
  type DuplicateEstate,
  type ExportRun,
} from "../support/exportRuns";

const NO_LIMITS = { rateLimits: { cloud: false, alerting: false } } as const;

describe("alertpipe export --format of an estate whose names meet", () => {
  let emu: RunningEmulator;
  let estate: DuplicateEstate;
  const exportAs = (format: string) =>
    exportInProcess(["export", "--organization", ORG_ID, "--pipe", estate.pipe, "--format", format], exportEnv(emu));
  let yaml: ExportRun;
  let ts: ExportRun;

  beforeAll(async () => {
    emu = await startEmulator(NO_LIMITS);
    estate = await seedDuplicateEstate(emu);
    emu.resetRequestLog();
    yaml = await exportAs("yaml");
    ts = await exportAs("typescript");
  });
  afterAll(() => emu.close());

  it("writes a YAML program with every object, each adopted with the import option", () => {
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout.match(/^ {4}type: alertpipe:index:\w+$/gm)).toHaveLength(estate.objects);
    expect(yaml.stdout.match(/^ {6}import: "[^"]+"$/gm)).toHaveLength(estate.objects);
    for (const id of [...estate.webhooks, ...estate.savedSearches, ...estate.alerts, ...estate.keys])
      expect(yaml.stdout).toContain(`import: "${id}"`);
  });

  it("wires every reference of the YAML program by name, none left as an id", () => {
    const refs = yaml.stdout.match(/"\$\{[A-Za-z0-9]+\.(?:id|tileIds\[\\".*?\\"\])\}"/g) ?? [];
    expect(refs).toHaveLength(estate.references);
    for (const id of [...estate.webhooks, ...estate.savedSearches, ...estate.connections, ...estate.sources])
      expect(yaml.stdout.split(`"${id}"`).length - 1, id).toBe(1); // its own import line alone
    expect(yaml.stderr).toContain(`${estate.objects} resources, ${estate.references} references wired`);
  });

  it("wires a tile alert to its dashboard's tileIds by the tile's name, quotes and all", () => {
    expect(yaml.stdout).toMatch(/^ {6}dashboardId: "\$\{highCpu\w+\.id\}"$/m);
    expect(yaml.stdout).toContain('tileId: "${highCpu' /* its dashboard */);
    expect(yaml.stdout).toMatch(/tileIds\[\\"cpu \\\\\\"p99\\\\\\" \$5\\"\]\}"$/m);
  });

  it("leaves a tile alert on a tile outside tileIds a literal id, saying why above it", () => {
    for (const program of [yaml.stdout, ts.stdout].map((p) => p.replace(/\n *(#|\/\/) /g, " "))) {
      expect(program.match(/tileId stays the id \w+: it is not among \w+'s tileIds/g)).toHaveLength(
        estate.literalTileIds,
      );
      expect(program.match(/tileId: "[0-9a-f]{24}"/g)).toHaveLength(estate.literalTileIds);
    }
  });

  it("leaves every connection's password out, saying how to supply it", () => {
    for (const program of [yaml.stdout, ts.stdout].map((p) => p.replace(/\n *(#|\/\/) /g, " "))) {
      expect(program.match(/password is left out: the service never returns it/g)).toHaveLength(
        estate.connections.length,
      );
      expect(program).not.toContain(estate.password);
    }
    expect(yaml.stderr).toContain("Connections are adopted without their password");
  });

  it("writes a name holding ${ as text Pulumi YAML does not read as a reference", () => {
    expect(yaml.stdout).toContain('name: "search 2: $${value} over"');
    expect(yaml.stdout).toContain('name: "slow $$queries"');
  });

  it("prints both programs for a reader of this test's log", () => {
    console.log(`${yaml.stdout}\n${ts.stdout}`);
  });

  it("writes a TypeScript program with every object taken over by importId, references as variables", () => {
    expect(ts.code, ts.stderr).toBe(0);
    expect(
      ts.stdout.match(
        /^const \w+ = new (Alert|ApiKey|PipeSettings|SavedSearch|Webhook|Dashboard|Source|Connection)\(/gm,
      ),
    ).toHaveLength(estate.objects);
    // Keys by their uuid; pipe settings have no importId.
    expect(ts.stdout.match(/^ {2}importId: "[^"]+",$/gm)).toHaveLength(estate.objects - 1);
    expect(ts.stdout.match(/: (?:\w+\.id|\w+\.tile\(".*"\)),$/gm)).toHaveLength(estate.references);
    for (const id of [...estate.webhooks, ...estate.savedSearches, ...estate.connections, ...estate.sources])
      expect(ts.stdout.split(id).length - 1).toBe(1);
    expect(ts.stdout).toContain("PipeSettings has no importId: the first up sends one PUT");
  });

  it("declares each variable before a resource refers to it", () => {
    const declared = new Set<string>();
    for (const line of ts.stdout.split("\n")) {
      for (const used of line.matchAll(/: (\w+)\.(?:id|tile\()/g)) expect(declared.has(used[1] ?? "")).toBe(true);
      const decl = /^const (\w+) =/.exec(line);
      if (decl !== null) declared.add(decl[1] ?? "");
    }
  });

  it("says in both programs why webhook headers are left out and that a key's secret stays unknown", () => {
    // A comment's lines read as one.
    for (const program of [yaml.stdout, ts.stdout].map((p) => p.replace(/\n *(#|\/\/) /g, " "))) {
      expect(program).toMatch(/headers and queryParams .* left out: the service never returns them/);
      expect(program).toMatch(/supplying them is an update/);
      expect(program).toMatch(/keySecret stays unknown/);
      expect(program).not.toContain(TEAM_SECRET);
    }
  });

  it("sends only the listings' GETs", () => {
    expect(emu.requests.every((r) => r.method === "GET")).toBe(true);
  });
});

describe("alertpipe export --name keeps what a kept alert refers to (issue 38, finding 3)", () => {
  it("keeps the webhook and saved search the alert 'Error rate' uses, and no other", async () => {
    const emu = await startEmulator(NO_LIMITS);
    try {
      const team = await seedTeamObjects(emu);
      const types = ["Webhook", "SavedSearch", "Alert"].flatMap((t) => ["--type", t]);
      const run = await exportInProcess(["export", ...types, "--name", "Error rate"], exportEnv(emu));
      expect(run.code, run.stderr).toBe(0);
      const ids = (JSON.parse(run.stdout) as { resources: Array<{ id: string }> }).resources.map((r) => r.id);
      expect(ids.sort()).toEqual([team.ops, team.errors, team.errorRate].sort());
      expect(run.stderr).toContain("webhooks: 2 listed, 1 exported, 1 left out by --name, 1 kept as what a kept");
    } finally {
      await emu.close();
    }
  });

  it("keeps a kept tile alert's dashboard, the source its tiles chart and the connection behind them", async () => {
    const emu = await startEmulator(NO_LIMITS);
    try {
      const estate = await seedDuplicateEstate(emu);
      const run = await exportInProcess(["export", "--name", "tile [2]*"], exportEnv(emu));
      expect(run.code, run.stderr).toBe(0);
      const ids = (JSON.parse(run.stdout) as { resources: Array<{ id: string }> }).resources.map((r) => r.id);
      expect(ids.sort()).toEqual(
        [estate.alerts[13], estate.webhooks[0], estate.dashboard, estate.sources[2], estate.connections[1]].sort(),
      );
      expect(run.stderr).toContain("dashboards: 1 listed, 1 exported, 1 kept as what a kept object refers to");
      expect(run.stderr).toContain("connections: 2 listed, 1 exported, 1 left out by --name, 1 kept as what a kept");
    } finally {
      await emu.close();
    }
  });
});

describe("alertpipe export on managed ClickStack, which has no connections route", () => {
  it("says connections are not listed, sends no request for them, and keeps each source's connection an id", async () => {
    const emu = await startEmulator({ ...NO_LIMITS, cloudDialect: "clickhouse" });
    try {
      const run = await exportInProcess(["export", "--format", "yaml"], envFor("clickstack", emu));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("connections: not listed, managed ClickStack has no connections route");
      expect(run.stderr).toContain("sources: 2 listed, 2 exported");
      expect(run.stdout).not.toContain("alertpipe:index:Connection");
      expect(run.stdout.match(/^ {6}connection: "[0-9a-f]{24}"$/gm)).toHaveLength(2);
      expect(emu.requests.filter((r) => r.path.endsWith("/connections"))).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
