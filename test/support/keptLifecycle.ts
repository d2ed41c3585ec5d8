// The kept-fields lifecycle (issue 44, docs/design/fields-kept.md), through either door (the dynamic
// classes by the Automation API, Pulumi YAML through the plugin): a
// connection, a log source, a metric source and a dashboard of a number tile, a table tile and a
// filter. up; then by hand, through the service's API, the fields the definitions do not name (the log
// source's materialized views and their siblings, the metric source's exponential histogram table,
// the tiles' colorRules, backgroundChart and onClick, the filter's appliesToSourceIds); an up that
// renames the sources and the dashboard (each update reads before its PUT); a refresh that changes
// nothing; destroy. Recorded from the real server (test/engine/recordHyperdx.ts), replayed from that
// recordings (test/engine/hyperdx.kept.replay.test.ts).

import type { StackConfig } from "../../scripts/exampleStack";
import { engineOutcome, installedPackage, stackWith, stateIds } from "./engine";
import type { Door, LifecycleDoor } from "./hyperdxLifecycle";
import { cliOutcome, yamlProgram, yamlStack } from "./yamlStack";
import {
  BACKGROUND,
  COLOR_RULES,
  METRIC_TABLES,
  METRIC_TABLES_BY_HAND,
  SOURCE_BY_HAND,
  onClick,
} from "./keptFieldValues";
import { LOG_SOURCE } from "./sources";

type Obj = Record<string, unknown>;
export type KeptPhase = "base" | "renamed";

const ALL = ["ch", "logs", "metrics", "ops"];

/** The runs, in order: the program's phase for each, and what each changes. The change by hand comes after `up`. */
export const KEPT_RUNS = [
  { label: "up", kind: "up", phase: "base", changes: ALL.map((n) => `create ${n}`) },
  { label: "renamed", kind: "up", phase: "renamed", changes: ["update logs", "update metrics", "update ops"] },
  { label: "refresh", kind: "refresh", phase: "renamed", changes: [] },
  { label: "destroy", kind: "destroy", phase: "renamed", changes: ALL.map((n) => `delete ${n}`) },
] as const satisfies readonly {
  label: string;
  kind: "up" | "refresh" | "destroy";
  phase: KeptPhase;
  changes: readonly string[];
}[];

const renamed = (phase: KeptPhase, name: string) => (phase === "base" ? name : `${name} renamed`);

/** The program's resources at `phase`, by name: their type and properties, a reference spelled by `ref`. */
function resourcesAt(phase: KeptPhase, ref: (name: string) => unknown): Record<string, { type: string; props: Obj }> {
  const logsId = ref("logs");
  const count = { displayType: "number", sourceId: logsId, select: [{ aggFn: "count" }] };
  const top = { displayType: "table", sourceId: logsId, select: [{ aggFn: "count" }], groupBy: "ServiceName" };
  return {
    ch: {
      type: "Connection",
      props: {
        name: "ch-kept",
        host: "http://127.0.0.1:1",
        username: "default",
        password: "kept-pass-never-contacted",
      },
    },
    logs: { type: "Source", props: { ...LOG_SOURCE, name: renamed(phase, "Logs kept"), connection: ref("ch") } },
    metrics: {
      type: "Source",
      props: {
        kind: "metric",
        name: renamed(phase, "Metrics kept"),
        connection: ref("ch"),
        from: { databaseName: "default" },
        timestampValueExpression: "TimeUnix",
        resourceAttributesExpression: "ResourceAttributes",
        metricTables: METRIC_TABLES,
      },
    },
    ops: {
      type: "Dashboard",
      props: {
        name: renamed(phase, "Ops kept"),
        tiles: [
          { name: "Count", x: 0, y: 0, w: 6, h: 3, config: count },
          { name: phase === "base" ? "Top" : "Top services", x: 6, y: 0, w: 6, h: 3, config: top },
        ],
        filters: [{ type: "QUERY_EXPRESSION", name: "Service", expression: "ServiceName", sourceId: logsId }],
      },
    },
  };
}

async function dynamicDoor(config: StackConfig, phase: () => KeptPhase): Promise<LifecycleDoor> {
  const stack = await stackWith(config, "hyperdx-kept", {
    program: async () => {
      const pkg = installedPackage() as unknown as Record<string, new (name: string, props: Obj) => { id: unknown }>;
      const made: Record<string, { id: unknown }> = {};
      // In order, each built once those before it exist: its references are their ids.
      for (const name of Object.keys(resourcesAt(phase(), () => undefined))) {
        const { type, props } = resourcesAt(phase(), (n) => made[n]?.id)[name] ?? { type: "", props: {} };
        const Resource = pkg[type];
        if (Resource === undefined) throw new Error(`no class ${type}`);
        made[name] = new Resource(name, props);
      }
    },
  });
  return { run: (kind) => engineOutcome(stack, kind), ids: () => stateIds(stack) };
}

async function yamlDoor(config: StackConfig, phase: () => KeptPhase): Promise<LifecycleDoor> {
  const program = () =>
    yamlProgram({
      resources: Object.fromEntries(
        Object.entries(resourcesAt(phase(), (n) => `\${${n}.id}`)).map(([name, { type, props }]) => [
          name,
          { type: `alertpipe:index:${type}`, properties: props },
        ]),
      ),
    });
  const yaml = await yamlStack(undefined, program(), { config });
  return {
    run: (kind) => {
      yaml.write(program());
      return cliOutcome(yaml.stack, kind);
    },
    ids: () => stateIds(yaml.stack),
  };
}

/** The stack of the program through `door`, its phase set before each run. */
export async function keptDoor(
  door: Door,
  config: StackConfig,
): Promise<LifecycleDoor & { phase(p: KeptPhase): void }> {
  let phase: KeptPhase = "base";
  const open = door === "dynamic" ? dynamicDoor : yamlDoor;
  const stack = await open(config, () => phase);
  return {
    ...stack,
    phase: (p) => {
      phase = p;
    },
  };
}

/** The recording's name of a door's kept-fields lifecycle. */
export const keptScenario = (door: Door): string => `lifecycle-kept-${door}`;

/** A request by hand to HyperDX's API under /api/v2 (`/sources/ID`): answers its `data`. */
export type ByHand = (what: string, method: string, path: string, body?: unknown, refused?: boolean) => Promise<Obj>;

/** The object as a person's PUT sends it back: without the service's own members, nor its nulls. */
export const putBody = (held: Obj): Obj => {
  const made = new Set(["id", "_id", "teamId", "team", "createdAt", "updatedAt", "__v"]);
  return Object.fromEntries(Object.entries(held).filter(([k, v]) => v !== null && !made.has(k)));
};

/** Sets each kept field by hand on the objects `ids` names (logs, metrics, ops). */
export async function setKeptByHand(hand: ByHand, ids: Record<string, string>): Promise<void> {
  const logs = ids.logs ?? "";
  const src = await hand("read the log source by hand", "GET", `/sources/${logs}`);
  const { granularity: _g, ...noGranularity } = SOURCE_BY_HAND.metadataMaterializedViews as Obj;
  await hand(
    "set its metadata views without granularity by hand: refused",
    "PUT",
    `/sources/${logs}`,
    {
      ...putBody(src),
      metadataMaterializedViews: noGranularity,
    },
    true,
  );
  await hand("set its materialized views by hand", "PUT", `/sources/${logs}`, { ...putBody(src), ...SOURCE_BY_HAND });
  const metrics = await hand("read the metric source by hand", "GET", `/sources/${ids.metrics ?? ""}`);
  await hand("set its exponential histogram table by hand", "PUT", `/sources/${ids.metrics ?? ""}`, {
    ...putBody(metrics),
    metricTables: METRIC_TABLES_BY_HAND,
  });
  const ops = await hand("read the dashboard by hand", "GET", `/dashboards/${ids.ops ?? ""}`);
  const tiles = (ops.tiles as Obj[]).map((t) => {
    const config = t.config as Obj;
    if (config.displayType === "number")
      return { ...t, config: { ...config, colorRules: COLOR_RULES, backgroundChart: BACKGROUND } };
    if (config.displayType === "table") return { ...t, config: { ...config, onClick: onClick(logs) } };
    return t;
  });
  const filters = (ops.filters as Obj[]).map((f) => ({ ...f, appliesToSourceIds: [logs] }));
  await hand(
    "set tiles' colorRules, backgroundChart, onClick and the filter's appliesToSourceIds by hand",
    "PUT",
    `/dashboards/${ids.ops ?? ""}`,
    {
      ...putBody(ops),
      tiles,
      filters,
    },
  );
}

const configOf = (board: Obj, displayType: string): Obj =>
  ((board.tiles as Obj[] | undefined)?.find((t) => (t.config as Obj).displayType === displayType)?.config ?? {}) as Obj;

/**
 * Where each kept field stands in an object's body (a GET's `data` or a PUT's body), by object: what
 * the tests compare with what was set by hand.
 */
export function keptIn(kind: "logs" | "metrics" | "ops", body: Obj): Obj {
  if (kind === "logs") return Object.fromEntries(Object.keys(SOURCE_BY_HAND).map((k) => [k, body[k]]));
  if (kind === "metrics") return { metricTables: body.metricTables };
  const number = configOf(body, "number");
  return {
    colorRules: number.colorRules,
    backgroundChart: number.backgroundChart,
    onClick: configOf(body, "table").onClick,
    appliesToSourceIds: (body.filters as Obj[] | undefined)?.[0]?.appliesToSourceIds,
  };
}

/** What `keptIn` answers once the fields are set by hand, the log source's id given. */
export function keptByHand(kind: "logs" | "metrics" | "ops", logsId: string): Obj {
  if (kind === "logs") return SOURCE_BY_HAND;
  if (kind === "metrics") return { metricTables: METRIC_TABLES_BY_HAND };
  return {
    colorRules: COLOR_RULES,
    backgroundChart: BACKGROUND,
    onClick: onClick(logsId),
    appliesToSourceIds: [logsId],
  };
}
