// The fault soak's alerting scenario (issue 44): CHAINS copies of a whole observability program,
// connection → log source → dashboard (one alertable tile) → saved search → webhook → a tile alert
// (by `tileIds`) and a search alert, against the emulator's HyperDX (2026) mode, or its ClickHouse
// Cloud mode (managed ClickStack), where the platform made the connection the sources name and the
// program has none. Each object carries a name of its own, so the census counts one per name; the
// emulator's seeded connection and sources are not the program's and are never counted.

import * as pulumi from "@pulumi/pulumi";
import { SEEDED_CONNECTION, SEEDED_SOURCES, type EmulatorState, type RunningEmulator } from "../../emulator";
import { emulatorConfig, type StackConfig } from "../exampleStack";
import { outputOf, SOAK_ORG, SOAK_SERVICE, type Declare, type ServiceObject, type SoakScenario } from "./soak";

/** The alerting dialects the scenario runs against. */
export type SoakDialect = "hyperdx" | "clickstack";
export const SOAK_DIALECTS: readonly SoakDialect[] = ["hyperdx", "clickstack"];

/** Copies of the chain: enough writes for the faults to land on every kind, few enough for npm test. */
export const CHAINS = 2;

const ALERT = { threshold: 10, thresholdType: "above", interval: "5m" };

/** The chain's `i`th copy, through `declare`; the connection made by the program unless given. */
function chain(declare: Declare, i: number, platformConnection: string | undefined): void {
  const connection =
    platformConnection ??
    declare("Connection", `ch-${i}`, {
      name: `soak ch ${i}`,
      // Never contacted: the emulator stores connections without reaching their host.
      host: "http://127.0.0.1:1",
      username: "default",
      password: pulumi.secret(`soak-pass-${i}`),
    }).id;
  const logs = declare("Source", `logs-${i}`, {
    kind: "log",
    name: `soak logs ${i}`,
    connection,
    from: { databaseName: "default", tableName: "otel_logs" },
    timestampValueExpression: "Timestamp",
    defaultTableSelectExpression: "Timestamp, Body",
  }).id;
  const board = declare("Dashboard", `ops-${i}`, {
    name: `soak ops ${i}`,
    tiles: [
      {
        name: "Errors",
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        config: { displayType: "line", sourceId: logs, select: [{ aggFn: "count" }] },
      },
    ],
  });
  const search = declare("SavedSearch", `errors-${i}`, {
    name: `soak errors ${i}`,
    sourceId: logs,
    where: "level:error",
  });
  const hook = declare("Webhook", `hook-${i}`, {
    name: `soak hook ${i}`,
    service: "generic",
    url: `https://hooks.example.com/soak-${i}`,
  });
  const channel = { type: "webhook", webhookId: hook.id };
  declare("Alert", `tile-alert-${i}`, {
    ...ALERT,
    name: `soak tile alert ${i}`,
    source: "tile",
    channel,
    dashboardId: board.id,
    tileId: outputOf<Record<string, string> | undefined>(board, "tileIds").apply((ids) => ids?.["Errors"]),
  });
  declare("Alert", `search-alert-${i}`, {
    ...ALERT,
    name: `soak search alert ${i}`,
    source: "search",
    channel,
    savedSearchId: search.id,
  });
}

const SEEDED = new Set<string>([SEEDED_CONNECTION.id, ...SEEDED_SOURCES.map((s) => s.id)]);

/** Every object of the alerting collections but what the emulator seeded, named as stored. */
function alertingObjects(snap: EmulatorState): ServiceObject[] {
  const collections = {
    connections: snap.connections ?? {},
    sources: snap.sources ?? {},
    dashboards: snap.dashboards ?? {},
    savedSearches: snap.savedSearches ?? {},
    webhooks: snap.webhooks ?? {},
    alerts: snap.alerts,
  };
  return Object.entries(collections).flatMap(([kind, byId]) =>
    Object.entries(byId as Record<string, { name?: unknown }>)
      .filter(([id]) => !SEEDED.has(id))
      .map(([id, o]) => ({ id, kind, name: typeof o.name === "string" ? o.name : "" })),
  );
}

/** What points a stack at managed ClickStack on the emulator: the cloud API alone, no alerting URL. */
function clickstackConfig(emu: RunningEmulator): StackConfig {
  return {
    "alertpipe:cloudUrl": { value: emu.url },
    "alertpipe:cloudKeyId": { value: emu.keyId },
    "alertpipe:cloudKeySecret": { value: emu.keySecret, secret: true },
    "alertpipe:cloudDialect": { value: "clickhouse" },
    "alertpipe:clickstackOrganizationId": { value: SOAK_ORG },
    "alertpipe:clickstackServiceId": { value: SOAK_SERVICE },
    "alertpipe:cloudRateLimit": { value: "off" },
  };
}

/** The alerting chain's soak against `dialect`, `chains` copies of it. */
export function observabilitySoak(dialect: SoakDialect, chains = CHAINS): SoakScenario {
  const hyperdx = dialect === "hyperdx";
  const perChain = hyperdx ? 7 : 6;
  return {
    name: dialect,
    emulator: hyperdx ? { mode: "2026" } : { cloudDialect: "clickhouse" },
    config: hyperdx
      ? (emu) => ({
          ...emulatorConfig(emu),
          "alertpipe:cloudRateLimit": { value: "off" },
          "alertpipe:alertingRateLimit": { value: "off" },
        })
      : clickstackConfig,
    program: (declare) => {
      for (let i = 0; i < chains; i++) chain(declare, i, hyperdx ? undefined : SEEDED_CONNECTION.id);
    },
    declared: chains * perChain,
    interruptAfter: Math.ceil((chains * perChain) / 2),
    kinds: ["connections", "sources", "dashboards", "savedSearches", "webhooks", "alerts"],
    objects: alertingObjects,
  };
}

/** The dialect SOAK_DIALECT names; a misspelt one fails rather than running the other. */
export function soakDialect(named: string): SoakDialect {
  if ((SOAK_DIALECTS as readonly string[]).includes(named)) return named as SoakDialect;
  throw new Error(`the soak's dialect must be one of ${SOAK_DIALECTS.join(", ")}, not ${JSON.stringify(named)}`);
}
