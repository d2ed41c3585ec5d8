import { defineConfig } from "vitest/config";

// Three tiers, one project each, so the quick loop never waits for what it does not use:
// unit (in-process, mock HTTP at most), emulator (the bundled emulator over loopback HTTP) and engine
// (the real pulumi CLI and the packed package, which only this tier's global setup prepares).
// `npm run test:unit` runs the first; `npm test` runs all three.
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
      // Not a tier: `npm run baseline:record` alone turns it on, to record a release's upgrade baselines.
      ...(process.env.ALERTPIPE_RECORD_BASELINE === "1"
        ? [{ extends: true, test: { name: "record", include: ["test/engine/recordBaseline.ts"] } }]
        : []),
    ],
  },
});
