// Adopting an estate made by hand, on the real engine with a Pulumi YAML project, as
// docs/guides/adopting.md walks a team through it: `alertpipe export` (the installed package's
// bin) writes the import file; `pulumi import --file … --protect=false --generate-code` adopts
// every object and the YAML language host writes the program; that program, made the project's,
// previews with nothing to do and its `up` sends no write; `destroy` then removes what was adopted.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { changes, emulator as startEmulator, ourExported, ourState, requestLog } from "../support/engine";
import type { CliRun, CliStack } from "../support/cliStack";
import { ORG_ID } from "../support/fixtures";
import { exportEnv, installedCommand, seedEstate, type Estate } from "../support/exportRuns";
import { run } from "../support/languagePrograms";
import { yamlHeader, yamlStack, type YamlStack } from "../support/yamlStack";

const isWrite = (method: string) => method !== "GET";

/** The project's Pulumi.yaml before anything is adopted, as the guide shows it: the plugin named, no resources yet. */
const HEADER = yamlHeader("adopted");

/** A value of `pulumi stack export --show-secrets`: a secret's plaintext (JSON) read, anything else as it is; absent is null. */
function revealed(value: unknown): unknown {
  if (typeof value === "object" && value !== null && "plaintext" in value)
    return JSON.parse(String(value.plaintext)) as unknown;
  return value ?? null;
}

function ok<T extends CliRun>(run: T): T {
  expect(run.code, run.output).toBe(0);
  return run;
}

describe("adopting an estate: alertpipe export, pulumi import --file with code generation, a YAML program", () => {
  let emu: RunningEmulator;
  let estate: Estate;
  let yaml: YamlStack;
  let stack: CliStack;
  let exported: { stdout: string; stderr: string };
  let importFile = "";
  let generatedFile = "";
  const started = Date.now();

  beforeAll(async () => {
    emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    estate = await seedEstate(emu);
    // A project with no resources yet: what a team starts from.
    yaml = await yamlStack(emu, HEADER, {
      config: { "alertpipe:cloudRateLimit": { value: "off" }, "alertpipe:alertingRateLimit": { value: "off" } },
    });
    stack = yaml.stack;
    importFile = join(stack.projectDir, "import.json");
    generatedFile = join(stack.projectDir, "adopted.yaml");
    emu.resetRequestLog();
  }, 900_000);

  it("exports the estate with the package's alertpipe command, sending only GETs", async () => {
    // As npm's link runs it; `run` fails the test, with the report, on any exit but 0.
    exported = await run(
      process.execPath,
      [installedCommand(), "export", "--organization", ORG_ID, "--pipe", estate.pipe, "--out", importFile],
      { env: { PATH: process.env.PATH ?? "", ...exportEnv(emu) } },
    );
    const resources = (JSON.parse(readFileSync(importFile, "utf8")) as { resources: unknown[] }).resources;
    expect(resources).toHaveLength(estate.alerts.length + estate.keys.length + 1 + estate.seeded.length);
    expect(requestLog(emu, isWrite)).toEqual([]);
  });

  it("imports every object with pulumi import --file, unprotected, sending no write", async () => {
    emu.resetRequestLog();
    ok(await stack.importFile(importFile, generatedFile));
    expect(requestLog(emu, isWrite)).toEqual([]);
    const ids = [...ourState(stack).values()].map((r) => r.id).sort();
    const keyIds = estate.keys.map((k) => k.split("/")[1] ?? "");
    expect(ids).toEqual([...estate.alerts, ...keyIds, estate.pipe, ...estate.seeded].sort());
  });

  it("records the adopted keys without keyId or keySecret, which the export's report said", async () => {
    const shown = ok(await stack.run(["stack", "export", "--show-secrets"]));
    const keys = [...ourExported(shown.stdout).values()].filter((r) => r.type === "alertpipe:index:ApiKey");
    expect(keys).toHaveLength(estate.keys.length);
    for (const key of keys)
      expect([revealed(key.outputs?.keyId), revealed(key.outputs?.keySecret)]).toEqual([null, null]);
    expect(exported.stderr).toContain("without their keyId and keySecret");
  });

  it("previews the generated YAML program with nothing to do, sending no write", async () => {
    const generated = readFileSync(generatedFile, "utf8");
    // The project's header, then the resources the host generated, as the guide says to put them.
    yaml.write(`${HEADER}${generated}`);
    emu.resetRequestLog();
    const preview = ok(await stack.runLogged("preview", ["preview"]));
    expect(changes(preview)).toEqual([]);
    expect(preview.steps.filter((s) => s.op === "same")).toHaveLength(ourState(stack).size);
    expect(requestLog(emu, isWrite)).toEqual([]);
  });

  it("runs up on the generated program writing nothing", async () => {
    emu.resetRequestLog();
    const up = ok(await stack.runLogged("up", ["up", "--yes"]));
    expect(changes(up)).toEqual([]);
    expect(requestLog(emu, isWrite)).toEqual([]);
    console.log(`export, import, preview and up of ${ourState(stack).size} objects: ${Date.now() - started} ms`);
  });

  it("destroys what it adopted, since the import left it unprotected", async () => {
    ok(await stack.runLogged("destroy", ["destroy", "--yes"]));
    expect(emu.snapshot().alerts).toEqual({});
    expect(emu.snapshot().keys).toEqual({});
  });
});
