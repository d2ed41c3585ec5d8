import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Three tiers, one project each, so the quick loop never waits for what it does not use:
// unit (in-process, mock HTTP at most), emulator (the bundled emulator over loopback HTTP) and engine
// (the real pulumi CLI and the packed package, which only this tier's global setup prepares).
// `npm run test:unit` runs the first; `npm test` runs all three; `npm run test:openapi` (after it)
// validates what they sent and were answered against the services' API descriptions.

// Every emulator of a tier run logs its exchanges to one file per run, each tagged with its test
// (test/support/exchangeLogSetup.ts), which the openapi tier then validates.
const exchangeLog = {
  globalSetup: ["test/support/exchangeLogSetup.ts"],
  setupFiles: ["test/support/exchangeTag.ts"],
};

// The slowest files of a clean clone's run (no vitest cache: vitest would start the largest files first),
// slowest first, so that four workers end together rather than one running a long file alone at the end. An
// order only: a file that became fast, or a new slow one left out, costs minutes, never a test.
const SLOWEST_FIRST = [
  "test/engine/native.languages.test.ts",
  "test/engine/engine.clickPipePeer.test.ts",
  "test/engine/e2e.example.test.ts",
  "test/engine/engine.options.test.ts",
  "test/engine/engine.lifecycle.test.ts",
  "test/engine/release.install.test.ts",
  "test/engine/engine.observability.test.ts",
  "test/engine/soak.test.ts",
  "test/engine/engine.adoptPrograms.test.ts",
  "test/engine/quickStart.test.ts",
  "test/engine/firstStack.test.ts",
  "test/engine/engine.clickPipe.test.ts",
  "test/engine/engine.interrupt.test.ts",
  "test/engine/engine.clickPipeCdc.test.ts",
  "test/engine/engine.upgrade.test.ts",
  "test/engine/hyperdx.replay.test.ts",
  "test/engine/native.guarantees.test.ts",
  "test/engine/soak.alerting.test.ts",
  "test/engine/soak.clickPipe.test.ts",
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    sequence: { sequencer: SlowestFirst },
    // vitest's default is one worker less than the cores: one worker on 2 cores, so every file waited for the one
    // before. An engine file keeps about 1.15 cores busy (its CLI, host and provider wait on each other): three
    // workers kept 1.5 cores busy, so four. ALERTPIPE_TEST_WORKERS sets it for another machine.
    maxWorkers: Number(process.env.ALERTPIPE_TEST_WORKERS ?? 4),
    projects: [
      // Unit files share their worker's module cache (isolate: false): importing the provider afresh for each of
      // 70 files was two thirds of the tier's time. test/support/fileIsolation.ts restores what a file changed.
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          isolate: false,
          globalSetup: exchangeLog.globalSetup,
          setupFiles: [...exchangeLog.setupFiles, "test/support/fileIsolation.ts"],
        },
      },
      { extends: true, test: { name: "emulator", include: ["test/emulator/**/*.test.ts"], ...exchangeLog } },
      {
        extends: true,
        test: {
          name: "engine",
          include: ["test/engine/**/*.test.ts"],
          setupFiles: exchangeLog.setupFiles,
          globalSetup: [...exchangeLog.globalSetup, "test/support/globalSetup.ts"],
        },
      },
      // After `npm test`: `npm run test:openapi` alone turns it on, to validate the exchanges the run logged.
      ...(process.env.ALERTPIPE_OPENAPI_TIER === "1"
        ? [{ extends: true, test: { name: "openapi", include: ["test/openapi/**/*.test.ts"] } }]
        : []),
      // Not a tier: `npm run baseline:record` alone turns it on, to record a release's upgrade baselines.
      ...(process.env.ALERTPIPE_RECORD_BASELINE === "1"
        ? [{ extends: true, test: { name: "record", include: ["test/engine/recordBaseline.ts"] } }]
        : []),
      // Not a tier: `npm run record:hyperdx` alone turns it on, to record lifecycles from a HyperDX server.
      ...(process.env.ALERTPIPE_RECORD_HYPERDX === "1"
        ? [
            {
              extends: true,
              test: {
                name: "record-hyperdx",
                include: ["test/engine/recordHyperdx.ts"],
                globalSetup: ["test/support/globalSetup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
