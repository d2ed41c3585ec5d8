// `alertpipe export` against a fake service (provider/export/): what its filters keep, which listed
// objects it leaves out and why, a list the service lacks, a failure, and its command line's exit
// codes. The fake answers what the emulator cannot hold (a channel of another type, a role unknown
// here), so an export's reasons for leaving an object out are seen.

import { describe, expect, it } from "vitest";
import { keptByName, namePattern } from "../../provider/export/filters";
import { EXIT, helpText, runCli } from "../../provider/export/cli";
import { exportEstate, reportLines, type ExportOptions } from "../../provider/export/export";
import { EXPORT_KINDS } from "../../provider/export/kinds";
import { CONNECTION_SETTINGS } from "../../provider/runtime/connection";
import { NATIVE_RESOURCES } from "../../provider/native/resources";
import { ALERTS_PATH, KEYS_PATH, ORG_ID, PIPE_IDS, SETTINGS_PATH } from "../support/fixtures";
import { CANARY, answerOnce, cloudAnswer, mockApiPerTest, settingsAnsweredOnce } from "../support/mockApi";

const mock = mockApiPerTest();

const FIRST_PAGE = `${ALERTS_PATH}?limit=1000&offset=0`;

function alertOf(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    threshold: 5,
    interval: "5m",
    source: "search",
    thresholdType: "above",
    channel: { type: "webhook", webhookId: "hook" },
    state: "OK",
    team: "t",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

// Key ids are uuids, as the cloud API makes them and as a key's path requires.
const KEY_ONE = "1a1a1a1a-1111-4111-8111-111111111111";
const KEY_TWO = "2b2b2b2b-2222-4222-8222-222222222222";

function keyOf(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: "deployer",
    roles: ["developer"],
    state: "enabled",
    expireAt: null,
    usedAt: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    keySuffix: "WXYZ",
    ipAccessList: [],
    ...fields,
  };
}

const alerts = (items: unknown[]) =>
  answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: FIRST_PAGE }, 200, { data: items });
const keys = (items: unknown[]) =>
  answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 200, cloudAnswer(items));

/** The team's webhooks and saved searches, none: an export of every type lists them too. */
function noTeamObjects(pool: ReturnType<typeof mock.api.agent.get> = mock.api.alerting): void {
  for (const path of ["/api/v2/webhooks", "/api/v2/saved-searches"])
    pool.intercept({ method: "GET", path: `${path}?limit=1000&offset=0` }).reply(200, { data: [] });
  // Not paged.
  for (const path of ["/api/v2/dashboards", "/api/v2/sources", "/api/v2/connections"])
    pool.intercept({ method: "GET", path }).reply(200, { data: [] });
}

const ALL: ExportOptions = { types: ["Alert", "ApiKey"], organizations: [ORG_ID], pipes: [], names: [] };

describe("the export's table", () => {
  it("gives each row a type token the native plugin serves", () => {
    for (const kind of EXPORT_KINDS) expect(NATIVE_RESOURCES.has(kind.token), kind.token).toBe(true);
  });
});

describe("name patterns", () => {
  it("match the whole name, * as any run and ? as one character, case aside", () => {
    const matches = namePattern("*cpu?");
    expect(["High CPU!", "cpux", "CPU1"].map(matches)).toEqual([true, true, true]);
    expect(["High CPU", "cpu load"].map(matches)).toEqual([false, false]);
  });

  it("take every other character as itself", () => {
    expect(namePattern("a.b (prod)")("a.b (prod)")).toBe(true);
    expect(namePattern("a.b")("axb")).toBe(false);
  });

  it("keep everything when none is given, and an object without a name only for a pattern matching no text", () => {
    expect(keptByName([], undefined)).toBe(true);
    expect(keptByName([namePattern("deploy*")], undefined)).toBe(false);
    expect(keptByName([namePattern("deploy*"), namePattern("*")], undefined)).toBe(true);
  });
});

describe("what an export leaves out", () => {
  it("skips an alert whose channel the resource cannot hold, naming the property, and exports the others", async () => {
    alerts([alertOf("a1", { name: "Lag" }), alertOf("a2", { name: "Mail", channel: { type: "email", to: "x@y" } })]);
    const result = await exportEstate({ ...ALL, types: ["Alert"] });
    expect(result.document.resources).toEqual([{ type: "alertpipe:index:Alert", name: "lag", id: "a1" }]);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]).toMatchObject({ type: "Alert", id: "a2", name: "Mail" });
    expect(result.skipped[0]?.why).toMatch(/^the resource cannot hold it as it is: .*channel/);
  });

  it("skips a tile alert without its dashboard, as the program's preview would refuse it", async () => {
    alerts([alertOf("a3", { source: "tile", tileId: "t1" })]);
    const result = await exportEstate({ ...ALL, types: ["Alert"] });
    expect(result.document.resources).toEqual([]);
    expect(result.skipped[0]?.why).toContain('dashboardId is required when source is "tile"');
  });

  it("skips a key with a role the resource does not know, and says keys come without their secret", async () => {
    keys([keyOf(KEY_ONE), keyOf(KEY_TWO, { name: "owner", roles: ["owner"] })]);
    const result = await exportEstate({ ...ALL, types: ["ApiKey"] });
    expect(result.document.resources).toEqual([
      { type: "alertpipe:index:ApiKey", name: "deployer", id: `${ORG_ID}/${KEY_ONE}` },
    ]);
    expect(result.skipped.map((s) => [s.id, s.why.includes("roles")])).toEqual([[KEY_TWO, true]]);
    expect(reportLines(result).join("\n")).toContain("without their keyId and keySecret");
  });

  it("counts what --name leaves out apart from what is skipped", async () => {
    alerts([alertOf("a1", { name: "Ingest lag" }), alertOf("a2", { name: "CPU" }), alertOf("a3")]);
    const result = await exportEstate({ ...ALL, types: ["Alert"], names: ["ingest*"] });
    expect(result.document.resources.map((r) => r.id)).toEqual(["a1"]);
    expect(result.collections).toEqual([
      { type: "Alert", where: "alerts", listed: 3, exported: 1, leftOutByName: 2, keptAsReferent: 0, skipped: 0 },
    ]);
  });

  it("reports a list the service does not have and goes on with the others", async () => {
    alerts([alertOf("a1", { name: "Lag" })]);
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 404, { status: 404, error: "Not found" });
    const result = await exportEstate(ALL);
    expect(result.document.resources.map((r) => r.id)).toEqual(["a1"]);
    expect(reportLines(result)).toContain(
      `API keys of organization ${ORG_ID}: not listed, the service has no such list (404 on GET ${KEYS_PATH}); the export goes on without them`,
    );
  });

  it("reads a pipe's settings once, as its import does, and exports the pipe with a setting set", async () => {
    settingsAnsweredOnce(mock, { db_max_threads: 8 });
    const pipe = `${PIPE_IDS.organizationId}/${PIPE_IDS.serviceId}/${PIPE_IDS.pipeId}`;
    const result = await exportEstate({ ...ALL, types: ["PipeSettings"], pipes: [pipe] });
    expect(result.document.resources).toEqual([
      { type: "alertpipe:index:PipeSettings", name: "pipeSettingsbd4bed", id: pipe },
    ]);
    expect(mock.seen.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${SETTINGS_PATH}`]);
  });

  it("sends one request per collection and none per object", async () => {
    alerts([alertOf("a1"), alertOf("a2"), alertOf("a3")]);
    keys([keyOf(KEY_ONE), keyOf(KEY_TWO, { name: "ci" })]);
    const result = await exportEstate(ALL);
    expect(result.document.resources).toHaveLength(5);
    expect(mock.seen.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [`GET ${FIRST_PAGE}`, `GET ${KEYS_PATH}`].sort(),
    );
  });
});

describe("the alertpipe command", () => {
  async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = "";
    let err = "";
    const code = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  }

  it("writes the import document on stdout and the report on stderr, exiting 0", async () => {
    alerts([alertOf("a1", { name: "Lag" })]);
    noTeamObjects();
    const run = await cli(["export"]);
    expect(run.code).toBe(EXIT.written);
    expect(JSON.parse(run.out)).toEqual({ resources: [{ type: "alertpipe:index:Alert", name: "lag", id: "a1" }] });
    expect(run.err).toContain("alertpipe export: alerts: 1 listed, 1 exported");
    expect(run.err).toContain("ApiKey: not listed, since none was named (give --organization <id>)");
  });

  it("keeps keys by a --name holding a hyphen, as issue 38 replayed it: 'ci-*'", async () => {
    keys([keyOf(KEY_ONE, { name: "ci-deploy" }), keyOf(KEY_TWO, { name: "ci deploy" })]);
    const run = await cli(["export", "--type", "ApiKey", "--organization", ORG_ID, "--name", "ci-*"]);
    expect(run.code, run.err).toBe(EXIT.written);
    expect(JSON.parse(run.out)).toEqual({
      resources: [{ type: "alertpipe:index:ApiKey", name: "ciDeploy", id: `${ORG_ID}/${KEY_ONE}` }],
    });
  });

  it("refuses an unknown --format, naming the formats", async () => {
    const run = await cli(["export", "--format", "hcl"]);
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toContain("--format hcl: the formats are import, yaml, typescript");
  });

  it("exits 1 writing nothing when a list is refused, naming the request and never the credentials", async () => {
    answerOnce(mock.api.alerting, mock.seen, { method: "GET", path: FIRST_PAGE }, 401, { message: "Unauthorized" });
    noTeamObjects();
    const run = await cli(["export"]);
    expect(run.code).toBe(EXIT.failed);
    expect(run.out).toBe("");
    expect(run.err).toContain(`nothing written: [API_ERROR] GET ${FIRST_PAGE}`);
    for (const secret of Object.values(CANARY)) expect(run.err).not.toContain(secret);
  });

  it.each([
    [["export", "--colour"], "Unknown option '--colour'"],
    [
      ["export", "--type", "Tile"],
      "--type Tile: the types are Alert, ApiKey, PipeSettings, Webhook, SavedSearch, Dashboard, Source, Connection",
    ],
    [["export", "--pipe", "org/svc"], "--pipe org/svc: give <organizationId>/<serviceId>/<pipeId>"],
    [["export", "--type", "ApiKey"], "--type ApiKey needs --organization <id>"],
    [["import"], 'unknown command "import"'],
  ])("exits 2 on a usage error, sending nothing: %j", async (args, words) => {
    const run = await cli(args);
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toContain(words);
    expect(mock.seen).toEqual([]);
  });

  it("says a usage error with its stable code", async () => {
    const run = await cli(["export", "--type", "Tile"]);
    expect(run.err).toContain("alertpipe export: [USAGE] --type Tile");
  });

  it("says in --help every flag, every environment variable and every exit code", async () => {
    const run = await cli(["export", "--help"]);
    expect(run.code).toBe(EXIT.written);
    expect(run.out).toBe(helpText());
    for (const s of Object.values(CONNECTION_SETTINGS)) expect(run.out).toContain(s.envVar);
    for (const flag of ["--type", "--organization", "--pipe", "--name", "--format", "--out", "--cloud-key-secret"])
      expect(run.out).toContain(flag);
    for (const code of Object.values(EXIT)) expect(run.out).toMatch(new RegExp(`^  ${code}  `, "m"));
  });

  it("sets each connection flag apart from its environment variable by a space", () => {
    for (const s of Object.values(CONNECTION_SETTINGS))
      expect(helpText()).toMatch(new RegExp(`--[a-z-]+ <value> +${s.envVar}: `));
  });

  it("says in --help that --name keeps what a kept object refers to, and what each format writes", () => {
    const help = helpText().replace(/\s+/g, " ");
    expect(help).toContain(
      "and with them what they refer to (webhooks, saved searches, dashboards, sources, connections), whatever those are named",
    );
    for (const format of ["import (default)", "yaml:", "typescript:"]) expect(help).toContain(format);
  });

  it("takes a connection setting from its flag before the environment", async () => {
    const other = "https://other.example.test";
    mock.api.agent
      .get(other)
      .intercept({ method: "GET", path: FIRST_PAGE })
      .reply(200, { data: [alertOf("b1", { name: "Other" })] });
    noTeamObjects(mock.api.agent.get(other));
    const run = await cli(["export", "--alerting-url", other]);
    expect(JSON.parse(run.out)).toEqual({ resources: [{ type: "alertpipe:index:Alert", name: "other", id: "b1" }] });
  });
});
