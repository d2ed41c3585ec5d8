// The fault soak's ClickPipe scenario (issue 46): a few Kafka pipes on one service of the emulator's
// Cloud mode, some with scaling, one stopped, under lost answers (cut, 500 or late after commit) on
// the three writes whose answer a pipe's lifecycle must survive: the create's POST, the scaling
// PATCH and the state command's PATCH. The changed program scales two pipes, stops one and starts
// the stopped one, so the faults land on every kind of write. Each pipe has a name and a table of
// its own: the census counts one per name, and scaling and stopped against the program's.

import * as pulumi from "@pulumi/pulumi";
import type { ClickPipeView, FaultKind, RunningEmulator, WriteRoute } from "../../emulator";
import { stoppedOf } from "../../provider/serviceFacts/clickPipes";
import { SOAK_ORG, SOAK_SERVICE, type Declare, type SoakScenario } from "./soak";

/** Pipes in the program: enough writes for the faults to land on each route, few enough for npm test. */
export const SOAK_PIPES = 4;

const PIPES = `^/v1/organizations/${SOAK_ORG}/services/${SOAK_SERVICE}/clickpipes`;

/** The writes faulted: the create, the scaling change and the state command. */
export const CLICK_PIPE_FAULTED_ROUTES: readonly WriteRoute[] = [
  { method: "POST", pathPattern: new RegExp(`${PIPES}$`) },
  { method: "PATCH", pathPattern: new RegExp(`${PIPES}/[^/]+/scaling$`) },
  { method: "PATCH", pathPattern: new RegExp(`${PIPES}/[^/]+/state$`) },
];

/** Lost answers only: the service did the write, the provider cannot know. */
export const LOST_ANSWERS: readonly FaultKind[] = ["cutAfterCommit", "failAfterCommit", "delayAfterCommit"];

/** What the program sets of pipe `i` beyond its source: scaling (when any) and the switch. */
export interface Wanted {
  scaling?: { replicas: number; replicaCpuMillicores: number; replicaMemoryGb: number };
  stopped: boolean;
}

export const scaled = (replicas: number, replicaCpuMillicores = 250) => ({
  replicas,
  replicaCpuMillicores,
  replicaMemoryGb: 1,
});

/** First: pipes 0 and 1 scaled, 2 stopped, 3 as the service sizes it. */
const FIRST: readonly Wanted[] = [
  { scaling: scaled(2), stopped: false },
  { scaling: scaled(1), stopped: false },
  { stopped: true },
  { stopped: false },
];
/** Changed: 0 rescaled, 1 given more CPU and stopped, 2 started. */
const CHANGED: readonly Wanted[] = [
  { scaling: scaled(3), stopped: false },
  { scaling: scaled(1, 500), stopped: true },
  { stopped: false },
  { stopped: false },
];

const pipeName = (i: number) => `soak-pipe-${i}`;

/** A Kafka pipe per entry of `wanted`, named `${prefix}-${i}`, each on a table of its own. */
export function declarePipes(declare: Declare, wanted: readonly Wanted[], prefix = "soak-pipe"): void {
  wanted.forEach((w, i) =>
    declare("ClickPipe", `${prefix}-${i}`, {
      organizationId: SOAK_ORG,
      serviceId: SOAK_SERVICE,
      name: `${prefix}-${i}`,
      source: {
        kafka: {
          type: "kafka",
          format: "JSONEachRow",
          brokers: `soak-broker-${i}:9092`,
          topics: `soak-${i}`,
          authentication: "PLAIN",
        },
      },
      credentials: { username: `soak-${i}`, password: pulumi.secret(`soak-kafka-${i}`) },
      destination: {
        database: "default",
        table: `soak_${i}`,
        managedTable: true,
        tableDefinition: { engine: { type: "MergeTree" } },
        columns: [{ name: "message", type: "String" }],
      },
      fieldMappings: [{ sourceField: "message", destinationField: "message" }],
      ...(w.scaling !== undefined ? { scaling: w.scaling } : {}),
      stopped: w.stopped,
    }),
  );
}

const ours = (emu: RunningEmulator): ClickPipeView[] =>
  emu.clickPipes().filter((p) => p.organizationId === SOAK_ORG && p.serviceId === SOAK_SERVICE);

/** Pipes whose scaling or switch differs from the program's (by name); a missing pipe is the census's. */
function offProgram(emu: RunningEmulator, wanted: readonly Wanted[]): number {
  const live = ours(emu);
  return wanted.filter((w, i) => {
    const pipe = live.find((p) => p.name === pipeName(i));
    if (pipe === undefined) return false;
    const scalingOff = w.scaling !== undefined && Object.entries(w.scaling).some(([k, v]) => pipe.scaling?.[k] !== v);
    return scalingOff || stoppedOf(pipe.state, !w.stopped) !== w.stopped;
  }).length;
}

/** The ClickPipe soak on the emulator's Cloud mode, its states moving every `stepMs`. */
export function clickPipeSoak(stepMs = 50): SoakScenario {
  return {
    name: "clickpipe",
    emulator: { cloudDialect: "clickhouse" },
    env: { ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS: String(stepMs) },
    config: (emu) => ({
      "alertpipe:cloudUrl": { value: emu.url },
      "alertpipe:cloudKeyId": { value: emu.keyId },
      "alertpipe:cloudKeySecret": { value: emu.keySecret, secret: true },
      "alertpipe:cloudDialect": { value: "clickhouse" },
      "alertpipe:cloudRateLimit": { value: "off" },
    }),
    faults: { routes: CLICK_PIPE_FAULTED_ROUTES, kinds: LOST_ANSWERS },
    program: (declare) => declarePipes(declare, FIRST),
    changed: (declare) => declarePipes(declare, CHANGED),
    declared: SOAK_PIPES,
    interruptAfter: 2,
    kinds: ["clickpipes"],
    objects: (_snap, emu) => ours(emu).map((p) => ({ id: p.id, kind: "clickpipes", name: p.name })),
    settingsOff: (_snap, emu, changed) => offProgram(emu, changed ? CHANGED : FIRST),
  };
}
