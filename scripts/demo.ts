// `npm run demo`: the example stack through the real Pulumi engine, on this machine, with no cloud
// account and no network. Starts the bundled emulator, then shows the pulumi CLI's own output for
// preview, up, a change (dbMaxThreads 8 → 16) and up, refresh, and destroy; finally checks that
// nothing is left on the emulator.

import type { EngineStack, RunResult } from "./engine/stack";
import { emulatorConfig, openStack, prepareExamples, withEmulator } from "./exampleStack";

function print(text: string): void {
  process.stdout.write(text);
}

async function step(title: string, run: () => Promise<RunResult>): Promise<RunResult> {
  console.log(`\n=== ${title}`);
  const result = await run();
  if (!result.ok) throw new Error(`${title} failed: ${result.error ?? "see above"}`);
  return result;
}

async function main(): Promise<void> {
  const programDir = prepareExamples();
  let stack: EngineStack | undefined;
  try {
    await withEmulator({}, async (emulator) => {
      console.log(`Emulator of both APIs listening on ${emulator.url}`);
      const config = emulatorConfig(emulator);
      stack = await openStack({ stack: "demo", programDir, config: { ...config, "alertpipe-example:dbMaxThreads": { value: "8" } } });
      console.log(`Engine: the real Pulumi engine, ${stack.tool.path} ${stack.tool.version} (${stack.tool.source === "path" ? "from PATH" : "built from Go modules"}), Automation API inline program, state in ${stack.root}`);
      const s = stack;

      await step("pulumi preview", () => s.preview({ onOutput: print }));
      await step("pulumi up", () => s.up({ onOutput: print }));
      await s.setConfig({ "alertpipe-example:dbMaxThreads": { value: "16" } });
      await step("pulumi up, after changing dbMaxThreads 8 -> 16", () => s.up({ onOutput: print, diff: true }));
      const refreshed = await step("pulumi refresh", () => s.refresh({ onOutput: print }));
      const drifted = refreshed.steps.filter((x) => x.op !== "same");
      if (drifted.length > 0) throw new Error(`refresh found drift nobody made: ${drifted.map((x) => x.name).join(", ")}`);
      await step("pulumi destroy", () => s.destroy({ onOutput: print }));

      const left = emulator.snapshot();
      const leftovers = [
        ...Object.keys(left.alerts).map((id) => `alert ${id}`),
        ...Object.keys(left.keys).map((id) => `API key ${id}`),
        ...Object.entries(left.pipes)
          .filter(([, settings]) => Object.values(settings).some((v) => v !== null))
          .map(([pipe]) => `settings of pipe ${pipe}`),
      ];
      if (leftovers.length > 0) throw new Error(`destroy left objects behind: ${leftovers.join(", ")}`);
      console.log("\nNothing left behind on the emulator. Demo complete.");
    });
  } finally {
    stack?.dispose();
  }
}

main().catch((err: unknown) => {
  console.error(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
