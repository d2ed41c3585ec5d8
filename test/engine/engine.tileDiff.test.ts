// A tile moved on a dashboard previews, under `pulumi preview --diff`, as that tile's x changing and
// nothing else, through both doors: the defaults the service fills into a tile (asRatio, fillNulls, a
// select item's valueExpression, where, whereLanguage) and the ids the provider keeps are no removal.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { emulator as startEmulator, newStack, told } from "../support/engine";
import { yamlProgram, yamlStack } from "../support/yamlStack";

const MODE = { mode: "2026", rateLimits: { cloud: false, alerting: false } } as const;
const CH = { name: "ch", host: "http://127.0.0.1:8123", username: "default", password: "ch-password" };
const LOGS = {
  kind: "log",
  name: "Logs",
  from: { databaseName: "default", tableName: "otel_logs" },
  timestampValueExpression: "Timestamp",
  defaultTableSelectExpression: "Timestamp, Body",
};

/** Two alertable tiles; `errorsAt` is where the Errors tile stands. */
function tiles(errorsAt: number, sourceId: unknown) {
  const count = (displayType: string) => ({ displayType, sourceId, select: [{ aggFn: "count" }] });
  return [
    { name: "Errors", x: errorsAt, y: 0, w: 6, h: 3, config: count("line") },
    { name: "Latency", x: 6, y: 0, w: 6, h: 3, config: count("number") },
  ];
}

/** The changed members of a `--diff` preview (`~ x: 0 => 12`, `- asRatio: false`), not the lists and objects holding them. */
function propertyLines(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.trim().replace(/\s+:/, ":"))
    .filter((line) => /^[~+-] "?[\w[\]".]+"?\s*: /.test(line) && !/[[{]$/.test(line));
}

interface Door {
  up(): Promise<{ ok: boolean; told: string }>;
  moveErrorsTo(x: number): void;
  previewDiff(): Promise<{ ok: boolean; output: string }>;
}

async function dynamicDoor(): Promise<Door> {
  let errorsAt = 0;
  const { stack } = await newStack(
    "tile-diff",
    async (pkg) => {
      const ch = new pkg.Connection("ch", CH);
      const logs = new pkg.Source("logs", { ...LOGS, connection: ch.id } as never);
      new pkg.Dashboard("ops", { name: "Ops", tiles: tiles(errorsAt, logs.id) } as never);
    },
    { emulator: MODE },
  );
  return {
    up: async () => {
      const r = await stack.up();
      return { ok: r.ok, told: told(r) };
    },
    moveErrorsTo: (x) => {
      errorsAt = x;
    },
    previewDiff: async () => {
      const r = await stack.preview({ diff: true });
      return { ok: r.ok, output: told(r) };
    },
  };
}

async function yamlDoor(): Promise<Door> {
  const emu: RunningEmulator = await startEmulator(MODE);
  const program = (errorsAt: number) =>
    yamlProgram({
      resources: {
        ch: { type: "alertpipe:index:Connection", properties: CH },
        logs: { type: "alertpipe:index:Source", properties: { ...LOGS, connection: "${ch.id}" } },
        ops: { type: "alertpipe:index:Dashboard", properties: { name: "Ops", tiles: tiles(errorsAt, "${logs.id}") } },
      },
    });
  const yaml = await yamlStack(emu, program(0));
  return {
    up: async () => {
      const r = await yaml.stack.run(["up", "--yes"]);
      return { ok: r.code === 0, told: r.output };
    },
    moveErrorsTo: (x) => yaml.write(program(x)),
    previewDiff: async () => {
      const r = await yaml.stack.run(["preview", "--diff"]);
      return { ok: r.code === 0, output: r.output };
    },
  };
}

describe.each([
  ["the dynamic classes", dynamicDoor],
  ["Pulumi YAML through the plugin", yamlDoor],
])("a tile moved, through %s", (_name, open) => {
  let door: Door;
  beforeAll(async () => {
    door = await open();
    const up = await door.up();
    expect(up.ok, up.told).toBe(true);
  }, 300_000);

  it("previews with --diff only the tile's x changing: no default, no id as a removal", async () => {
    door.moveErrorsTo(12);
    const preview = await door.previewDiff();
    expect(preview.ok, preview.output).toBe(true);
    expect(propertyLines(preview.output), preview.output).toEqual(["~ x: 0 => 12"]);
  });
});
