import { defineConfig } from "vitest/config";

// Four tiers, one project each, so the quick loop never waits for what it does not use:
// unit (in-process, mock HTTP at most), emulator (the bundled emulator over loopback HTTP), engine
// (the real pulumi CLI and the packed package, which only this tier's global setup prepares) and
// real (HyperDX's own API server, the real alerting service, which only its global setup builds and starts).
// `npm run test:unit` runs the first; `npm test` runs all four.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "emulator", include: ["test/emulator/**/*.test.ts"] } },
      {
        extends: true,
        test: { name: "engine", include: ["test/engine/**/*.test.ts"], globalSetup: ["test/support/globalSetup.ts"] },
      },
      {
        extends: true,
        test: {
          name: "real",
          include: ["test/real/**/*.test.ts"],
          // The real service, and the engine for the programs run against it (test/real/engine.test.ts).
          globalSetup: ["test/support/realGlobalSetup.ts", "test/support/globalSetup.ts"],
        },
      },
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
