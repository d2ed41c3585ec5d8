// The example as a directory program, the way a user runs it: `pulumi preview`, `pulumi up --yes`
// and `pulumi destroy --yes` in examples/ and at the repository root (whose Pulumi.yaml says
// `main: examples/`), through the real CLI and a Node.js language host on PATH, after only the
// README's set-up (the global setup has built the package and unpacked it into examples/node_modules).
//
// It exists so that "the package cannot find itself" never comes back unseen: the dynamic-provider
// host evaluates each stored `__provider` with require-from-string, a module without a file name, so
// `require("pulumi-alertpipe/dist/provider/<kind>/shim.js")` there is resolved only through the
// node_modules folders above the host's working directory (the project's `main` folder), never by
// the package's own name. A run whose host starts where the package is not installed fails with
// "Cannot find module 'pulumi-alertpipe/…/shim.js'".
//
// Nothing here touches the user's ~/.pulumi or leaves a file in the repository: PULUMI_HOME and a
// file:// backend are temporary folders, stack config goes to a temporary file (--config-file), and
// the Pulumi.<stack>.yaml that `pulumi stack init` writes beside Pulumi.yaml is removed at once.

import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pulumiLanguageHost, type EngineTool } from "../../scripts/engine/pulumiCli";
import { emulatorConfig, examplesDir } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/packedPackage";
import { CliStack, COMMAND_TIMEOUT_MS, type CliRun } from "../support/cliStack";
import { CREDENTIAL_READS, credentialChecks, expectExampleMade, requestLog } from "../support/engine";
import { PIPE_RESOURCE_ID } from "../support/fixtures";

/** One of our resources in a progress line: its kind, its name and the operation. */
const OUR_STEP = /pulumi-nodejs:dynamic\/alertpipe:(Alert|ApiKey|PipeSettings) (\S+) (\w+)/g;

let languageHost: EngineTool;

beforeAll(async () => {
  // A missing one throws here (the CLI's, in CliStack.open), which fails every test below: never a silent skip.
  languageHost = await pulumiLanguageHost();
}, 900_000);

/**
 * Our resources the CLI's progress shows with the given operation. Found anywhere in a line: the
 * CLI may write its own progress marker (`@ updating....`) on the same line as a step.
 */
function ourSteps(output: string, op: string): string[] {
  return [...output.matchAll(OUR_STEP)].filter((m) => m[3] === op).map((m) => `${m[1] ?? ""} ${m[2] ?? ""}`);
}

/** The run, once it is known to have found the package and exited 0; otherwise the test fails showing its output. */
function ranClean(run: CliRun): CliRun {
  expect(run.output).not.toMatch(/Cannot find module|MODULE_NOT_FOUND|ERR_PACKAGE_PATH_NOT_EXPORTED/);
  expect(run.code, run.output).toBe(0);
  return run;
}

/** The example's resources, as the CLI's progress names them. */
const EXAMPLE_RESOURCES = ["Alert ingest-lag", "ApiKey deployer", "PipeSettings ingest"];

describe.each([
  ["examples/", () => examplesDir()],
  ["the repository root", () => repoRoot()],
])("the example as a directory program, run in %s", (_where, projectDir) => {
  let emulator: RunningEmulator;
  let stack: CliStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    // The language host first, so the CLI runs this one and not an unrelated one a user may have;
    // the stack's config in a temporary file, so nothing is left beside the repository's Pulumi.yaml.
    stack = await CliStack.open({
      projectDir: projectDir(),
      pathFirst: [dirname(languageHost.path)],
      separateConfigFile: true,
    });
    await stack.setConfig(emulatorConfig(emulator));
  }, 900_000);

  afterAll(async () => {
    stack?.dispose();
    await emulator?.close();
  });

  it(
    "previews three creates and sends nothing but one check per credential",
    async () => {
      const preview = ranClean(await stack.run(["preview", ...stack.configArgs()]));
      // Each resource is listed when its step is planned; the summary counts the stack as well.
      expect([...new Set(ourSteps(preview.output, "create"))].sort(), preview.output).toEqual(EXAMPLE_RESOURCES);
      expect(preview.output).toMatch(/\+ 4 to create/);
      expect(credentialChecks(emulator).sort()).toEqual(Object.values(CREDENTIAL_READS).sort());
      expect(requestLog(emulator)).toEqual([]);
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    "creates one alert, one key and the pipe's settings on the emulator",
    async () => {
      const up = ranClean(await stack.run(["up", "--yes", ...stack.configArgs()]));
      expect([...new Set(ourSteps(up.output, "created"))].sort(), up.output).toEqual(EXAMPLE_RESOURCES);
      expectExampleMade(emulator);
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    "destroys them all",
    async () => {
      ranClean(await stack.run(["destroy", "--yes", ...stack.configArgs()]));
      const snap = emulator.snapshot();
      expect(snap.alerts).toEqual({});
      expect(snap.keys).toEqual({});
      // resetOnDelete: the settings the example managed are unset again.
      expect(snap.pipes[PIPE_RESOURCE_ID]).toMatchObject({
        db_max_threads: null,
        object_storage_concurrency: null,
        streaming_max_insert_wait_ms: null,
        db_parallel_view_processing: null,
      });
    },
    COMMAND_TIMEOUT_MS,
  );

  it("leaves no stack config file in the repository", () => {
    expect(existsSync(stack.repoConfigFile)).toBe(false);
  });
});
