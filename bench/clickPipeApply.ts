// ClickPipes under one key's budget (issue 46): 20 Kafka pipes created, then scaled, then stopped,
// three ups on one ClickHouse Cloud key against the emulator's Cloud mode with its published limit
// (10 requests per 10 s, fixed windows per key) and our pacing at the same, through each door. Each
// up's requests, the waits' polls included, are held to the ideal schedule of the same number of
// requests at that limit: the first window's go at once, each later window's a window after, the
// last answered one server latency after it goes. Measured is the same span as the service saw it:
// the up's first request's arrival to its last one's, plus that latency.

import { startEmulator, type RecordedRequest, type RunningEmulator } from "../emulator";
import { DEFAULT_RATE_LIMITS } from "../provider/serviceFacts/rateLimits";
import { openDoorStack, SOAK_ORG, SOAK_SERVICE, type SoakDoor } from "../scripts/engine/soak";
import { declarePipes, scaled, type Wanted } from "../scripts/engine/soakClickPipe";
import type { StackConfig } from "../scripts/exampleStack";
import type { BenchFolder } from "./benchFolder";
import { budgetFloorMs } from "./budget";
import type { ScenarioResult } from "./report";
import { maxInAnyWindow, statusCounts } from "./stats";

export const CLICK_PIPE_APPLY = {
  pipes: 20,
  limit: DEFAULT_RATE_LIMITS.cloud,
  latencyMs: 50,
  /** How long each step of a pipe's state takes in the emulator: a provisioning, a scaling, a stop. */
  stepMs: 200,
  target: 1.1,
} as const;

/** The row of each door, as `npm run bench -- <word>` picks them. */
export const CLICK_PIPE_APPLY_ROWS: Record<SoakDoor, string> = {
  dynamic: "clickpipe-apply",
  native: "clickpipe-apply-plugin",
};

const PHASES: ReadonlyArray<{ name: string; wanted: readonly Wanted[] }> = [
  { name: "create", wanted: Array.from({ length: CLICK_PIPE_APPLY.pipes }, () => ({ stopped: false })) },
  {
    name: "scale",
    wanted: Array.from({ length: CLICK_PIPE_APPLY.pipes }, () => ({ scaling: scaled(2), stopped: false })),
  },
  {
    name: "stop",
    wanted: Array.from({ length: CLICK_PIPE_APPLY.pipes }, () => ({ scaling: scaled(2), stopped: true })),
  },
];

interface PhaseFigures {
  phase: string;
  ok: boolean;
  requests: number;
  byKind: Record<string, number>;
  spanMs: number;
  idealMs: number;
  upMs: number;
  http429: number;
  maxInAnyWindow: number;
  statuses: Record<string, number>;
}

function configOf(emu: RunningEmulator): StackConfig {
  const { requests, perSeconds } = CLICK_PIPE_APPLY.limit;
  return {
    "alertpipe:cloudUrl": { value: emu.url },
    "alertpipe:cloudKeyId": { value: emu.keyId },
    "alertpipe:cloudKeySecret": { value: emu.keySecret, secret: true },
    "alertpipe:cloudDialect": { value: "clickhouse" },
    "alertpipe:cloudRateLimit": { value: `${requests}/${perSeconds}` },
  };
}

/** "POST pipes", "PATCH scaling", "GET pipe"…: what each request was, ids left out. */
function kindOf(r: RecordedRequest): string {
  const tail = r.path.split("/clickpipes")[1] ?? r.path;
  const what =
    tail === "" ? "pipes" : tail.endsWith("/scaling") ? "scaling" : tail.endsWith("/state") ? "state" : "pipe";
  return `${r.method} ${what}`;
}

function tally(requests: readonly RecordedRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of requests) out[kindOf(r)] = (out[kindOf(r)] ?? 0) + 1;
  return out;
}

async function oneDoor(folder: BenchFolder, door: SoakDoor): Promise<ScenarioResult> {
  const { limit, latencyMs, stepMs, target, pipes } = CLICK_PIPE_APPLY;
  const windowMs = limit.perSeconds * 1000;
  const savedStep = process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
  process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = String(stepMs);
  // The emulator's published limits are its defaults: one counter per key.
  const emu = await startEmulator({ cloudDialect: "clickhouse", port: 0, latencyMs });
  let wanted = PHASES[0]?.wanted ?? [];
  const figures: PhaseFigures[] = [];
  try {
    const stack = await openDoorStack({
      door,
      stack: `clickpipe-apply-${door}`,
      config: configOf(emu),
      program: (declare) => declarePipes(declare, wanted, "bench-pipe"),
      programDir: folder.dir,
      pluginDir: folder.pluginDir,
    });
    try {
      for (const phase of PHASES) {
        wanted = phase.wanted;
        // Each up starts with the key's window closed, as a user's next up would find it.
        await new Promise((resolve) => setTimeout(resolve, windowMs + 300));
        const from = emu.requests.length;
        const started = Date.now();
        const run = await stack.up();
        const upMs = Date.now() - started;
        const sent = emu.requests.slice(from);
        const first = sent[0]?.at ?? started;
        const last = sent.at(-1)?.at ?? started;
        figures.push({
          phase: phase.name,
          ok: run.ok,
          requests: sent.length,
          byKind: tally(sent),
          spanMs: last - first + latencyMs,
          idealMs: budgetFloorMs(sent.length, limit, latencyMs),
          upMs,
          http429: sent.filter((r) => r.status === 429).length,
          maxInAnyWindow: maxInAnyWindow(sent, windowMs),
          statuses: statusCounts(sent),
        });
        console.log(
          `\n  ${door} ${phase.name}: ${run.ok ? "ok" : `FAILED ${run.error ?? ""}`}, ${sent.length} requests ${JSON.stringify(tally(sent))}, span ${last - first + latencyMs} ms, ideal ${budgetFloorMs(sent.length, limit, latencyMs)} ms, up ${upMs} ms`,
        );
      }
    } finally {
      stack.dispose();
    }
  } finally {
    await emu.close();
    if (savedStep === undefined) delete process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
    else process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = savedStep;
  }
  const measured = figures.reduce((sum, f) => sum + f.spanMs, 0);
  const ideal = figures.reduce((sum, f) => sum + f.idealMs, 0);
  const ratio = ideal === 0 ? null : measured / ideal;
  const http429 = figures.reduce((sum, f) => sum + f.http429, 0);
  const doorWords = door === "dynamic" ? "dynamic classes" : "native plugin";
  return {
    name: CLICK_PIPE_APPLY_ROWS[door],
    title: `${pipes} ClickPipes created, then scaled, then stopped (three ups) on one Cloud key, emulator Cloud mode, published limit ${limit.requests} req / ${limit.perSeconds} s, ${doorWords}`,
    reference: `the ideal schedule of the same requests (polls included) at ${limit.requests} per ${limit.perSeconds} s`,
    measured,
    ideal,
    unit: "ms",
    ratio,
    target: `ratio <= ${target.toFixed(2)}; no HTTP 429; every up succeeds`,
    pass: ratio !== null && ratio <= target && http429 === 0 && figures.every((f) => f.ok),
    extra: {
      through:
        door === "dynamic"
          ? "the dynamic classes (Pulumi's dynamic-provider host)"
          : "the native plugin (alertpipe:index:*, pulumi-resource-alertpipe on PATH)",
      organizationId: SOAK_ORG,
      serviceId: SOAK_SERVICE,
      serverLatencyMs: latencyMs,
      emulatorStepMs: stepMs,
      providerPacing: `alertpipe:cloudRateLimit=${limit.requests}/${limit.perSeconds}`,
      measuredIs:
        "the sum over the three ups of the span the service saw: first request's arrival to the last one's, plus one server latency",
      idealIs: `the sum over the three ups of (ceil(requests / ${limit.requests}) - 1) x ${windowMs} ms + ${latencyMs} ms: the same requests, polls included, packed ${limit.requests} per window`,
      phases: figures,
      http429,
    },
  };
}

/** The rows of the doors asked for, each door on an emulator of its own. */
export async function clickPipeApply(folder: BenchFolder, doors: readonly SoakDoor[]): Promise<ScenarioResult[]> {
  const rows: ScenarioResult[] = [];
  for (const door of doors) rows.push(await oneDoor(folder, door));
  return rows;
}
