// A Pulumi YAML directory program on the real engine through the native plugin, as a YAML user runs
// it: the guide's example (docs/guides/other-languages.md) as it stands there, in a project folder
// whose Pulumi.yaml finds `pulumi-resource-alertpipe` through `plugins.providers`, run by the `pulumi`
// CLI with the Pulumi YAML language host, against the bundled emulator. What a YAML user gets that
// only a native provider can give (detailed diffs, replaceOnChanges, check failures at preview,
// `pulumi import`) is shown here on the engine itself, one behaviour per test.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { byHand, changes, emulator as startEmulator, ourState, requestLog } from "../support/engine";
import type { CliRun, CliStack, LoggedCliRun } from "../support/cliStack";
import { KEYS_PATH, ORG_ID, PIPE_IDS, SETTINGS_PATH } from "../support/fixtures";
import { HAND_MADE_ALERT } from "../support/programs";
import { documentedYamlProgram, GUIDE, yamlStack, type YamlStack } from "../support/yamlStack";
import { repoRoot } from "../../scripts/packedPackage";

const isWrite = (method: string) => method !== "GET";

/** The guide's text, which quotes what the engine says. */
const guide = () => readFileSync(join(repoRoot(), GUIDE), "utf8");

/** The command's run, once it is known to have exited 0; otherwise the test fails showing its output. */
function ok<T extends CliRun>(run: T): T {
  expect(run.code, run.output).toBe(0);
  return run;
}

/** The guide's program with one line changed; fails when the line is not there, so a change of the guide shows here. */
function changed(program: string, line: string, replacement: string): string {
  expect(program).toContain(line);
  return program.replace(line, replacement);
}

describe("the guide's Pulumi YAML program through the native plugin", () => {
  const program = documentedYamlProgram();
  let emu: RunningEmulator;
  let yaml: YamlStack;
  let stack: CliStack;

  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    yaml = await yamlStack(emu, program, {
      config: { "alertpipe:cloudRateLimit": { value: "off" }, "alertpipe:alertingRateLimit": { value: "off" } },
    });
    stack = yaml.stack;
  }, 900_000);

  it("creates the pipe's settings, the key and the two alerts, one write each", async () => {
    const t0 = Date.now();
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    console.log(`yaml up (create): ${Date.now() - t0} ms`);
    expect(changes(up)).toEqual(["create deployer", "create ingest", "create ingestLag", "create lagWarning"]);
    expect(requestLog(emu, isWrite).sort()).toEqual(
      ["POST /api/v2/alerts", "POST /api/v2/alerts", `POST ${KEYS_PATH}`, `PUT ${SETTINGS_PATH}`].sort(),
    );
    const alertId = ourState(stack).get("ingestLag")?.id ?? "";
    expect(emu.snapshot().alerts[alertId]?.message).toBe(
      `Ingest lag (deploy key ending ${String(Object.values(emu.snapshot().keys)[0]?.keySuffix)})`,
    );
    const warningId = ourState(stack).get("lagWarning")?.id ?? "";
    expect(emu.snapshot().alerts[warningId]).toMatchObject({ thresholdType: "between", thresholdMax: 300 });
    expect(emu.snapshot().alerts[warningId]?.channels?.map((c) => c.webhookId)).toEqual(["ops-oncall", "ops-chat"]);
  });

  it("previews the same program as nothing to do, sending only the credentials' checks", async () => {
    emu.resetRequestLog();
    const preview = ok(await stack.runLogged("preview", ["preview"]));
    expect(changes(preview)).toEqual([]);
    expect(preview.steps.map((step) => `${step.op} ${step.name}`).sort()).toEqual([
      "same deployer",
      "same ingest",
      "same ingestLag",
      "same lagWarning",
    ]);
    expect(requestLog(emu)).toEqual([]);
  });

  it("names only the changed property in `pulumi preview --diff`", async () => {
    yaml.write(changed(program, "      name: deployer\n", "      name: renamed\n"));
    const preview = ok(await stack.run(["preview", "--diff"]));
    expect(preview.output).toMatch(/~ alertpipe:index:ApiKey: \(update\)\n.*\n\s+\[urn=\S+::deployer\]\n/);
    // One property line in the whole plan, the changed one.
    const propertyLines = preview.output.split("\n").filter((line) => /^\s+[~+-] \w+\s*: /.test(line));
    expect(
      propertyLines.map((line) => line.trim()),
      preview.output,
    ).toEqual(['~ name: "deployer" => "renamed"']);
  });

  it("turns that update into a replacement when the program says replaceOnChanges", async () => {
    const renamed = changed(program, "      name: deployer\n", "      name: renamed\n");
    yaml.write(
      changed(
        renamed,
        "    type: alertpipe:index:ApiKey\n",
        "    type: alertpipe:index:ApiKey\n    options:\n      replaceOnChanges:\n        - name\n",
      ),
    );
    const preview = ok(await stack.runLogged("preview", ["preview"]));
    expect(preview.steps.find((step) => step.name === "deployer")).toMatchObject({
      op: "replace",
      replaceKeys: ["name"],
    });
    // The alert's message is built from the key's suffix, which a new key changes.
    expect(changes(preview)).toEqual(["replace deployer", "update ingestLag"]);
  });

  it("fails preview naming the property out of range, before any request but the credentials' checks", async () => {
    yaml.write(changed(program, "      dbMaxThreads: 8\n", "      dbMaxThreads: 100000\n"));
    emu.resetRequestLog();
    const preview = await stack.run(["preview"]);
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(
      /alertpipe:index:PipeSettings \(ingest\):\n\s+error: .*property dbMaxThreads value \{100000\} has a problem: \[INVALID_INPUT\] dbMaxThreads must be an integer from 0 to 64/,
    );
    expect(requestLog(emu)).toEqual([]);
    yaml.write(program);
  });

  it("finds a change made by hand on refresh, and puts it back on up with one write", async () => {
    const id = ourState(stack).get("deployer")?.id ?? "";
    await byHand(emu, "PATCH", `${KEYS_PATH}/${id}`, { name: "by hand" });
    const refresh = ok(await stack.runLogged("refresh", ["refresh", "--yes"]));
    expect(changes(refresh)).toEqual(["refresh-update deployer"]);
    expect(ourState(stack).get("deployer")?.outputs?.name).toBe("by hand");
    emu.resetRequestLog();
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up)).toEqual(["update deployer"]);
    expect(requestLog(emu, isWrite)).toEqual([`PATCH ${KEYS_PATH}/${id}`]);
    expect(emu.snapshot().keys[id]?.name).toBe("deployer");
  });

  describe("pulumi import of objects made by hand, with no write", () => {
    /** `pulumi import <type> <name> <id>` as the guide shows it: unprotected, no code generated. */
    async function imported(type: string, name: string, id: string): Promise<void> {
      emu.resetRequestLog();
      ok(await stack.import(`alertpipe:index:${type}`, name, id));
      expect(requestLog(emu, isWrite)).toEqual([]);
    }

    it("imports an alert by its id", async () => {
      const before = new Set(Object.keys(emu.snapshot().alerts));
      await byHand(emu, "POST", "/api/v2/alerts", HAND_MADE_ALERT);
      const id = Object.keys(emu.snapshot().alerts).find((alertId) => !before.has(alertId)) ?? "";
      await imported("Alert", "handAlert", id);
      expect(ourState(stack).get("handAlert")).toMatchObject({
        id,
        outputs: { threshold: 123, thresholdType: "below" },
      });
    });

    it("imports a key by <organizationId>/<id>, its resource id the key's uuid", async () => {
      const made = (await byHand(emu, "POST", KEYS_PATH, { name: "ci", roles: ["admin"] })) as {
        result: { key: { id: string } };
      };
      await imported("ApiKey", "handKey", `${ORG_ID}/${made.result.key.id}`);
      const key = ourState(stack).get("handKey");
      expect(key).toMatchObject({ id: made.result.key.id, outputs: { name: "ci", roles: ["admin"] } });
    });

    it("imports a pipe's settings by <organizationId>/<serviceId>/<pipeId>", async () => {
      const pipe = { ...PIPE_IDS, pipeId: "2c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bee" };
      const id = `${pipe.organizationId}/${pipe.serviceId}/${pipe.pipeId}`;
      await byHand(
        emu,
        "PUT",
        `/v1/organizations/${pipe.organizationId}/services/${pipe.serviceId}/pipes/${pipe.pipeId}/settings`,
        { db_max_threads: 12 },
      );
      await imported("PipeSettings", "handPipe", id);
      expect(ourState(stack).get("handPipe")).toMatchObject({ id, outputs: { dbMaxThreads: 12 } });
    });
  });

  it("destroys everything the stack holds, imported objects included", async () => {
    const destroy = ok(await stack.runLogged("destroy", ["destroy", "--yes"]));
    expect(changes(destroy)).toEqual([
      "delete deployer",
      "delete handAlert",
      "delete handKey",
      "delete handPipe",
      "delete ingest",
      "delete ingestLag",
      "delete lagWarning",
    ]);
    expect(emu.snapshot().alerts).toEqual({});
    expect(emu.snapshot().keys).toEqual({});
    // resetOnDelete: the settings the program managed are unset again.
    expect(
      emu.snapshot().pipes[`${PIPE_IDS.organizationId}/${PIPE_IDS.serviceId}/${PIPE_IDS.pipeId}`]?.db_max_threads,
    ).toBeNull();
  });
});

describe("a Pulumi YAML program naming alertpipe resources when the engine finds no plugin", () => {
  it("fails at preview saying the plugins.providers folder is missing, for the guide's program before `npm install`", async () => {
    const emu = await startEmulator();
    const { stack } = await yamlStack(emu, documentedYamlProgram(), { installPlugin: false });
    const preview = await stack.run(["preview"]);
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(
      /error: parsing plugin options for 'alertpipe': no folder at path '\S+\/node_modules\/\.bin'/,
    );
    expect(guide()).toContain("error: parsing plugin options for 'alertpipe': no folder at path");
    expect(emu.requests).toEqual([]);
  });

  it("fails at preview naming pulumi-resource-alertpipe, for a program with no plugins entry and no plugin on PATH", async () => {
    const emu = await startEmulator();
    const program = documentedYamlProgram().replace(/^plugins:\n(?: {2,}.*\n)+/m, "");
    expect(program).not.toContain("plugins:");
    const { stack } = await yamlStack(emu, program, { installPlugin: false });
    const preview = await stack.run(["preview"]);
    expect(preview.code).not.toBe(0);
    const message = "no resource plugin 'pulumi-resource-alertpipe' found in the workspace or on your $PATH";
    expect(preview.output).toContain(
      `error resolving type of resource deployer: internal error loading package "alertpipe": rpc error: code = Unknown desc = ${message}`,
    );
    expect(guide()).toContain(message);
    expect(emu.requests).toEqual([]);
  });
});

describe("the README's Pulumi YAML quick start", () => {
  let emu: RunningEmulator;
  let stack: CliStack;
  let up: LoggedCliRun;

  beforeAll(async () => {
    const readme = readFileSync(join(repoRoot(), "README.md"), "utf8");
    const program = /```yaml\n(name: alertpipe-yaml\n[\s\S]*?)```/.exec(readme)?.[1];
    expect(program, "README.md has a ```yaml block starting name: alertpipe-yaml").toBeDefined();
    emu = await startEmulator();
    stack = (await yamlStack(emu, program ?? "")).stack;
    up = await stack.runLogged("up", ["up", "--yes"]);
  }, 900_000);

  /** The id the stack holds for the README's resource `name`. */
  const idOf = (name: string) => ourState(stack).get(name)?.id ?? "";

  it("makes the two webhooks, the saved search and the two alerts in one up, one write each", () => {
    expect(changes(ok(up))).toEqual([
      "create chat",
      "create errorBand",
      "create errorRate",
      "create errors",
      "create ops",
    ]);
    expect(requestLog(emu, isWrite).sort()).toEqual([
      "POST /api/v2/alerts",
      "POST /api/v2/alerts",
      "POST /api/v2/saved-searches",
      "POST /api/v2/webhooks",
      "POST /api/v2/webhooks",
    ]);
  });

  it("points errorRate at the saved search errors and notifies the webhook ops", () => {
    const alert = emu.snapshot().alerts[idOf("errorRate")];
    expect(alert?.savedSearchId).toBe(idOf("errors"));
    expect(alert?.channel).toEqual({ type: "webhook", webhookId: idOf("ops") });
  });

  it("makes errorBand a between alert on the saved search, notifying both webhooks", () => {
    const alert = emu.snapshot().alerts[idOf("errorBand")];
    expect([alert?.thresholdType, alert?.threshold, alert?.thresholdMax]).toEqual(["between", 2, 10]);
    expect(alert?.savedSearchId).toBe(idOf("errors"));
    expect(alert?.channels).toEqual([
      { type: "webhook", webhookId: idOf("ops") },
      { type: "webhook", webhookId: idOf("chat") },
    ]);
  });

  it("destroys them all", async () => {
    ok(await stack.run(["destroy", "--yes"]));
    const after = emu.snapshot();
    expect([after.alerts, after.webhooks, after.savedSearches]).toEqual([{}, {}, {}]);
  });
});
