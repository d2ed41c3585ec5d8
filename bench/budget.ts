// One budget per key (issue 37): on ClickHouse Cloud, managed ClickStack's calls spend the same
// key's budget as ClickPipe settings, 10 requests per 10 s. An apply of 20 Alerts on managed
// ClickStack and 20 PipeSettings with that one key, against the emulator's Cloud mode with its
// published limits on (one counter per key for /clickstack and area B), through each door, against
// the hand-written reference of the same door making the same 40 requests, paced in one window per
// process as a user would pace them (bench/handWrittenCloud.ts). The limit alone makes each apply
// take at least three windows, 30 s, so the reference holds what a provider must pay to meet no
// 429; the floor (the windows and one warm create) is kept beside it as a figure.

import { SEEDED_SOURCES } from "../emulator";
import type { AlertArgs } from "../provider";
import { DEFAULT_RATE_LIMITS } from "../provider/serviceFacts/rateLimits";
import type { BenchFolder } from "./benchFolder";
import { withEmulator, type EmulatorProcess } from "./emulatorProcess";
import { NO_PACING, type Build, type EngineUp } from "./engineRun";
import { ARGS, ORGANIZATION, SERVICE, type Args } from "./inputs";
import { nativeBuild, oursBuild, pacedBuild, shellBuild } from "./programs";
import { ratioOf, type ScenarioResult } from "./report";
import {
  FETCH_KEY_ID_ENV,
  FETCH_KEY_SECRET_ENV,
  FETCH_ORGANIZATION_ENV,
  FETCH_SERVICE_ENV,
  FETCH_URL_ENV,
} from "./shellFacts";
import { maxInAnyWindow, median, pairedRatios, statusCounts } from "./stats";
import { engineFacts, timed, timedUp, turned, type Timed } from "./throughput";
import type { StackConfig } from "../scripts/exampleStack";

export type BudgetDoor = "dynamic" | "plugin";

/** Issue 37: 20 Alerts and 20 PipeSettings, the published limit, a few alternated runs, ≤ 1.10 of the reference. */
export const ONE_BUDGET = {
  alerts: 20,
  pipes: 20,
  limit: DEFAULT_RATE_LIMITS.cloud,
  latencyMs: 50,
  runs: 3,
  target: 1.1,
} as const;

/** The row names of each door, as `npm run bench -- <word>` picks them. */
export const ONE_BUDGET_ROWS: Record<BudgetDoor, string> = {
  dynamic: "one-budget-apply",
  plugin: "one-budget-apply-plugin",
};

/**
 * The least an apply of `requests` creates can take under `limit` counted in fixed windows: the
 * first window's requests go at once, each later window's a window after the one before, and the
 * last one's answer comes one request's time after it goes.
 */
export function budgetFloorMs(requests: number, limit: { requests: number; perSeconds: number }, oneRequestMs: number) {
  return (Math.ceil(requests / limit.requests) - 1) * limit.perSeconds * 1000 + oneRequestMs;
}

/** The i-th resource's kind: alerts and pipe settings interleaved, as a program might declare them. */
const kindAt = (i: number): "Alert" | "PipeSettings" => (i % 2 === 0 ? "Alert" : "PipeSettings");

/** What the program hands ours: an alert on the saved search, notifying the webhook, made before the runs. */
function oursArgs(hookId: string, searchId: string): Args {
  return {
    ...ARGS,
    Alert: (i) => ({ ...ARGS.Alert(i), savedSearchId: searchId, channel: { type: "webhook", webhookId: hookId } }),
  };
}

/** What the program hands the hand-written reference: the same, with the service's word for a search alert. */
function referenceArgs(ours: Args): Args {
  return { ...ours, Alert: (i) => ({ ...ours.Alert(i), source: "saved_search" }) as unknown as AlertArgs };
}

/** Managed ClickStack's settings as the guide names them, with the Cloud key's budget and dialect. */
function managedConfig(emulator: EmulatorProcess): StackConfig {
  return {
    "alertpipe:cloudUrl": { value: emulator.url },
    "alertpipe:cloudKeyId": { value: emulator.keyId },
    "alertpipe:cloudKeySecret": { value: emulator.keySecret, secret: true },
    "alertpipe:cloudDialect": { value: "clickhouse" },
    "alertpipe:clickstackOrganizationId": { value: ORGANIZATION },
    "alertpipe:clickstackServiceId": { value: SERVICE },
    "alertpipe:cloudRateLimit": { value: `${ONE_BUDGET.limit.requests}/${ONE_BUDGET.limit.perSeconds}` },
  };
}

const CLICKSTACK = `/v1/organizations/${ORGANIZATION}/services/${SERVICE}/clickstack`;

/** The webhook and saved search the alerts name, made once through the API as a console user would. */
async function madeBeforehand(emulator: EmulatorProcess): Promise<{ hookId: string; searchId: string }> {
  const basic = `Basic ${Buffer.from(`${emulator.keyId}:${emulator.keySecret}`).toString("base64")}`;
  const post = async (what: string, body: unknown): Promise<string> => {
    const res = await fetch(`${emulator.url}${CLICKSTACK}/${what}`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { result?: { id?: unknown } };
    if (!res.ok || typeof answer.result?.id !== "string")
      throw new Error(`POST ${CLICKSTACK}/${what} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer.result.id;
  };
  const hookId = await post("webhooks", { name: "ops", service: "generic", url: "https://hooks.example.com/ops" });
  const searchId = await post("saved-searches", {
    name: "errors",
    sourceId: SEEDED_SOURCES[0].id,
    where: "level:error",
  });
  return { hookId, searchId };
}

function referenceEnv(emulator: EmulatorProcess): Record<string, string> {
  return {
    [FETCH_URL_ENV]: emulator.url,
    [FETCH_KEY_ID_ENV]: emulator.keyId,
    [FETCH_KEY_SECRET_ENV]: emulator.keySecret,
    [FETCH_ORGANIZATION_ENV]: ORGANIZATION,
    [FETCH_SERVICE_ENV]: SERVICE,
  };
}

interface Variant {
  readonly stack: string;
  readonly build: (n: number, prefix: string) => Build;
  /** The warm-ups: one Alert, then one PipeSettings, so each kind's code is loaded before the timed part. */
  readonly warm: (kind: "Alert" | "PipeSettings", prefix: string) => Build;
  readonly provider: "dynamic-host" | "plugin";
}

function variants(door: BudgetDoor, ours: Args, reference: Args): { ours: Variant; reference: Variant } {
  if (door === "dynamic")
    return {
      ours: {
        stack: "budget-ours",
        build: (n, p) => oursBuild(n, kindAt, p, ours),
        warm: (k, p) => oursBuild(1, () => k, p, ours),
        provider: "dynamic-host",
      },
      reference: {
        stack: "budget-paced",
        build: (n, p) => pacedBuild(n, kindAt, p, reference),
        warm: (k, p) => pacedBuild(1, () => k, p, reference),
        provider: "dynamic-host",
      },
    };
  return {
    ours: {
      stack: "budget-plugin",
      build: (n, p) => nativeBuild(n, kindAt, p, ours),
      warm: (k, p) => nativeBuild(1, () => k, p, ours),
      provider: "plugin",
    },
    reference: {
      stack: "budget-plugin-paced",
      build: (n, p) => shellBuild("paced", n, kindAt, p, reference),
      warm: (k, p) => shellBuild("paced", 1, () => k, p, reference),
      provider: "plugin",
    },
  };
}

/** One door's row: ours and the reference alternated, the order turning each run, on one emulator. */
async function oneDoor(folder: BenchFolder, door: BudgetDoor, runs: number): Promise<ScenarioResult> {
  const { alerts, pipes, limit, latencyMs } = ONE_BUDGET;
  const n = alerts + pipes;
  const windowMs = limit.perSeconds * 1000;
  // The published limits are the emulator's defaults: area B and /clickstack count on one key.
  return withEmulator({ cloudDialect: "clickhouse", latencyMs }, async (emulator) => {
    const { hookId, searchId } = await madeBeforehand(emulator);
    const args = oursArgs(hookId, searchId);
    const { ours: o, reference: r } = variants(door, args, referenceArgs(args));
    const env = referenceEnv(emulator);
    const config = managedConfig(emulator);
    const ours = timed();
    const reference = timed();
    let up: EngineUp | undefined;
    const upOf = (v: Variant, into: Timed, run: number) => async () => {
      // The key's budget is the service's, not the process's: the up before spent it to the last
      // window, and a new process cannot know. Each up starts with the key's window closed.
      await new Promise((resolve) => setTimeout(resolve, windowMs + 300));
      const made = await timedUp(folder, emulator, into, `${v.stack}-${run}`, NO_PACING, {
        warmUp: [v.warm("Alert", `warm${run}-0`), v.warm("PipeSettings", `warm${run}-1`)],
        // The warm-ups' window, the service's and the provider's, closes before the timed part.
        settleMs: windowMs + 300,
        build: v.build(n, `budget${run}`),
        provider: v.provider,
        env,
        config,
      });
      if (v === o) up = made;
    };
    for (let run = 0; run < runs; run++)
      for (const program of turned([upOf(o, ours, run), upOf(r, reference, run)], run)) await program();
    return budgetRow(door, ours, reference, up, runs);
  });
}

function budgetRow(
  door: BudgetDoor,
  ours: Timed,
  reference: Timed,
  up: EngineUp | undefined,
  runs: number,
): ScenarioResult {
  const { alerts, pipes, limit, latencyMs, target } = ONE_BUDGET;
  const n = alerts + pipes;
  const windowMs = limit.perSeconds * 1000;
  const ratios = pairedRatios(ours.ms, reference.ms);
  const within = (x: number | null) => x !== null && x <= target;
  const http429 = (t: Timed) => t.requests.filter((q) => q.status === 429).length;
  const allCreated = (t: Timed) => t.created.length === runs && t.created.every((c) => c === n + 2);
  // Ours checks the one key once per run (provider/http/credentials.ts); the hand-written reference does not.
  const sentAll = (t: Timed, perRun: number) => t.requests.length === perRun * runs;
  const oneRequestMs = median(ours.warmUpMs.map((w) => w[1] ?? NaN));
  const floorMs = budgetFloorMs(n, limit, oneRequestMs);
  const measured = median(ours.ms);
  const doorWords = door === "dynamic" ? "dynamic classes" : "native plugin";
  const referenceWords =
    door === "dynamic"
      ? "a hand-written dynamic provider making the same requests, paced 10 per 10 s"
      : "a minimal native plugin (our gRPC shell) making the same requests, paced 10 per 10 s";
  return {
    name: ONE_BUDGET_ROWS[door],
    title: `${alerts} Alerts on managed ClickStack and ${pipes} PipeSettings on one Cloud key, emulator Cloud mode, published limit ${limit.requests} req / ${limit.perSeconds} s, ${doorWords}, ${runs} alternated runs`,
    reference: referenceWords,
    measured,
    ideal: median(reference.ms),
    unit: "ms",
    ratio: ratios.ofMedians,
    target: `ratio <= ${target.toFixed(2)}, and the median of the runs' own ratios too; no HTTP 429`,
    pass:
      within(ratios.ofMedians) &&
      within(ratios.medianOfPairs) &&
      http429(ours) === 0 &&
      http429(reference) === 0 &&
      allCreated(ours) &&
      allCreated(reference) &&
      sentAll(ours, n + 1) &&
      sentAll(reference, n),
    extra: {
      ...engineFacts(up),
      resources: { Alert: alerts, PipeSettings: pipes },
      through:
        door === "dynamic"
          ? "the dynamic classes (Pulumi's dynamic-provider host)"
          : "the native plugin (alertpipe:index:*, pulumi-resource-alertpipe on PATH)",
      serverLatencyMs: latencyMs,
      emulator: `cloudDialect clickhouse, published limits: ${limit.requests} requests per ${limit.perSeconds} s fixed window per key, /clickstack and area B on one counter`,
      connection:
        "managed ClickStack: cloudUrl, cloudKeyId, cloudKeySecret, cloudDialect=clickhouse, clickstackOrganizationId, clickstackServiceId; no alertingUrl",
      providerPacing: `alertpipe:cloudRateLimit=${limit.requests}/${limit.perSeconds} (one limiter for the key)`,
      measuredIs: `median of ${runs} ups; in each, after two warm-up creates (one Alert, then one PipeSettings) and ${windowMs + 300} ms for the windows to close: the ${n} registrations to the last one's outputs back from the engine, timed in the program`,
      idealIs: `the same ${n} resources, same inputs (a search alert's source in the service's word, saved_search), through ${door === "dynamic" ? "two dynamic providers (one per kind, bench/handWrittenCloud.ts), their classes declaring every output ours declare" : "pulumi-resource-benchpaced (bench/nativeShells.ts)"} over one hand-written module: fetch, Basic auth with the same key, at most ${limit.requests} calls in any ${limit.perSeconds} s, each counted from its answer, one window per process; same warm-ups and settling; runs alternated with ours, the order turning each run`,
      medianOfPairedRatios: ratios.medianOfPairs,
      pairedRatios: ratios.perRun,
      runsMs: ours.ms,
      referenceRunsMs: reference.ms,
      floorMs,
      floorIs: `(ceil(${n} / ${limit.requests}) - 1) x ${windowMs} ms + one request's time (the median of ours' second warm-up create, one PipeSettings alone, host warm): a figure, no provider meets it exactly`,
      ratioToFloor: { ours: ratioOf(measured, floorMs), reference: ratioOf(median(reference.ms), floorMs) },
      firstRequestMs: { ours: ours.firstRequestMs, reference: reference.firstRequestMs },
      requestSpanMs: { ours: ours.requestSpanMs, reference: reference.requestSpanMs },
      warmSingleCreateMs: { ours: oneRequestMs, reference: median(reference.warmUpMs.map((w) => w[1] ?? NaN)) },
      // A number, as every row's: the table prints it beside the figure.
      http429: http429(ours),
      referenceHttp429: http429(reference),
      requests: {
        ours: ours.requests.length,
        reference: reference.requests.length,
        expected: { ours: (n + 1) * runs, reference: n * runs },
      },
      statuses: { ours: statusCounts(ours.requests), reference: statusCounts(reference.requests) },
      maxRequestsInAnyWindow: {
        ours: maxInAnyWindow(ours.requests, windowMs),
        reference: maxInAnyWindow(reference.requests, windowMs),
      },
      createdPerUp: { ours: ours.created, reference: reference.created },
    },
  };
}

/** The rows of the doors asked for, each door on an emulator of its own. */
export async function oneBudgetApply(
  folder: BenchFolder,
  doors: readonly BudgetDoor[],
  runs: number = ONE_BUDGET.runs,
): Promise<ScenarioResult[]> {
  const rows: ScenarioResult[] = [];
  for (const door of doors) rows.push(await oneDoor(folder, door, runs));
  return rows;
}
