// A webhook with secret headers, a saved search and an alert notifying the webhook and watching the
// search, wired by reference, on the real engine through both doors: the dynamic classes
// (Automation API, inline program) and Pulumi YAML through the native plugin. One up makes all
// three; a second up writes nothing; drift of the url is found by refresh and put back, headers
// included; destroy deletes the alert before the webhook and the search; the header value is never
// in the exported state; a slack webhook with headers fails preview naming the property, before any
// request.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { SEEDED_SOURCES } from "../../emulator";
import {
  byHand,
  changes,
  emulator as startEmulator,
  engineOutcome,
  newStack,
  ourState,
  requestLog,
  type RunOutcome,
} from "../support/engine";
import { cliOutcome, yamlHeader, yamlProgram, yamlStack } from "../support/yamlStack";
import { exportEnv, installedCommand, seedTeamObjects, type TeamObjects } from "../support/exportRuns";
import { run as runCommand } from "../support/languagePrograms";

const SECRET = "hdr-CANARY-7d41-never-in-plain-text";
const URL = "https://hooks.example.com/ops";
const HOOK = { name: "ops", service: "generic", url: URL, headers: { "X-Token": SECRET } };
const SLACK = { name: "chat", service: "slack", url: "https://hooks.slack.com/x", headers: { "X-Token": SECRET } };
const SEARCH = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };
const ALERT = { name: "Error rate", source: "search", threshold: 10, thresholdType: "above", interval: "5m" };
const NO_LIMITS = { rateLimits: { cloud: false, alerting: false } } as const;

/** Each place `text` holds `secret`, with what surrounds it: what a failure shows. */
const around = (text: string, secret: string): string[] =>
  [...text.matchAll(new RegExp(secret, "g"))].map((m) => text.slice(Math.max(0, m.index - 300), m.index + 80));

const isWrite = (method: string) => method !== "GET";

/** What a test needs of a door: the engine's commands on one stack, and the program switched to slack. */
interface Door {
  emu: RunningEmulator;
  run(kind: "up" | "refresh" | "destroy" | "preview"): Promise<RunOutcome>;
  exportText(): Promise<string>;
  slack(): void;
}

async function dynamicDoor(): Promise<Door> {
  let slack = false;
  const { emu, stack } = await newStack(
    "webhooks",
    async (pkg) => {
      if (slack) {
        new pkg.Webhook("chat", SLACK as never);
        return;
      }
      const hook = new pkg.Webhook("ops", HOOK as never);
      const search = new pkg.SavedSearch("errors", SEARCH);
      const channel = { type: "webhook", webhookId: hook.id };
      new pkg.Alert("errorRate", { ...ALERT, channel, savedSearchId: search.id } as never);
    },
    { emulator: NO_LIMITS },
  );
  return {
    emu,
    run: (kind) => engineOutcome(stack, kind),
    exportText: () => stack.exportText(),
    slack: () => {
      slack = true;
    },
  };
}

async function yamlDoor(): Promise<Door> {
  const emu = await startEmulator(NO_LIMITS);
  const resources = {
    ops: { type: "alertpipe:index:Webhook", properties: HOOK },
    errors: { type: "alertpipe:index:SavedSearch", properties: SEARCH },
    errorRate: {
      type: "alertpipe:index:Alert",
      properties: { ...ALERT, channel: { type: "webhook", webhookId: "${ops.id}" }, savedSearchId: "${errors.id}" },
    },
  };
  const yaml = await yamlStack(emu, yamlProgram({ resources }));
  return {
    emu,
    run: (kind) => cliOutcome(yaml.stack, kind),
    exportText: () => yaml.stack.exportText(),
    slack: () =>
      yaml.write(yamlProgram({ resources: { chat: { type: "alertpipe:index:Webhook", properties: SLACK } } })),
  };
}

describe.each([
  ["the dynamic classes", dynamicDoor],
  ["Pulumi YAML through the plugin", yamlDoor],
])("a webhook, a saved search and an alert, through %s", (_door, open) => {
  let door: Door;
  const hookId = () => Object.keys(door.emu.snapshot().webhooks ?? {})[0] ?? "";
  const searchId = () => Object.keys(door.emu.snapshot().savedSearches ?? {})[0] ?? "";
  const run = async (kind: Parameters<Door["run"]>[0]) => {
    const t0 = Date.now();
    const r = await door.run(kind);
    console.log(`${_door}: ${kind} ${Date.now() - t0} ms`);
    expect(r.ok, r.told).toBe(kind === "preview" ? r.ok : true);
    return r;
  };

  beforeAll(async () => {
    door = await open();
  }, 300_000);

  it("makes all three in one up, the alert notifying the webhook and watching the search, the headers sent", async () => {
    const up = await run("up");
    expect(changes(up)).toEqual(["create errorRate", "create errors", "create ops"]);
    const snap = door.emu.snapshot();
    expect(Object.values(snap.webhooks ?? {})).toEqual([expect.objectContaining({ url: URL, headers: HOOK.headers })]);
    expect(Object.values(snap.savedSearches ?? {})).toEqual([expect.objectContaining({ where: SEARCH.where })]);
    expect(Object.values(snap.alerts)).toEqual([
      expect.objectContaining({ channel: { type: "webhook", webhookId: hookId() }, savedSearch: searchId() }),
    ]);
  });

  it("writes nothing on a second up", async () => {
    door.emu.resetRequestLog();
    const up = await run("up");
    expect(changes(up)).toEqual([]);
    expect(requestLog(door.emu, isWrite)).toEqual([]);
  });

  it("keeps the header value out of the exported state in plain text", async () => {
    const exported = await door.exportText();
    expect(exported).toContain(hookId());
    expect(exported).not.toContain(SECRET);
  });

  it("finds the url changed by hand on refresh, and puts it back with the headers on up", async () => {
    const id = hookId();
    // A PUT changing the url drops the headers it does not carry: the service now has neither.
    await byHand(door.emu, "PUT", `/api/v2/webhooks/${id}`, {
      ...HOOK,
      headers: undefined,
      url: "https://x.example.com/",
    });
    const refresh = await run("refresh");
    expect(changes(refresh)).toContain("refresh-update ops");
    door.emu.resetRequestLog();
    const up = await run("up");
    expect(changes(up)).toEqual(["update ops"]);
    expect(requestLog(door.emu, isWrite)).toEqual([`PUT /api/v2/webhooks/${id}`]);
    expect(door.emu.snapshot().webhooks?.[id]).toMatchObject({ url: URL, headers: HOOK.headers });
  });

  it("deletes the alert before the webhook it notifies and the search it watches, and leaves nothing", async () => {
    const [hook, search] = [hookId(), searchId()];
    door.emu.resetRequestLog();
    await run("destroy");
    const writes = requestLog(door.emu, isWrite);
    const alertDeleted = writes.findIndex((w) => w.startsWith("DELETE /api/v2/alerts/"));
    expect(alertDeleted).toBeGreaterThanOrEqual(0);
    expect(writes.indexOf(`DELETE /api/v2/webhooks/${hook}`)).toBeGreaterThan(alertDeleted);
    expect(writes.indexOf(`DELETE /api/v2/saved-searches/${search}`)).toBeGreaterThan(alertDeleted);
    const snap = door.emu.snapshot();
    expect([snap.alerts, snap.webhooks, snap.savedSearches]).toEqual([{}, {}, {}]);
  });

  it("refuses a slack webhook with headers in preview, naming the property, sending nothing", async () => {
    door.slack();
    door.emu.resetRequestLog();
    const preview = await run("preview");
    expect(preview.ok).toBe(false);
    expect(preview.told).toContain("headers is not supported for a slack webhook");
    expect(around(preview.told, SECRET)).toEqual([]);
    expect(requestLog(door.emu)).toEqual([]);
  });
});

describe("pulumi import of a webhook and a saved search made by hand, through the plugin", () => {
  let emu: RunningEmulator;
  let yaml: Awaited<ReturnType<typeof yamlStack>>;

  beforeAll(async () => {
    emu = await startEmulator(NO_LIMITS);
    yaml = await yamlStack(emu, yamlProgram({ resources: {} }));
  }, 300_000);

  /** `pulumi import <type> <name> <id>` as the guide shows it, no write sent. */
  async function imported(type: string, name: string, id: string): Promise<void> {
    emu.resetRequestLog();
    const t0 = Date.now();
    const run = await yaml.stack.import(`alertpipe:index:${type}`, name, id);
    console.log(`import ${type}: ${Date.now() - t0} ms`);
    expect(run.code, run.output).toBe(0);
    expect(requestLog(emu, isWrite)).toEqual([]);
  }

  it("imports a webhook by its id, read through the list, with no write-only value", async () => {
    const made = (await byHand(emu, "POST", "/api/v2/webhooks", HOOK)) as { data: { id: string } };
    await imported("Webhook", "handHook", made.data.id);
    const state = ourState(yaml.stack).get("handHook");
    expect(state).toMatchObject({ id: made.data.id, outputs: { name: HOOK.name, service: "generic", url: URL } });
    expect(JSON.stringify(state)).not.toContain(SECRET);
  });

  it("imports a saved search by its id", async () => {
    const made = (await byHand(emu, "POST", "/api/v2/saved-searches", SEARCH)) as { data: { id: string } };
    await imported("SavedSearch", "handSearch", made.data.id);
    expect(ourState(yaml.stack).get("handSearch")).toMatchObject({
      id: made.data.id,
      outputs: { name: SEARCH.name, sourceId: SEARCH.sourceId, where: SEARCH.where },
    });
  });
});

describe("alertpipe export and pulumi import --file: the generated program refers to the webhook and search", () => {
  let emu: RunningEmulator;
  let team: TeamObjects;
  let yaml: Awaited<ReturnType<typeof yamlStack>>;
  let generated = "";

  beforeAll(async () => {
    emu = await startEmulator(NO_LIMITS);
    team = await seedTeamObjects(emu);
    yaml = await yamlStack(emu, yamlHeader("adopted"));
    const importFile = join(yaml.stack.projectDir, "import.json");
    const generatedFile = join(yaml.stack.projectDir, "adopted.yaml");
    const types = ["Alert", "Webhook", "SavedSearch"].flatMap((t) => ["--type", t]);
    await runCommand(process.execPath, [installedCommand(), "export", ...types, "--out", importFile], {
      env: { PATH: process.env.PATH ?? "", ...exportEnv(emu) },
    });
    const t0 = Date.now();
    const imported = await yaml.stack.importFile(importFile, generatedFile);
    expect(imported.code, imported.output).toBe(0);
    console.log(`import --file of 4 objects with code generation: ${Date.now() - t0} ms`);
    generated = readFileSync(generatedFile, "utf8");
  }, 600_000);

  /** The generated YAML of one resource: its lines from its name to the next resource's. */
  const block = (name: string): string =>
    new RegExp(`\\n  ${name}:\\n[\\s\\S]*?(?=\\n  \\S|$)`).exec(generated)?.[0] ?? "";

  it("has the alert notify the webhook by reference, not by its id", () => {
    expect(block("errorRate"), generated).toMatch(/webhookId: \$\{ops\.id\}/);
    expect(block("errorRate")).not.toContain(team.ops);
  });

  it("has the alert watch the saved search by reference, not by its id", () => {
    expect(block("errorRate"), generated).toMatch(/savedSearchId: \$\{errors\.id\}/);
    expect(block("errorRate")).not.toContain(team.errors);
  });

  it("previews the generated program with nothing to do, the references resolved", async () => {
    yaml.write(`${yamlHeader("adopted")}${generated}`);
    emu.resetRequestLog();
    const preview = await yaml.stack.runLogged("preview", ["preview"]);
    expect(preview.code, preview.output).toBe(0);
    expect(changes(preview)).toEqual([]);
    expect(requestLog(emu, isWrite)).toEqual([]);
  });

  // The import records no dependencies: the engine deletes all four at once, in no set order, so the
  // webhook's and the search's deletes wait for the alert's.
  it("destroys what it imported before any up, and leaves nothing", async () => {
    const destroyed = await yaml.stack.runLogged("destroy", ["destroy", "--yes"]);
    expect(destroyed.code, destroyed.output).toBe(0);
    const snap = emu.snapshot();
    expect([snap.alerts, snap.webhooks, snap.savedSearches]).toEqual([{}, {}, {}]);
  });
});
