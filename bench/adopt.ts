// Adopting an estate at scale (issue 28): `alertpipe export` of 1,000 alerts and 200 keys (two
// organizations of 100, the most a key list answers), then `pulumi import --file` of its file
// through the native plugin, under the published limits (area B 10 requests per 10 s per key,
// area A 100 per minute), the provider pacing at the same. The target is in requests: the list
// pages alone (the alerts' one page, since the service states its total and 1,000 fit a page; one
// list per organization; the export also lists webhooks and saved searches, which it adopts too),
// nothing per object, no 429; `pulumi import` runs the engine twice (its preview, then the import),
// each pass with a plugin process of its own, so it lists the alerts and keys twice. Each time is
// set against the time of the alerts' and keys' pages alone, fetched by the bench itself with no
// provider in between: what any export must pay.
//
// The objects are made first with the limits off (1,200 POSTs would take 20 minutes at area B's
// pace), then the emulator restarts on the same data file with the published limits. Each run
// (pages, export, import) draws 2 requests of area B's 10 per 10 s, so rounds wait out the window.

import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { spawn } from "node:child_process";
import type { RecordedRequest } from "../emulator";
import { pulumiCli, pulumiYamlLanguageHost } from "../scripts/engine/pulumiCli";
import { openStack } from "../scripts/exampleStack";
import type { BenchFolder } from "./benchFolder";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { BENCH_PROJECT, emulatorStackConfig, engineName, type Pacing } from "./engineRun";
import { ratioOf, type ScenarioResult } from "./report";
import { API_ROOT_PATH, LIST_PAGE_MAX } from "../provider/serviceFacts/alertRules";
import { WEBHOOKS_PATH } from "../provider/serviceFacts/webhooks";
import { SAVED_SEARCHES_PATH } from "../provider/serviceFacts/savedSearches";
import { listPages, median, statusCounts } from "./stats";

const ALERTS = 1000;
const ORGANIZATIONS = [randomUUID(), randomUUID()];
const KEYS_PER_ORGANIZATION = 100;
const PUBLISHED: Pacing = { cloud: "10/10", alerting: "100/60" };
const ALERTS_PATH = "/api/v2/alerts";
const keysPath = (org: string) => `/v1/organizations/${org}/keys`;
/** Area B's window, and a second more: a round starts with its window empty. */
const WINDOW_WAIT_MS = 11_000;

interface Caller {
  readonly url: string;
  readonly token: string;
  readonly keyId: string;
  readonly keySecret: string;
}

function headers(emu: Caller, path: string): Record<string, string> {
  return {
    authorization: path.startsWith("/v1/")
      ? `Basic ${Buffer.from(`${emu.keyId}:${emu.keySecret}`).toString("base64")}`
      : `Bearer ${emu.token}`,
    "content-type": "application/json",
  };
}

async function call(emu: Caller, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: headers(emu, path),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** The estate, made with the limits off: alerts of both sources, every tenth without a name, and the keys. */
async function seed(emu: Caller): Promise<void> {
  const channel = { type: "webhook", webhookId: "ops-oncall" };
  const alerts = Array.from({ length: ALERTS }, (_, i) => ({
    ...(i % 10 === 0 ? {} : { name: `alert ${i % 400}` }),
    threshold: i,
    thresholdType: "above",
    interval: "5m",
    channel,
    ...(i % 2 === 0 ? { source: "search" } : { source: "tile", dashboardId: "dash", tileId: `tile-${i}` }),
  }));
  for (let i = 0; i < alerts.length; i += 50)
    await Promise.all(alerts.slice(i, i + 50).map((a) => call(emu, "POST", ALERTS_PATH, a)));
  for (const org of ORGANIZATIONS)
    await Promise.all(
      Array.from({ length: KEYS_PER_ORGANIZATION }, (_, i) =>
        call(emu, "POST", keysPath(org), { name: `key ${i % 60}`, roles: ["developer"] }),
      ),
    );
}

/** The list pages alone, as the export asks for them: the alerts' pages one after the other, beside each organization's list. */
async function pagesAlone(emu: Caller): Promise<number> {
  const started = performance.now();
  const alertPages = async () => {
    for (let offset = 0; ; offset += LIST_PAGE_MAX) {
      const path = `${ALERTS_PATH}?limit=${LIST_PAGE_MAX}&offset=${offset}`;
      const page = (await call(emu, "GET", path)) as { meta: { total: number } };
      if (offset + LIST_PAGE_MAX >= page.meta.total) return;
    }
  };
  await Promise.all([alertPages(), ...ORGANIZATIONS.map((org) => call(emu, "GET", keysPath(org)))]);
  return performance.now() - started;
}

/** `alertpipe export` as a user runs it: the installed package's bin, in a process of its own, timed around it. */
function timedExport(folder: BenchFolder, emu: Caller, out: string): Promise<number> {
  const bin = join(folder.dir, "node_modules", "pulumi-alertpipe", "dist", "provider", "export", "main.js");
  // The types this row has always measured: the emulator's seeded connection and sources, which an
  // export lists by default since issue 39, would add three lists and three imports to every pass.
  const types = ["Alert", "ApiKey", "Webhook", "SavedSearch"].flatMap((t) => ["--type", t]);
  const args = ["export", ...types, ...ORGANIZATIONS.flatMap((o) => ["--organization", o]), "--out", out];
  const env = {
    PATH: process.env.PATH ?? "",
    ALERTPIPE_ALERTING_URL: emu.url,
    ALERTPIPE_ALERTING_TOKEN: emu.token,
    ALERTPIPE_CLOUD_URL: emu.url,
    ALERTPIPE_CLOUD_KEY_ID: emu.keyId,
    ALERTPIPE_CLOUD_KEY_SECRET: emu.keySecret,
    ALERTPIPE_ALERTING_RATE_LIMIT: PUBLISHED.alerting,
    ALERTPIPE_CLOUD_RATE_LIMIT: PUBLISHED.cloud,
  };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`alertpipe export exited ${code}: ${stderr}`)),
    );
  });
}

/** The collections an export lists beside the alerts and keys. */
const OTHER_LISTS = [WEBHOOKS_PATH, SAVED_SEARCHES_PATH];

/** What a run sent: its list requests of alerts and keys, of the other collections, everything else, and 429s. */
function sent(requests: readonly RecordedRequest[]) {
  const lists = requests.filter(
    (r) => r.method === "GET" && (r.path === ALERTS_PATH || ORGANIZATIONS.some((o) => r.path === keysPath(o))),
  );
  const otherLists = requests.filter((r) => r.method === "GET" && OTHER_LISTS.includes(r.path));
  // Whether the service holds dashboards, asked once per provider process for the tile alerts' check (issue 45).
  const questions = requests.filter((r) => r.method === "GET" && r.path === API_ROOT_PATH);
  return {
    listRequests: lists.length,
    otherListRequests: otherLists.length,
    dialectQuestions: questions.length,
    other: requests.length - lists.length - otherLists.length - questions.length,
    total: requests.length,
    http429: requests.filter((r) => r.status === 429).length,
    statuses: statusCounts(requests),
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function adoptAtScale(folder: BenchFolder, runs = 3): Promise<ScenarioResult[]> {
  const work = mkdtempSync(join(tmpdir(), "alertpipe-bench-adopt-"));
  const dataFile = join(work, "emulator.json");
  const relaxed = await startEmulatorProcess({ dataFile, rateLimits: { cloud: false, alerting: false } });
  const port = Number(new URL(relaxed.url).port);
  let relaxedOpen = true;
  let emulator: EmulatorProcess | undefined;
  try {
    await seed(relaxed);
    await relaxed.close();
    relaxedOpen = false;
    emulator = await startEmulatorProcess({ dataFile, port });
    const yamlHost = await pulumiYamlLanguageHost();
    const pages: number[] = [];
    const exports: Array<{ ms: number; sent: ReturnType<typeof sent> }> = [];
    const imports: Array<{ ms: number; sent: ReturnType<typeof sent>; resources: number }> = [];
    // Per pass over the alerts and keys: the alerts' pages and one list per organization.
    const expected = listPages(ALERTS, LIST_PAGE_MAX) + ORGANIZATIONS.length;
    for (let run = 0; run < runs; run++) {
      if (run > 0) await wait(WINDOW_WAIT_MS);
      pages.push(await pagesAlone(emulator));
      await wait(WINDOW_WAIT_MS);
      const out = join(work, `import-${run}.json`);
      await emulator.resetRequestLog();
      const exportMs = await timedExport(folder, emulator, out);
      exports.push({ ms: exportMs, sent: sent(await emulator.requests()) });
      await wait(WINDOW_WAIT_MS);

      // The file into a fresh stack through the native plugin, found on PATH as npm links it. The
      // CLI asks the project's language host for nothing here but needs one: a Pulumi YAML project.
      const savedPath = process.env.PATH;
      process.env.PATH = [folder.pluginDir, dirname(yamlHost.path), savedPath ?? ""].join(delimiter);
      const stack = await openStack({
        stack: `adopt-${run}`,
        project: BENCH_PROJECT,
        programDir: folder.dir,
        program: async () => {},
        config: emulatorStackConfig(emulator, PUBLISHED),
      }).finally(() => (process.env.PATH = savedPath));
      try {
        writeFileSync(join(stack.root, "work", "Pulumi.yaml"), `name: ${BENCH_PROJECT}\nruntime: yaml\n`);
        await emulator.resetRequestLog();
        const started = performance.now();
        const imported = await stack.cli([
          "import",
          "--file",
          out,
          "--yes",
          "--protect=false",
          "--generate-code=false",
          "--stack",
          stack.name,
        ]);
        const ms = performance.now() - started;
        if (imported.code !== 0) throw new Error(`pulumi import failed: ${imported.stderr}${imported.stdout}`);
        const state = JSON.parse(stack.readStateFile()) as { checkpoint: { latest?: { resources?: unknown[] } } };
        const resources = (state.checkpoint.latest?.resources ?? []).filter((r) =>
          String((r as { type?: unknown }).type).startsWith("alertpipe:index:"),
        ).length;
        imports.push({ ms, sent: sent(await emulator.requests()), resources });
      } finally {
        stack.dispose();
      }
    }
    const exportedCount = (JSON.parse(readFileSync(join(work, "import-0.json"), "utf8")) as { resources: unknown[] })
      .resources.length;
    const idealMs = median(pages);
    const exportMs = median(exports.map((e) => e.ms));
    const importMs = median(imports.map((i) => i.ms));
    // The export lists the other collections once; the import adopts only what the file names.
    // Each engine pass of the import checks the key and the token once (provider/http/credentials.ts): a
    // page of one alert, counted with the lists (its path is theirs), and the key's organization list.
    const onlyPages = (s: ReturnType<typeof sent>, passes: number, others: number, checkedPasses = 0) =>
      s.listRequests === expected * passes + checkedPasses &&
      s.otherListRequests === others &&
      s.dialectQuestions <= passes &&
      s.total === expected * passes + others + 2 * checkedPasses + s.dialectQuestions &&
      s.http429 === 0;
    const facts = {
      engine: engineName(await pulumiCli()),
      objects: `${ALERTS} Alerts, ${ORGANIZATIONS.length * KEYS_PER_ORGANIZATION} ApiKeys (${ORGANIZATIONS.length} organizations of ${KEYS_PER_ORGANIZATION})`,
      emulatorLimits: "published: area B 10 requests per 10 s per key, area A 100 per minute (fixed windows)",
      providerPacing: `ALERTPIPE_CLOUD_RATE_LIMIT / alertpipe:cloudRateLimit=${PUBLISHED.cloud}, alerting ${PUBLISHED.alerting}`,
      listRequestsExpected: { alertsAndKeysPerPass: expected, exportOtherLists: OTHER_LISTS.length },
      idealIs: `median of ${runs} fetches of the list pages of alerts and keys alone (${listPages(ALERTS, LIST_PAGE_MAX)} page(s) of alerts, one list per organization) by the bench, no provider`,
      pagesAloneMs: pages,
    };
    return [
      {
        name: "adopt-export",
        reference: "the same list pages fetched by the bench alone, no provider",
        title: `alertpipe export of ${ALERTS} Alerts and ${ORGANIZATIONS.length * KEYS_PER_ORGANIZATION} ApiKeys under the published limits`,
        measured: exportMs,
        ideal: idealMs,
        unit: "ms",
        ratio: ratioOf(exportMs, idealMs),
        target: `requests: the ${expected + OTHER_LISTS.length} list pages only (alerts, keys per organization, webhooks, saved searches) and one GET /api/v2 (does the service hold dashboards, for the tile alerts' check), nothing per object, no 429; time a figure against the pages alone`,
        pass:
          exports.every((e) => onlyPages(e.sent, 1, OTHER_LISTS.length)) &&
          exportedCount === ALERTS + ORGANIZATIONS.length * KEYS_PER_ORGANIZATION,
        extra: {
          ...facts,
          measuredIs: `median of ${runs} runs of the installed package's alertpipe bin (node start included), timed around its process`,
          runsMs: exports.map((e) => e.ms),
          sentPerRun: exports.map((e) => e.sent),
          resourcesExported: exportedCount,
          http429: Math.max(...exports.map((e) => e.sent.http429)),
        },
      },
      {
        name: "adopt-import",
        reference: "the same list pages fetched by the bench alone, no provider",
        title: "pulumi import --file of that export through the native plugin, same limits",
        measured: importMs,
        ideal: idealMs,
        unit: "ms",
        ratio: ratioOf(importMs, idealMs),
        target: `requests: the ${expected} list pages of alerts and keys once per engine pass (import previews, then imports: ${2 * expected}), one check per credential per pass (4) and at most one GET /api/v2 a pass (does the service hold dashboards, for the tile alerts' check), nothing per object, no 429; time a figure`,
        pass: imports.every((i) => onlyPages(i.sent, 2, 0, 2) && i.resources === exportedCount),
        extra: {
          ...facts,
          measuredIs: `median of ${runs} runs of pulumi import --file --yes --protect=false --generate-code=false into a fresh stack, timed around the CLI`,
          runsMs: imports.map((i) => i.ms),
          sentPerRun: imports.map((i) => i.sent),
          resourcesImported: imports.map((i) => i.resources),
          http429: Math.max(...imports.map((i) => i.sent.http429)),
        },
      },
    ];
  } finally {
    if (relaxedOpen) await relaxed.close();
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  }
}
