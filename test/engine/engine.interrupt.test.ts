// Ctrl-C during an `up`, on the real engine, against an emulator slow enough (every answer held
// for seconds) that creates are surely in flight when the interrupt lands. What a user cares about:
// what state holds afterwards, what the next `up` does, and whether anything ends up on the
// service twice or without a word.
//
// The Automation API's `signal` sends the CLI one SIGINT: a single Ctrl-C. A second Ctrl-C (the
// CLI's "terminate immediately") is sent to the CLI's own pid, found by the stack's own working
// folder, so no other process can be hit.

import { readdirSync, readlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EngineStack, PackageProgram, RunningEmulator, RunResult } from "../support/engine";
import { changes, newStack, requestLog, told } from "../support/engine";
import { ORG_ID as ORG } from "../support/fixtures";
const PROJECT = "alertpipe-example";

/**
 * A key and an alert with nothing to wait for, so both are created at once, and two alerts
 * chained after the first through their messages, so they cannot start until it is created.
 */
const program: PackageProgram = async ({ Alert, ApiKey }) => {
  const base = {
    source: "search" as const,
    threshold: 1,
    thresholdType: "above" as const,
    interval: "1m" as const,
    channel: { type: "webhook" as const, webhookId: "w" },
  };
  const key = new ApiKey("deployer", { organizationId: ORG, roles: ["developer"] });
  const first = new Alert("first", { ...base, name: "first" });
  const second = new Alert("second", { ...base, name: "second", message: first.id.apply((id) => `after ${id}`) });
  const third = new Alert("third", { ...base, name: "third", message: second.id.apply((id) => `after ${id}`) });
  return { keyId: key.keyId, thirdId: third.id };
};

interface StateResource {
  urn: string;
  type: string;
  id?: string;
}

interface PendingOperation {
  resource: { urn: string };
  type: string;
}

interface Checkpoint {
  resources: StateResource[];
  pending: PendingOperation[];
}

function checkpoint(s: EngineStack): Checkpoint {
  const latest = (
    JSON.parse(s.readStateFile()) as {
      checkpoint: { latest?: { resources?: StateResource[]; pending_operations?: PendingOperation[] } };
    }
  ).checkpoint.latest;
  return { resources: latest?.resources ?? [], pending: latest?.pending_operations ?? [] };
}

function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

/** Our resources in state: name → id. */
function recorded(s: EngineStack): Map<string, string | undefined> {
  return new Map(
    checkpoint(s)
      .resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/alertpipe:"))
      .map((r) => [nameOf(r.urn), r.id]),
  );
}

/** "type name" of each pending operation, e.g. "creating first". */
function pending(s: EngineStack): string[] {
  return checkpoint(s)
    .pending.map((op) => `${op.type} ${nameOf(op.resource.urn)}`)
    .sort();
}

function urnOf(s: EngineStack, type: "Alert" | "ApiKey", name: string): string {
  return `urn:pulumi:${s.name}::${PROJECT}::pulumi-nodejs:dynamic/alertpipe:${type}::${name}`;
}

/** Every alert and key on the service, as "name id" (alerts by their name, the key as "deployer"). */
function onService(emu: RunningEmulator): { alerts: Array<[string, string]>; keys: string[] } {
  const snap = emu.snapshot();
  return {
    alerts: Object.values(snap.alerts).map((a) => [a.name ?? "", a.id] as [string, string]),
    keys: Object.keys(snap.keys),
  };
}

function objectCount(emu: RunningEmulator): number {
  const snap = emu.snapshot();
  return Object.keys(snap.alerts).length + Object.keys(snap.keys).length;
}

async function until(what: string, check: () => boolean, timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The pid of the CLI running this stack's operation: the `pulumi` process whose cwd is the stack's workspace. */
function cliPid(s: EngineStack): number {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (
        readlinkSync(`/proc/${entry}/cwd`) === join(s.root, "work") &&
        basename(readlinkSync(`/proc/${entry}/exe`)) === "pulumi"
      )
        found.push(Number(entry));
    } catch {
      // A process that ended meanwhile, or one we may not inspect: not ours either way.
    }
  }
  if (found.length !== 1) throw new Error(`expected one pulumi CLI in ${s.root}/work, found ${found.length}`);
  return found[0] as number;
}

/**
 * The emulator speaks the contract, said so: an alert's create is its one request, in flight as long
 * as the key's (unasked, the provider would first ask the service's spelling of `source`, alert/dialect.ts).
 */
const CONTRACT = { "alertpipe:alertingDialect": { value: "contract" } };

/**
 * Writes answered `ms` late, reads at once: the creates are the requests in flight under test, and
 * each credential's check (one GET per provider process, provider/http/credentials.ts) must not
 * hold them back by a latency of its own, which would change which create is in flight at the Ctrl-C.
 */
const WRITES_SLOW = (ms: number) => ({ latencyMs: ms, latencyWritesOnly: true });

/**
 * An up of the program, Ctrl-C'd twice once the key and the first alert reached the service
 * (answers take 3 s, so both creates are in flight): the first through the Automation API's
 * signal, the second straight to the CLI, since the signal sends only one.
 */
async function upInterruptedTwice(
  name: string,
): Promise<{ emu: RunningEmulator; s: EngineStack; interrupted: RunResult }> {
  const { emu, stack: s } = await newStack(name, program, { config: CONTRACT });
  emu.setFaults(WRITES_SLOW(3_000));
  const controller = new AbortController();
  const running = s.up({ signal: controller.signal });
  await until("the key and the first alert to reach the service", () => objectCount(emu) === 2);
  const pid = cliPid(s);
  controller.abort();
  // Well before the answers (3 s): the CLI has taken the first Ctrl-C and is waiting on them.
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(pid, "SIGINT");
  return { emu, s, interrupted: await running };
}

describe("Ctrl-C during an up, on the real engine", () => {
  it("once: in-flight creates finish and are recorded, nothing new starts, no pending operation; the next up creates only the rest", async () => {
    // The emulator stores an object when the request arrives and answers 2 s later: objects on
    // the service are creates in flight.
    const { emu, stack: s } = await newStack("ctrl-c-once", program, { config: CONTRACT });
    emu.setFaults(WRITES_SLOW(2_000));
    const controller = new AbortController();
    const running = s.up({ signal: controller.signal });
    await until("the key and the first alert to reach the service", () => objectCount(emu) === 2);
    controller.abort();
    const interrupted = await running;

    expect(interrupted.ok).toBe(false);
    expect(told(interrupted)).toContain("update canceled");
    // The engine waited for both answers and recorded both objects, by the ids the service gave.
    const service = onService(emu);
    expect(recorded(s)).toEqual(
      new Map([
        ["deployer", service.keys[0]],
        ["first", service.alerts[0]?.[1]],
      ]),
    );
    expect(pending(s)).toEqual([]);
    expect(service.alerts.map(([name]) => name)).toEqual(["first"]);

    emu.resetRequestLog();
    const next = await s.up();
    expect(next.ok, told(next)).toBe(true);
    expect(told(next)).not.toContain("pending operations");
    expect(changes(next)).toEqual(["create second", "create third"]);
    // One POST per object over both runs, and everything on the service is in state.
    expect(requestLog(emu)).toEqual(["POST /api/v2/alerts", "POST /api/v2/alerts"]);
    const after = onService(emu);
    expect(after.keys).toHaveLength(1);
    expect(after.alerts.map(([name]) => name).sort()).toEqual(["first", "second", "third"]);
    const ids = [...recorded(s).values()].sort();
    expect(ids).toEqual([...after.keys, ...after.alerts.map(([, id]) => id)].sort());
  });

  it("twice: state keeps pending creates and not the objects; the next up warns by name but creates both again, orphaning the first ones", async () => {
    const { emu, s, interrupted } = await upInterruptedTwice("ctrl-c-twice");

    expect(interrupted.ok).toBe(false);
    expect(interrupted.log).toContain("^C received; terminating");
    const strays = onService(emu);
    expect(strays.keys).toHaveLength(1);
    expect(strays.alerts.map(([name]) => name)).toEqual(["first"]);
    // The objects exist on the service, but state knows them only as creates that never finished.
    expect(recorded(s).size).toBe(0);
    expect(pending(s)).toEqual(["creating deployer", "creating first"]);

    const next = await s.up();
    expect(next.ok, told(next)).toBe(true);
    const warning = next.diagnostics.find((d) => d.startsWith("warning: ") && d.includes("pending operations"));
    expect(warning).toContain(`${urnOf(s, "ApiKey", "deployer")}, interrupted while creating`);
    expect(warning).toContain(`${urnOf(s, "Alert", "first")}, interrupted while creating`);
    expect(changes(next)).toEqual(["create deployer", "create first", "create second", "create third"]);
    // Observed, and bad for users: the key and alert of the interrupted run are still on the
    // service, outside state, beside the ones this up made; the stray key is a live credential
    // whose secret no one has. The warning above is the only word about them.
    const after = onService(emu);
    expect(after.keys).toHaveLength(2);
    expect(after.alerts.filter(([name]) => name === "first")).toHaveLength(2);
    const inState = new Set(recorded(s).values());
    expect(strays.keys.filter((id) => inState.has(id))).toEqual([]);
    expect(strays.alerts.filter(([, id]) => inState.has(id))).toEqual([]);
    // The pending creates outlive a successful up: every later up repeats the warning until they are cleared.
    expect(pending(s)).toEqual(["creating deployer", "creating first"]);
    const cleared = await s.cli(["refresh", "--yes", "--stack", s.name, "--clear-pending-creates"]);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(pending(s)).toEqual([]);
    expect(told(await s.up())).not.toContain("pending operations");
  });

  it("twice, then refresh --import-pending-creates with the stray objects' ids: the pending creates are dropped, not adopted, and the next up still makes duplicates", async () => {
    // What the warning's advice leads a user to try, non-interactively. Recorded as observed.
    const { emu, s, interrupted } = await upInterruptedTwice("import-pending");
    expect(interrupted.ok).toBe(false);
    expect(pending(s)).toEqual(["creating deployer", "creating first"]);

    const strays = onService(emu);
    emu.resetRequestLog();
    // The flag takes URN and ID as alternating values.
    const imported = await s.cli([
      "refresh",
      "--yes",
      "--stack",
      s.name,
      ...[
        "--import-pending-creates",
        urnOf(s, "Alert", "first"),
        "--import-pending-creates",
        strays.alerts[0]?.[1] ?? "",
      ],
      ...["--import-pending-creates", urnOf(s, "ApiKey", "deployer"), "--import-pending-creates", strays.keys[0] ?? ""],
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    // No read was sent for either object, and neither is in state: the pending creates just vanished.
    expect(emu.requests).toEqual([]);
    expect(pending(s)).toEqual([]);
    expect(recorded(s).size).toBe(0);

    const next = await s.up();
    expect(next.ok, told(next)).toBe(true);
    expect(changes(next)).toEqual(["create deployer", "create first", "create second", "create third"]);
    expect(onService(emu).keys).toHaveLength(2);
    expect(onService(emu).alerts.filter(([name]) => name === "first")).toHaveLength(2);
  });
});
