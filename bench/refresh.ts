// Refresh at the speed of a list (issue 19): `pulumi refresh` of 100 ApiKeys and 100 Alerts on the
// real engine against the emulator with the published limits (area B 10 requests per 10 s per key,
// area A 100 per minute), the provider pacing at the same limits. Three refreshes of the same
// stacks: ours reading by list (provider/reading/listedReads.ts), the do-nothing reference whose
// read answers at once (the ideal), and ours with one GET per resource (the path before lists).
//
// The resources are made first with the limits off (emulator and provider): under 10 per 10 s the
// 100 keys alone would take 100 s to create. Then the emulator restarts on the same port and data
// file with the published limits, the stacks take the published pacing with an `up` that changes
// nothing (so the provider the refresh runs is configured as a user's would be), and each refresh
// runs with the service's windows empty. A refresh is timed from the bench around the CLI's run
// (it runs no program to time from inside): the CLI's start and the host's are in every figure
// alike, the reference's included.
//
// The GET path is the product's own, switched on for the bench alone: the provider host is started
// with NODE_OPTIONS requiring a file that sets the runtime's readByList to false (the switch tests
// use), so the package has no user-facing setting for it.

import { rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { performance } from "node:perf_hooks";
import type { RecordedRequest } from "../emulator";
import { openStack } from "../scripts/exampleStack";
import type { EngineStack, RunResult } from "../scripts/engine/stack";
import type { BenchFolder } from "./benchFolder";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { BENCH_PROJECT, emulatorStackConfig, engineName, type Build, type Pacing } from "./engineRun";
import { ORGANIZATION, type Kind } from "./inputs";
import { nativeBuild, oursBuild, referenceBuild } from "./programs";
import { ratioOf, type ScenarioResult } from "./report";
import { LIST_PAGE_MAX } from "../provider/serviceFacts/alertRules";
import { listPages, median, statusCounts } from "./stats";
import { engineFacts } from "./throughput";

const KEYS = 100;
const ALERTS = 100;
const PUBLISHED: Pacing = { cloud: "10/10", alerting: "100/60" };
const OFF: Pacing = { cloud: "off", alerting: "off" };
const KEYS_LIST = `/v1/organizations/${ORGANIZATION}/keys`;
const ALERTS_LIST = "/api/v2/alerts";

/** The i-th resource: the keys first, then the alerts. */
const kindAt = (i: number): Kind => (i < KEYS ? "ApiKey" : "Alert");

/** What a refresh sent: the list requests of each collection, the single GETs, everything else. */
function readsOf(requests: readonly RecordedRequest[]) {
  const is = (r: RecordedRequest, path: string) => r.method === "GET" && r.path === path;
  return {
    keyLists: requests.filter((r) => is(r, KEYS_LIST)).length,
    alertPages: requests.filter((r) => is(r, ALERTS_LIST)).length,
    singleGets: requests.filter(
      (r) => r.method === "GET" && (r.path.startsWith(`${KEYS_LIST}/`) || r.path.startsWith(`${ALERTS_LIST}/`)),
    ).length,
    total: requests.length,
    http429: requests.filter((r) => r.status === 429).length,
    statuses: statusCounts(requests),
  };
}

interface Refreshed {
  readonly ms: number;
  readonly result: RunResult;
  readonly requests: RecordedRequest[];
}

/** One refresh of `stack`, timed around the CLI's run, with the emulator's log of it; `env` set for the CLI and the hosts it starts. */
async function timedRefresh(
  stack: EngineStack,
  emulator: EmulatorProcess,
  env: Record<string, string> = {},
): Promise<Refreshed> {
  await emulator.resetRequestLog();
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const started = performance.now();
  let result: RunResult;
  try {
    result = await stack.refresh();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`pulumi refresh of ${stack.name} failed: ${result.error ?? "unknown"}`);
  const changed = result.steps.filter((s) => s.op !== "same" && s.op !== "read");
  if (changed.length > 0)
    throw new Error(
      `pulumi refresh of ${stack.name} found changes: ${changed.map((s) => `${s.op} ${s.name}`).join(", ")}`,
    );
  return { ms, result, requests: await emulator.requests() };
}

/** A stack of `build`, created with no limits anywhere; the plugin's folder first on PATH when it runs the native plugin. */
async function createdStack(
  folder: BenchFolder,
  emulator: EmulatorProcess,
  name: string,
  build: Build,
  plugin = false,
): Promise<EngineStack> {
  const savedPath = process.env.PATH;
  if (plugin) process.env.PATH = `${folder.pluginDir}${delimiter}${savedPath ?? ""}`;
  let stack: EngineStack;
  try {
    stack = await openStack({
      stack: name,
      project: BENCH_PROJECT,
      programDir: folder.dir,
      program: async () => {
        build(folder);
      },
      config: emulatorStackConfig(emulator, OFF),
    });
  } finally {
    if (plugin) process.env.PATH = savedPath;
  }
  const up = await stack.up();
  if (!up.ok) throw new Error(`pulumi up of ${name} failed: ${up.error ?? "unknown"}`);
  return stack;
}

/** The file the GET path's provider host requires first: the runtime's switch to one GET per read. */
function getPathPreload(folder: BenchFolder): string {
  const file = join(folder.dir, "bench-read-by-get.js");
  const runtime = join(folder.dir, "node_modules", "pulumi-alertpipe", "dist", "provider", "runtime", "runtime.js");
  writeFileSync(
    file,
    `// Bench only: one GET per read, the path before reads by list, to compare with.\nrequire(${JSON.stringify(runtime)}).useRuntime({ readByList: false });\n`,
  );
  return file;
}

export async function refreshByList(folder: BenchFolder, runs = 3, withPlugin = true): Promise<ScenarioResult[]> {
  const dataFile = join(folder.dir, "bench-refresh-emulator.json");
  rmSync(dataFile, { force: true });
  const n = KEYS + ALERTS;
  const relaxed = await startEmulatorProcess({ dataFile, rateLimits: { cloud: false, alerting: false } });
  let relaxedOpen = true;
  const port = Number(new URL(relaxed.url).port);
  const stacks: EngineStack[] = [];
  let emulator: EmulatorProcess | undefined;
  try {
    const ours = await createdStack(folder, relaxed, "refresh-ours", oursBuild(n, kindAt, "r"));
    stacks.push(ours);
    const reference = await createdStack(folder, relaxed, "refresh-reference", referenceBuild(n, kindAt, "r"));
    stacks.push(reference);
    const plugin = withPlugin
      ? await createdStack(folder, relaxed, "refresh-plugin", nativeBuild(n, kindAt, "r"), true)
      : undefined;
    if (plugin !== undefined) stacks.push(plugin);
    await relaxed.close();
    relaxedOpen = false;

    // The published limits from here on: the emulator's defaults, and the provider's pacing.
    emulator = await startEmulatorProcess({ dataFile, port });
    for (const s of stacks) {
      await s.setConfig(emulatorStackConfig(emulator, PUBLISHED));
      const up = await s.up();
      if (!up.ok) throw new Error(`pulumi up of ${s.name} with the published pacing failed: ${up.error ?? "unknown"}`);
    }
    const listed: Refreshed[] = [];
    const ideal: Refreshed[] = [];
    const native: Refreshed[] = [];
    // Alternated, so load from elsewhere on the machine falls on all alike; the list path draws 1
    // request of area B's 10 per 10 s each time, so the windows stay open.
    for (let run = 0; run < runs; run++) {
      ideal.push(await timedRefresh(reference, emulator));
      listed.push(await timedRefresh(ours, emulator));
      if (plugin !== undefined) native.push(await timedRefresh(plugin, emulator));
    }
    // Last: it spends area B's window for the next 100 s. First the window the runs above drew on
    // closes: a new provider process cannot know of their requests, and would meet a 429.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const byGet = await timedRefresh(ours, emulator, { NODE_OPTIONS: `--require ${getPathPreload(folder)}` });

    const said = (what: string, rs: readonly Refreshed[]) =>
      `${what}: ${rs.map((r) => JSON.stringify(readsOf(r.requests))).join(" ")}`;
    console.log(`\nrequests of each refresh (refresh-by-list and its plugin row: one entry per run):`);
    console.log(said("  by list, dynamic host", listed));
    if (plugin !== undefined) console.log(said("  by list, plugin", native));
    console.log(said("  one GET each, dynamic host", [byGet]));
    const idealMs = median(ideal.map((r) => r.ms));
    const listedMs = median(listed.map((r) => r.ms));
    const reads = listed.map((r) => readsOf(r.requests));
    const expectedPages = listPages(ALERTS, LIST_PAGE_MAX);
    const readsAsTargeted = reads.every(
      (r) => r.keyLists === 1 && r.alertPages === expectedPages && r.singleGets === 0 && r.total === 1 + expectedPages,
    );
    const ratio = ratioOf(listedMs, idealMs);
    const facts = {
      ...engineFacts(undefined),
      engine: engineName(ours.tool),
      resources: `${KEYS} ApiKeys and ${ALERTS} Alerts`,
      emulatorLimits: "published: area B 10 requests per 10 s per key, area A 100 per minute (fixed windows)",
      providerPacing: `alertpipe:cloudRateLimit=${PUBLISHED.cloud}, alertpipe:alertingRateLimit=${PUBLISHED.alerting}`,
      setup:
        "created with the limits off, then the emulator restarted with the published limits on the same data, and an up that changes nothing applies the published pacing",
    };
    const rows: ScenarioResult[] = [
      {
        name: "refresh-by-list",
        reference: "the do-nothing dynamic provider's refresh of the same resources",
        title: `refresh of ${KEYS} ApiKeys and ${ALERTS} Alerts under the published limits, dynamic host, by list`,
        measured: listedMs,
        ideal: idealMs,
        unit: "ms",
        ratio,
        target: `ratio <= 1.20; reads: 1 list of keys and ${expectedPages} page(s) of alerts, no other request, no 429`,
        pass: ratio !== null && ratio <= 1.2 && readsAsTargeted && reads.every((r) => r.http429 === 0),
        extra: {
          ...facts,
          measuredIs: `median of ${runs} refreshes of our stack (dynamic host), timed around the CLI's run`,
          idealIs:
            "the same refresh of the same resources, same inputs, through the do-nothing reference whose read answers at once; runs alternated",
          runsMs: listed.map((r) => r.ms),
          referenceRunsMs: ideal.map((r) => r.ms),
          readsPerRun: reads,
          oneGetEachMs: byGet.ms,
        },
      },
      {
        name: "refresh-one-get-each",
        reference: "the refresh by list (refresh-by-list's measured)",
        title: "the same refresh with one GET per resource (the path before reads by list)",
        measured: byGet.ms,
        ideal: listedMs,
        unit: "ms",
        ratio: ratioOf(byGet.ms, listedMs),
        target: "none, a figure: the path before reads by list, against the list's",
        pass: byGet.result.ok,
        extra: {
          ...facts,
          measuredIs:
            "one refresh of our stack with one GET per resource (the runtime's readByList off, set in the host by a NODE_OPTIONS --require, bench only)",
          idealIs: "the median refresh by list of the same stack (refresh-by-list's measured)",
          reads: readsOf(byGet.requests),
        },
      },
    ];
    if (plugin !== undefined) {
      const pluginMs = median(native.map((r) => r.ms));
      const pluginReads = native.map((r) => readsOf(r.requests));
      rows.push({
        name: "refresh-by-list-plugin",
        reference: "the do-nothing dynamic provider's refresh of the same resources",
        title: "the same refresh by list through the native plugin",
        measured: pluginMs,
        ideal: idealMs,
        unit: "ms",
        ratio: ratioOf(pluginMs, idealMs),
        target: `ratio <= 1.20; reads: 1 list of keys and ${expectedPages} page(s) of alerts, no other request, no 429`,
        pass:
          (ratioOf(pluginMs, idealMs) ?? Infinity) <= 1.2 &&
          pluginReads.every(
            (r) =>
              r.keyLists === 1 && r.alertPages === expectedPages && r.total === 1 + expectedPages && r.http429 === 0,
          ),
        extra: {
          ...facts,
          measuredIs: `median of ${runs} refreshes of the same resources through the native plugin (alertpipe:index:*, pulumi-resource-alertpipe on PATH)`,
          idealIs:
            "the do-nothing reference's refresh (a dynamic provider: the plugin has no do-nothing twin), as refresh-by-list's",
          runsMs: native.map((r) => r.ms),
          readsPerRun: pluginReads,
        },
      });
    }
    return rows;
  } finally {
    for (const s of stacks) s.dispose();
    if (relaxedOpen) await relaxed.close();
    await emulator?.close();
    rmSync(dataFile, { force: true });
  }
}
