// Programs written for the real alerting service, run through the real engine against HyperDX's own
// API server, through both doors: the dynamic classes (Automation API, inline program) and Pulumi
// YAML through the plugin. Each makes a webhook, a saved search, a search alert on that saved search
// notifying two webhooks (`channels`) and a tile alert on a dashboard tile made by hand. The program
// says `source: "search"`; the provider asks the service's dialect and sends `saved_search`. A second
// up writes nothing (the server's own request log says so); a threshold changed by hand is found by
// refresh and put back by up; destroy leaves nothing of the program's on the server.

import { beforeAll, describe, expect, it } from "vitest";
import type { Step } from "../../scripts/engine/stack";
import { changes, installedPackage, ourState, stackWith, told } from "../support/engine";
import {
  call,
  makeReferents,
  realConfig,
  realServicePerFile,
  requestsDuring,
  type Referents,
} from "../support/realService";
import { yamlProgram, yamlStack } from "../support/yamlStack";

const service = realServicePerFile({ logRequests: true });
let referents: Referents;

beforeAll(async () => {
  referents = await makeReferents(service());
});

const isWrite = (request: string) => !request.startsWith("GET ");
const webhook = (webhookId: unknown) => ({ type: "webhook", webhookId });

/** The program's four resources, its references as `ref` spells them (an Output, or YAML's `${name.id}`). */
function resources(door: string, r: Referents, ref: (name: string) => unknown) {
  return {
    hook: { name: `${door}-ops`, service: "generic", url: `https://hooks.example.com/${door}` },
    errors: { name: `${door}-errors`, sourceId: r.sourceId, where: "level:error" },
    onSearch: {
      name: `${door} errors`,
      source: "search",
      savedSearchId: ref("errors"),
      threshold: 10,
      thresholdType: "above",
      interval: "5m",
      channels: [webhook(ref("hook")), webhook(r.webhookId)],
    },
    onTile: {
      name: `${door} tile`,
      source: "tile",
      dashboardId: r.dashboardId,
      tileId: r.tileId,
      threshold: 5,
      thresholdType: "above",
      interval: "5m",
      channel: webhook(ref("hook")),
    },
  };
}

interface Door {
  run(kind: "up" | "refresh" | "destroy"): Promise<{ ok: boolean; steps: Step[]; told: string }>;
  /** The ids the stack's state holds, by resource name. */
  ids(): Record<string, string>;
}

async function dynamicDoor(): Promise<Door> {
  const stack = await stackWith(realConfig(service()), "real", {
    program: async () => {
      const pkg = installedPackage();
      const made: Record<string, { id: unknown }> = {};
      const args = resources("dynamic", referents, (name) => made[name]?.id);
      made.hook = new pkg.Webhook("hook", args.hook as never);
      made.errors = new pkg.SavedSearch("errors", args.errors);
      // Built again now that hook and errors exist: their ids are Outputs.
      const withIds = resources("dynamic", referents, (name) => made[name]?.id);
      new pkg.Alert("onSearch", withIds.onSearch as never);
      new pkg.Alert("onTile", withIds.onTile as never);
    },
  });
  return {
    run: async (kind) => {
      const r = await stack[kind]();
      return { ok: r.ok, steps: r.steps, told: told(r) };
    },
    ids: () => Object.fromEntries([...ourState(stack)].map(([name, r]) => [name, r.id ?? ""])),
  };
}

async function yamlDoor(): Promise<Door> {
  const parts = resources("yaml", referents, (name) => `\${${name}.id}`);
  const types = { hook: "Webhook", errors: "SavedSearch", onSearch: "Alert", onTile: "Alert" } as const;
  const program = Object.fromEntries(
    Object.entries(parts).map(([name, properties]) => [
      name,
      { type: `alertpipe:index:${types[name as keyof typeof types]}`, properties },
    ]),
  );
  const yaml = await yamlStack(undefined, yamlProgram({ resources: program }), { config: realConfig(service()) });
  const args = { up: ["up", "--yes"], refresh: ["refresh", "--yes"], destroy: ["destroy", "--yes"] };
  return {
    run: async (kind) => {
      const r = await yaml.stack.runLogged(kind, args[kind]);
      return { ok: r.code === 0, steps: r.steps, told: `${r.output}\n${r.diagnostics.join("\n")}` };
    },
    ids: () => Object.fromEntries([...ourState(yaml.stack)].map(([name, r]) => [name, r.id ?? ""])),
  };
}

/** The objects of a kind the server lists, by id. */
async function listed(path: string): Promise<Array<Record<string, unknown>>> {
  const answer = await call(service(), "GET", path);
  expect(answer.status).toBe(200);
  return (answer.body as { data: Array<Record<string, unknown>> }).data;
}

describe.each([
  ["the dynamic classes", dynamicDoor],
  ["Pulumi YAML through the plugin", yamlDoor],
])("a program for the real service, through %s", (doorName, open) => {
  let door: Door;
  /** Runs a command, which must succeed; answers it and the server's requests during it. */
  const run = async (kind: Parameters<Door["run"]>[0]) => {
    const t0 = Date.now();
    const [r, requests] = await requestsDuring(service(), () => door.run(kind));
    console.log(`${doorName}: ${kind} ${Date.now() - t0} ms`);
    expect(r.ok, r.told).toBe(true);
    return { ...r, requests };
  };

  beforeAll(async () => {
    door = await open();
  }, 300_000);

  it("makes the four in one up: a saved_search alert on the saved search, two channels, a tile alert", async () => {
    const up = await run("up");
    expect(changes(up)).toEqual(["create errors", "create hook", "create onSearch", "create onTile"]);
    const ids = door.ids();
    const alerts = await listed("/api/v2/alerts");
    expect(alerts.find((a) => a.id === ids.onSearch)).toMatchObject({
      source: "saved_search",
      savedSearchId: ids.errors,
      channels: [webhook(ids.hook), webhook(referents.webhookId)],
    });
    expect(alerts.find((a) => a.id === ids.onTile)).toMatchObject({
      source: "tile",
      dashboardId: referents.dashboardId,
      tileId: referents.tileId,
      channel: webhook(ids.hook),
    });
    // The dialect was asked of the server, once, before the search alert's create.
    expect(up.requests.filter((q) => q === "GET /api/v2")).toHaveLength(1);
  });

  it("writes nothing on a second up", async () => {
    const up = await run("up");
    expect(changes(up)).toEqual([]);
    expect(up.requests.filter(isWrite)).toEqual([]);
  });

  it("finds a threshold changed by hand on refresh, and puts it back with one PUT on up", async () => {
    const id = door.ids().onSearch ?? "";
    const live = (await call(service(), "GET", `/api/v2/alerts/${id}`)).body as { data: Record<string, unknown> };
    const body = Object.fromEntries(Object.entries(live.data).filter(([k, v]) => v !== null && k !== "id"));
    const changed = await call(service(), "PUT", `/api/v2/alerts/${id}`, { ...body, threshold: 99 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const refresh = await run("refresh");
    expect(changes(refresh)).toContain("refresh-update onSearch");
    const up = await run("up");
    expect(changes(up)).toEqual(["update onSearch"]);
    expect(up.requests.filter(isWrite)).toEqual([`PUT /api/v2/alerts/${id}`]);
    const after = (await call(service(), "GET", `/api/v2/alerts/${id}`)).body as { data: Record<string, unknown> };
    expect(after.data).toMatchObject({ threshold: 10, source: "saved_search" });
  });

  it("leaves nothing of the program's on the server after destroy", async () => {
    await run("destroy");
    expect(await listed("/api/v2/alerts")).toEqual([]);
    expect((await listed("/api/v2/webhooks")).map((w) => w.id)).toEqual([referents.webhookId]);
    expect((await listed("/api/v2/saved-searches")).map((s) => s.id)).toEqual([referents.savedSearchId]);
  });
});
