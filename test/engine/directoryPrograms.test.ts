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

const PIPE_KEY =
  "0f8fad5b-d9cb-469f-a165-70867728950e/7c9e6679-7425-40de-944b-e07fc1f90ae7/1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";
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

function expectNoMissingModule(run: CliRun): void {
  expect(run.output).not.toMatch(/Cannot find module|MODULE_NOT_FOUND|ERR_PACKAGE_PATH_NOT_EXPORTED/);
}

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
    "previews three creates and sends no request",
    async () => {
      const preview = await stack.run(["preview", ...stack.configArgs()]);
      expectNoMissingModule(preview);
      expect(preview.code, preview.output).toBe(0);
      // Each resource is listed when its step is planned; the summary counts the stack as well.
      expect([...new Set(ourSteps(preview.output, "create"))].sort(), preview.output).toEqual([
        "Alert ingest-lag",
        "ApiKey deployer",
        "PipeSettings ingest",
      ]);
      expect(preview.output).toMatch(/\+ 4 to create/);
      expect(emulator.requests).toEqual([]);
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    "creates one alert, one key and the pipe's settings on the emulator",
    async () => {
      const up = await stack.run(["up", "--yes", ...stack.configArgs()]);
      expectNoMissingModule(up);
      expect(up.code, up.output).toBe(0);
      expect([...new Set(ourSteps(up.output, "created"))].sort(), up.output).toEqual([
        "Alert ingest-lag",
        "ApiKey deployer",
        "PipeSettings ingest",
      ]);
      const snap = emulator.snapshot();
      expect(Object.keys(snap.alerts)).toHaveLength(1);
      expect(Object.keys(snap.keys)).toHaveLength(1);
      expect(snap.pipes[PIPE_KEY]).toMatchObject({
        db_max_threads: 8,
        object_storage_concurrency: 4,
        streaming_max_insert_wait_ms: 1000,
        db_parallel_view_processing: true,
      });
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    "destroys them all",
    async () => {
      const destroy = await stack.run(["destroy", "--yes", ...stack.configArgs()]);
      expectNoMissingModule(destroy);
      expect(destroy.code, destroy.output).toBe(0);
      const snap = emulator.snapshot();
      expect(snap.alerts).toEqual({});
      expect(snap.keys).toEqual({});
      // resetOnDelete: the settings the example managed are unset again.
      expect(snap.pipes[PIPE_KEY]).toMatchObject({
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
